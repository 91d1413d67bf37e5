/**
 * An overview of the whole board: every shape as a small rectangle, your view and the others'
 * views in their presence colours. A click or drag centres the board there. Redraws are limited
 * to 5 per second on big boards (drawing walks every shape's bounds).
 */
import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Rect } from '../canvas/camera';
import type { EditorApi } from '../canvas/editorApi';

export const MINIMAP_WIDTH = 200;
export const MINIMAP_HEIGHT = 140;
/** above this many shapes a redraw waits for the 200 ms tick instead of the next frame */
const BIG_BOARD = 500;
const MIN_INTERVAL_MS = 200;

export interface MinimapProps {
  editor: EditorApi;
  /** presence colours by peer id (#rrggbb) */
  colors: ReadonlyMap<number, string>;
}

export function union(a: Rect | null, b: Rect): Rect {
  if (!a) return { ...b };
  return {
    minX: Math.min(a.minX, b.minX),
    minY: Math.min(a.minY, b.minY),
    maxX: Math.max(a.maxX, b.maxX),
    maxY: Math.max(a.maxY, b.maxY),
  };
}

/** the bounds of every shape, or null on an empty board */
export function contentBounds(editor: EditorApi): Rect | null {
  let r: Rect | null = null;
  for (const it of editor.scene.order()) r = union(r, it.bounds);
  return r;
}

/** world ⇄ minimap pixels: the whole extent fits, centred, with a small margin */
export function minimapTransform(world: Rect, width = MINIMAP_WIDTH, height = MINIMAP_HEIGHT, margin = 6) {
  const w = Math.max(1, world.maxX - world.minX);
  const h = Math.max(1, world.maxY - world.minY);
  const scale = Math.min((width - 2 * margin) / w, (height - 2 * margin) / h);
  const ox = (width - w * scale) / 2 - world.minX * scale;
  const oy = (height - h * scale) / 2 - world.minY * scale;
  return {
    scale,
    toMap: (x: number, y: number) => ({ x: x * scale + ox, y: y * scale + oy }),
    toWorld: (mx: number, my: number) => ({ x: (mx - ox) / scale, y: (my - oy) / scale }),
  };
}

function extent(editor: EditorApi): Rect {
  let r = union(contentBounds(editor), editor.getState().view);
  for (const v of editor.peerViewports().values()) r = union(r, v);
  return r;
}

export function Minimap({ editor, colors }: MinimapProps) {
  const { t } = useTranslation('board');
  const canvas = useRef<HTMLCanvasElement>(null);
  const colorsRef = useRef(colors);
  useLayoutEffect(() => {
    colorsRef.current = colors;
  });

  const draw = useCallback(() => {
    const el = canvas.current;
    const g = el?.getContext('2d');
    if (!el || !g) return;
    const dpr = window.devicePixelRatio || 1;
    if (el.width !== MINIMAP_WIDTH * dpr) {
      el.width = MINIMAP_WIDTH * dpr;
      el.height = MINIMAP_HEIGHT * dpr;
    }
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, MINIMAP_WIDTH, MINIMAP_HEIGHT);
    const style = getComputedStyle(el);
    const fg = style.getPropertyValue('--fg').trim() || '#1d2330';
    const accent = style.getPropertyValue('--accent').trim() || '#2451b8';
    const m = minimapTransform(extent(editor));
    const rect = (r: Rect) => {
      const a = m.toMap(r.minX, r.minY);
      return [a.x, a.y, Math.max(1, (r.maxX - r.minX) * m.scale), Math.max(1, (r.maxY - r.minY) * m.scale)] as const;
    };
    g.globalAlpha = 0.45;
    g.fillStyle = fg;
    for (const it of editor.scene.order()) g.fillRect(...rect(it.bounds));
    g.globalAlpha = 1;
    g.lineWidth = 1.5;
    for (const [peer, v] of editor.peerViewports()) {
      g.strokeStyle = colorsRef.current.get(peer) ?? '#888';
      g.strokeRect(...rect(v));
    }
    g.strokeStyle = accent;
    g.lineWidth = 2;
    g.strokeRect(...rect(editor.getState().view));
  }, [editor]);

  // camera and selection changes come through subscribe; document and peer changes do not, so a
  // 200 ms tick redraws when the scene's version moved (peers' views move with their ephemeral)
  useEffect(() => {
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let frame = 0;
    const run = () => {
      timer = undefined;
      frame = 0;
      last = performance.now();
      draw();
    };
    const schedule = () => {
      if (timer !== undefined || frame) return;
      const wait = MIN_INTERVAL_MS - (performance.now() - last);
      if (editor.scene.size > BIG_BOARD && wait > 0) timer = setTimeout(run, wait);
      else if (typeof requestAnimationFrame === 'function') frame = requestAnimationFrame(run);
      else run();
    };
    const off = editor.subscribe(schedule);
    const tick = setInterval(schedule, MIN_INTERVAL_MS);
    draw();
    return () => {
      off();
      clearInterval(tick);
      clearTimeout(timer);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [editor, draw]);

  const centre = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    // CSS may draw the map smaller (phones): back to the map's own pixels
    const sx = box.width ? MINIMAP_WIDTH / box.width : 1;
    const sy = box.height ? MINIMAP_HEIGHT / box.height : 1;
    const m = minimapTransform(extent(editor));
    const p = m.toWorld((e.clientX - box.left) * sx, (e.clientY - box.top) * sy);
    editor.centerOn(p.x, p.y);
  };
  return (
    <div className="minimap" data-testid="minimap">
      <canvas
        ref={canvas}
        width={MINIMAP_WIDTH}
        height={MINIMAP_HEIGHT}
        role="img"
        aria-label={t('minimap.label', { count: editor.scene.size })}
        onPointerDown={(e) => {
          e.currentTarget.setPointerCapture?.(e.pointerId);
          centre(e);
        }}
        onPointerMove={(e) => {
          if (e.buttons & 1) centre(e);
        }}
      />
    </div>
  );
}
