/**
 * Thin scroll bars over the board: the track is the content bounds ∪ the view, the thumb is the
 * view. Dragging a thumb pans; they hide when everything is in view.
 */
import { useMemo, useRef } from 'react';
import type { Rect } from '../canvas/camera';
import type { EditorApi } from '../canvas/editorApi';
import { useEditorState } from './editorHooks';
import { contentBounds, union } from './Minimap';

export function Scrollbars({ editor }: { editor: EditorApi }) {
  const view = useEditorState(editor, (s) => s.view);
  // the bounds walk every shape: once per scene version, not per camera move
  const version = (editor.scene as { version?: number }).version ?? 0;
  // the scene changes in place: its version is the cache key, though the callback does not read it
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const content = useMemo(() => contentBounds(editor), [editor, version]);
  const total = union(content, view);
  return (
    <>
      <Bar editor={editor} axis="x" total={total} view={view} />
      <Bar editor={editor} axis="y" total={total} view={view} />
    </>
  );
}

function Bar({ editor, axis, total, view }: { editor: EditorApi; axis: 'x' | 'y'; total: Rect; view: Rect }) {
  const track = useRef<HTMLDivElement>(null);
  const drag = useRef<{ start: number; camera: number } | null>(null);
  const [min, max] = axis === 'x' ? [total.minX, total.maxX] : [total.minY, total.maxY];
  const [vmin, vmax] = axis === 'x' ? [view.minX, view.maxX] : [view.minY, view.maxY];
  const size = Math.max(1, max - min);
  const start = (vmin - min) / size;
  const length = (vmax - vmin) / size;
  if (length >= 0.99) return null;
  const pos = (e: React.PointerEvent) => (axis === 'x' ? e.clientX : e.clientY);
  return (
    <div className={`board-scrollbar board-scrollbar-${axis}`} ref={track} aria-hidden="true">
      <div
        className="board-scrollbar-thumb"
        style={
          axis === 'x'
            ? { left: `${start * 100}%`, width: `${length * 100}%` }
            : { top: `${start * 100}%`, height: `${length * 100}%` }
        }
        onPointerDown={(e) => {
          e.currentTarget.setPointerCapture?.(e.pointerId);
          const c = editor.getState().camera;
          drag.current = { start: pos(e), camera: axis === 'x' ? c.x : c.y };
        }}
        onPointerMove={(e) => {
          const d = drag.current;
          const box = track.current?.getBoundingClientRect();
          if (!d || !box) return;
          const trackPx = Math.max(1, axis === 'x' ? box.width : box.height);
          const world = ((pos(e) - d.start) / trackPx) * size;
          const c = editor.getState().camera;
          editor.setCamera(axis === 'x' ? { ...c, x: d.camera + world } : { ...c, y: d.camera + world });
        }}
        onPointerUp={() => {
          drag.current = null;
        }}
        onPointerCancel={() => {
          drag.current = null;
        }}
      />
    </div>
  );
}
