/**
 * The editing panel of the formula or graph being edited (EditorState.editing): placing one or
 * double-clicking it opens the panel; its changes go through editor.updateShape (one undo step
 * each) so everyone sees them live. The panels and their libraries (MathJax, function-plot) are
 * separate chunks, loaded the first time a panel opens.
 *
 * The open panel takes the keyboard (issue 26 #6): focus moves into its first field once it has
 * loaded, keys pressed in it never reach the board's shortcuts (`data-own-keys`, boardView.ts),
 * and Escape closes it, also while the focus is on the board.
 */
import { lazy, Suspense, useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import type { FormulaShape, GraphShape } from '@wb/proto';
import type { EditorApi } from '../canvas/editorApi';
import { useEditorState } from './editorHooks';

const FormulaPanel = lazy(() => import('../formula/FormulaPanel'));
const GraphPanel = lazy(() => import('../graph/GraphPanel'));

export interface ShapeEditorHostProps {
  editor: EditorApi;
  /** the plan includes `advancedGraphs` */
  advancedGraphs: boolean;
  onUpgrade: () => void;
}

export function ShapeEditorHost({ editor, advancedGraphs, onUpgrade }: ShapeEditorHostProps) {
  const editing = useEditorState(editor, (s) => s.editing);
  const id = editing?.id ?? null;
  // the record as it is now (others may edit it too); the scene replaces a changed record
  const subscribe = useCallback((fn: () => void) => editor.subscribe(fn), [editor]);
  const shape = useSyncExternalStore(subscribe, () => (id ? (editor.scene.get(id)?.shape ?? null) : null));
  const update = useCallback((patch: object) => id && editor.updateShape(id, { ...patch }), [editor, id]);
  const close = useCallback(() => editor.closeEditor(), [editor]);
  const box = useRef<HTMLDivElement>(null);
  const open = !!shape;

  // focus the panel's first field once its chunk has rendered it (each newly opened shape)
  useEffect(() => {
    const el = box.current;
    if (!id || !el) return;
    if (focusPanel(el)) return;
    const mo = new MutationObserver(() => focusPanel(el) && mo.disconnect());
    mo.observe(el, { childList: true, subtree: true });
    return () => mo.disconnect();
  }, [id, open]);

  // Escape with the focus elsewhere (on the board): the panel closes (inside, the panel's own
  // handler commits and closes first)
  useEffect(() => {
    if (!id) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      const target = e.target as HTMLElement | null;
      if (target?.closest?.('[role="dialog"], textarea, input, select')) return;
      close();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [id, close]);

  if (!shape) return null;
  return (
    <div className="shape-editor" ref={box} data-own-keys="">
      <Suspense fallback={null}>
        {shape.kind === 'formula' ? (
          <FormulaPanel key={shape.id} shape={shape as FormulaShape} update={update} close={close} />
        ) : shape.kind === 'graph' ? (
          <GraphPanel
            key={shape.id}
            shape={shape as GraphShape}
            update={update}
            close={close}
            advancedGraphs={advancedGraphs}
            onUpgrade={onUpgrade}
          />
        ) : null}
      </Suspense>
    </div>
  );
}

/** the panel's first text field (else its first control) takes the focus; false until it is there */
function focusPanel(box: HTMLElement): boolean {
  const panel = box.querySelector<HTMLElement>('.shape-panel');
  if (!panel) return false;
  if (panel.contains(document.activeElement)) return true;
  const field =
    panel.querySelector<HTMLElement>('textarea, input[type="text"]:not([disabled])') ??
    panel.querySelector<HTMLElement>('button:not([disabled]), input:not([disabled]), select');
  (field ?? panel).focus({ preventScroll: true });
  return true;
}
