/**
 * The editing panel of the formula or graph being edited (EditorState.editing): placing one or
 * double-clicking it opens the panel; its changes go through editor.updateShape (one undo step
 * each) so everyone sees them live. The panels and their libraries (MathJax, function-plot) are
 * separate chunks, loaded the first time a panel opens.
 */
import { lazy, Suspense, useCallback, useSyncExternalStore } from 'react';
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
  if (!shape) return null;
  return (
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
  );
}
