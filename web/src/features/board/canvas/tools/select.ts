/**
 * Select (issue 13): click selects (a group as a whole; Shift adds/removes), a drag on empty
 * space is a marquee (what it touches), a drag on the selection moves it (drawn displaced by
 * scene.offsets, snapped with guides, Alt disables), eight handles resize it (Shift keeps the
 * ratio; several shapes resize together) and a handle above it rotates it (Shift: 15° steps),
 * previewed through scene.overrides. One commit at pointer up. Locked shapes can be selected but
 * not moved, resized or rotated. Double-click edits a sticky's, text's or shape's text (a
 * formula's or graph's in its panel): the kinds with ShapeUtil.editing.
 */
import type { ShapeRecord } from '@wb/proto';
import { moveShape } from '../../realtime/boardDoc';
import { rectOf, type Point, type Rect } from '../camera';
import { expandGroups, unionRect } from '../editor/arrange';
import { patchShape } from '../editor/undo';
import { drawGuides, snapBox, snapQueryRect, SNAP_PX, type Guide } from '../editor/snapping';
import { localBox, unrotate } from '../geometry';
import type { SceneItem } from '../scene';
import { utilOf } from '../shapes/registry';
import { resizeShape, rotateShape } from '../transform';
import type { Tool, ToolHost, ToolPointer } from './types';

export type Handle = 'nw' | 'n' | 'ne' | 'e' | 'se' | 's' | 'sw' | 'w' | 'rotate';
const RESIZE_HANDLES: readonly Exclude<Handle, 'rotate'>[] = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'];

/** screen px */
const HANDLE_SIZE = 8;
const HANDLE_HIT = 7;
const ROTATE_OFFSET = 24;
const DRAG_SLOP = 3;
const HIT_TOLERANCE = 6;
const ROTATE_STEP = Math.PI / 12;
const MIN_SIZE = 1;

/** the selection's frame: an unrotated box turned by `rotation` about its centre */
export interface Frame {
  box: Rect;
  rotation: number;
}

/** where snapping may come from: null = off (settings); grid spacing in world units or null */
export type SnapSettings = (host: ToolHost) => { grid: number | null } | null;

export interface SelectToolOptions {
  /** snapping settings; default: shapes only, no grid */
  snapping?: SnapSettings;
}

const centreOf = (r: Rect): Point => ({ x: (r.minX + r.maxX) / 2, y: (r.minY + r.maxY) / 2 });

function turn(p: Point, c: Point, angle: number): Point {
  if (!angle) return p;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const dx = p.x - c.x;
  const dy = p.y - c.y;
  return { x: c.x + dx * cos - dy * sin, y: c.y + dx * sin + dy * cos };
}

/** a frame's unrotated box corners: [x, y] in local units relative to the handle */
/**
 * The resize handles a frame shows (and answers to): edge handles need room for three handles
 * along their edge (else they cover the corners) and across it (on a thin frame — a stroke, a
 * line — they would sit on the shape and take the drag that should move it).
 */
function visibleHandles(frame: Frame, zoom: number): Exclude<Handle, 'rotate'>[] {
  const w = (frame.box.maxX - frame.box.minX) * zoom;
  const h = (frame.box.maxY - frame.box.minY) * zoom;
  const room = 3 * HANDLE_SIZE;
  return RESIZE_HANDLES.filter((hd) => {
    if (hd === 'n' || hd === 's') return w >= room && h >= room;
    if (hd === 'e' || hd === 'w') return h >= room && w >= room;
    return true;
  });
}

const HANDLE_AT: Record<Exclude<Handle, 'rotate'>, [number, number]> = {
  nw: [0, 0],
  n: [0.5, 0],
  ne: [1, 0],
  e: [1, 0.5],
  se: [1, 1],
  s: [0.5, 1],
  sw: [0, 1],
  w: [0, 0.5],
};

/** world position of a handle; the rotate handle sits above the top edge */
export function handlePoint(frame: Frame, h: Handle, zoom: number): Point {
  const { box } = frame;
  const c = centreOf(box);
  if (h === 'rotate') return turn({ x: c.x, y: box.minY - ROTATE_OFFSET / zoom }, c, frame.rotation);
  const [fx, fy] = HANDLE_AT[h];
  return turn(
    { x: box.minX + fx * (box.maxX - box.minX), y: box.minY + fy * (box.maxY - box.minY) },
    c,
    frame.rotation,
  );
}

/**
 * The frame's box after dragging handle `h` to local point q (frame coordinates, unrotated);
 * the opposite side stays; Shift keeps the ratio (edges: about the middle of the other axis).
 */
export function resizedBox(box: Rect, h: Exclude<Handle, 'rotate'>, q: Point, keepRatio: boolean): Rect {
  const [fx, fy] = HANDLE_AT[h];
  let { minX, minY, maxX, maxY } = box;
  if (fx === 0) minX = Math.min(q.x, maxX - MIN_SIZE);
  if (fx === 1) maxX = Math.max(q.x, minX + MIN_SIZE);
  if (fy === 0) minY = Math.min(q.y, maxY - MIN_SIZE);
  if (fy === 1) maxY = Math.max(q.y, minY + MIN_SIZE);
  const w0 = box.maxX - box.minX;
  const h0 = box.maxY - box.minY;
  if (!keepRatio || w0 <= 0 || h0 <= 0) return { minX, minY, maxX, maxY };
  let sx = (maxX - minX) / w0;
  let sy = (maxY - minY) / h0;
  if (fx === 0.5) sx = sy;
  else if (fy === 0.5) sy = sx;
  else sx = sy = Math.max(sx, sy);
  const w = w0 * sx;
  const hh = h0 * sy;
  // anchor: the opposite side (or the middle for the axis an edge handle does not drag)
  const ax = fx === 0 ? box.maxX : fx === 1 ? box.minX : (box.minX + box.maxX) / 2;
  const ay = fy === 0 ? box.maxY : fy === 1 ? box.minY : (box.minY + box.maxY) / 2;
  const nx = fx === 0 ? ax - w : fx === 1 ? ax : ax - w / 2;
  const ny = fy === 0 ? ay - hh : fy === 1 ? ay : ay - hh / 2;
  return { minX: nx, minY: ny, maxX: nx + w, maxY: ny + hh };
}

/** the CSS resize cursor for a handle on a frame turned by `rotation` */
function resizeCursor(h: Exclude<Handle, 'rotate'>, rotation: number): string {
  const [fx, fy] = HANDLE_AT[h];
  const angle = Math.atan2(fy - 0.5, fx - 0.5) + rotation;
  const names = ['ew-resize', 'nwse-resize', 'ns-resize', 'nesw-resize'];
  const i = ((Math.round(angle / (Math.PI / 4)) % 4) + 4) % 4;
  return names[i]!;
}

type Gesture =
  | { kind: 'press'; from: Point; hitId: string; wasSelected: boolean; shift: boolean; edit: boolean }
  | { kind: 'move'; from: Point; ids: string[]; box: Rect; dx: number; dy: number }
  | { kind: 'marquee'; from: Point; to: Point; base: string[] }
  | {
      kind: 'resize';
      handle: Exclude<Handle, 'rotate'>;
      frame: Frame;
      originals: ShapeRecord[];
      to: Rect | null;
    }
  | { kind: 'rotate'; frame: Frame; originals: ShapeRecord[]; start: number; angle: number };

export class SelectTool implements Tool {
  readonly id = 'select';
  readonly cursor = 'default';
  readonly edits = false;
  private gesture: Gesture | null = null;
  private guides: Guide[] = [];

  constructor(private readonly opts: SelectToolOptions = {}) {}

  /** a gesture is under way */
  get busy(): boolean {
    return this.gesture !== null;
  }

  // ------------------------------------------------------------------------------------------
  // the selection

  private items(host: ToolHost, ids: Iterable<string> = host.selection()): SceneItem[] {
    const out: SceneItem[] = [];
    for (const id of ids) {
      const it = host.scene.get(id);
      if (it) out.push(it);
    }
    return out;
  }

  /**
   * The frame around the selection: one shape's own (rotated) box, or the union of several
   * shapes' boxes (rotated ones by their bounds). Null for an empty selection.
   */
  frame(host: ToolHost): Frame | null {
    const items = this.items(host);
    if (items.length === 1) {
      const it = host.scene.drawn(items[0]!);
      const b = localBox(it.shape, it.points);
      const o = host.scene.offsets.get(it.shape.id);
      const ox = o?.x ?? 0;
      const oy = o?.y ?? 0;
      return {
        box: { minX: b.x + ox, minY: b.y + oy, maxX: b.x + b.w + ox, maxY: b.y + b.h + oy },
        rotation: b.rotation,
      };
    }
    const box = this.boxOf(host, items);
    return box ? { box, rotation: 0 } : null;
  }

  /** the union of items' boxes as drawn (rotated ones by their bounds); null for none */
  private boxOf(host: ToolHost, items: readonly SceneItem[]): Rect | null {
    return unionRect(
      items.map((raw) => {
        const it = host.scene.drawn(raw);
        if (it.shape.rotation) return host.scene.displaced(raw);
        const b = itemBox(it);
        const o = host.scene.offsets.get(it.shape.id);
        return o ? { minX: b.minX + o.x, minY: b.minY + o.y, maxX: b.maxX + o.x, maxY: b.maxY + o.y } : b;
      }),
    );
  }

  /** resize/rotate handles exist: something is selected, the person may edit, nothing is locked */
  private editable(host: ToolHost): boolean {
    const items = this.items(host);
    return host.canEdit() && items.length > 0 && items.every((it) => !it.shape.locked);
  }

  /** the handle under a world point, if the selection has handles */
  handleAt(p: Point, host: ToolHost): Handle | null {
    if (!this.editable(host)) return null;
    const frame = this.frame(host);
    if (!frame) return null;
    const zoom = host.zoom();
    const reach = HANDLE_HIT / zoom;
    const hit = (h: Handle) => {
      const q = handlePoint(frame, h, zoom);
      return Math.abs(p.x - q.x) <= reach && Math.abs(p.y - q.y) <= reach;
    };
    if (hit('rotate')) return 'rotate';
    // corners before edges (on small selections the edge handles come close to them)
    for (const h of visibleHandles(frame, zoom)) if (hit(h)) return h;
    return null;
  }

  /** the cursor over a point (handles, the movable selection); null = the tool's own */
  cursorAt(p: Point, host: ToolHost): string | null {
    if (this.gesture?.kind === 'rotate') return 'grabbing';
    const h = this.handleAt(p, host);
    if (h === 'rotate') return 'grab';
    const frame = h ? this.frame(host) : null;
    if (h && frame) return resizeCursor(h, frame.rotation);
    const hit = host.scene.hitTest(p, HIT_TOLERANCE / host.zoom());
    if (hit && host.selection().has(hit.shape.id) && host.canEdit() && !hit.shape.locked) return 'move';
    return null;
  }

  // ------------------------------------------------------------------------------------------
  // gestures

  down(p: ToolPointer, host: ToolHost): void {
    this.guides = [];
    const handle = this.handleAt(p, host);
    if (handle) {
      const frame = this.frame(host)!;
      const originals = this.items(host).map((it) => it.shape);
      if (handle === 'rotate') {
        const c = centreOf(frame.box);
        this.gesture = { kind: 'rotate', frame, originals, start: Math.atan2(p.y - c.y, p.x - c.x), angle: 0 };
      } else this.gesture = { kind: 'resize', handle, frame, originals, to: null };
      host.redraw();
      return;
    }
    const hit = host.scene.hitTest(p, HIT_TOLERANCE / host.zoom());
    if (!hit) {
      const base = p.shift ? [...host.selection()] : [];
      if (!p.shift) host.setSelection([]);
      this.gesture = { kind: 'marquee', from: p, to: p, base };
      host.redraw();
      return;
    }
    const id = hit.shape.id;
    // a double click edits the text when released in place (a quick click-then-drag still moves):
    // kinds with ShapeUtil.editing, their text in place or (formulas, graphs) in their panels
    const edit = p.clicks >= 2 && !!utilOf(hit.shape.kind).editing && !p.shift && host.canEdit();
    const group = expandGroups([id], host.scene);
    const sel = new Set(host.selection());
    const wasSelected = sel.has(id);
    if (p.shift) {
      if (wasSelected) for (const g of group) sel.delete(g);
      else for (const g of group) sel.add(g);
    } else if (!wasSelected) {
      sel.clear();
      for (const g of group) sel.add(g);
    }
    host.setSelection(sel);
    this.gesture = { kind: 'press', from: p, hitId: id, wasSelected, shift: p.shift, edit };
    host.redraw();
  }

  move(p: ToolPointer, host: ToolHost): void {
    const g = this.gesture;
    if (!g) return;
    switch (g.kind) {
      case 'press': {
        if (Math.hypot(p.x - g.from.x, p.y - g.from.y) * host.zoom() < DRAG_SLOP) return;
        if (!host.canEdit() || !host.selection().has(g.hitId)) {
          this.gesture = null;
          return;
        }
        const ids = this.items(host)
          .filter((it) => !it.shape.locked)
          .map((it) => it.shape.id);
        if (!ids.length) {
          this.gesture = null;
          return;
        }
        const box = this.boxOf(host, this.items(host, ids))!;
        this.gesture = { kind: 'move', from: g.from, ids, box, dx: 0, dy: 0 };
        this.move(p, host);
        return;
      }
      case 'move': {
        let dx = p.x - g.from.x;
        let dy = p.y - g.from.y;
        this.guides = [];
        const settings = p.alt ? null : this.opts.snapping ? this.opts.snapping(host) : { grid: null };
        if (settings) {
          const moved: Rect = {
            minX: g.box.minX + dx,
            minY: g.box.minY + dy,
            maxX: g.box.maxX + dx,
            maxY: g.box.maxY + dy,
          };
          const tolerance = SNAP_PX / host.zoom();
          const exclude = new Set(g.ids);
          const candidates = host.scene
            .intersecting(
              snapQueryRect(
                moved,
                tolerance,
                Math.max(moved.maxX - moved.minX, moved.maxY - moved.minY, 400 / host.zoom()),
              ),
            )
            .filter((it) => !exclude.has(it.shape.id))
            .map((it) => itemBox(it));
          const s = snapBox(moved, { grid: settings.grid, candidates, tolerance });
          dx += s.dx;
          dy += s.dy;
          this.guides = s.guides;
        }
        g.dx = dx;
        g.dy = dy;
        for (const id of g.ids) host.scene.offsets.set(id, { x: dx, y: dy });
        host.scene.touch();
        host.redraw();
        return;
      }
      case 'marquee':
        g.to = p;
        host.redraw();
        return;
      case 'resize': {
        const c = centreOf(g.frame.box);
        const q = unrotate({ ...boxAsLocal(g.frame), rotation: g.frame.rotation }, p);
        const local = resizedBox(g.frame.box, g.handle, q, p.shift);
        // the box is resized in the frame's own axes; its centre moves in world axes
        const lc = centreOf(local);
        const wc = turn(lc, c, g.frame.rotation);
        const hw = (local.maxX - local.minX) / 2;
        const hh = (local.maxY - local.minY) / 2;
        g.to = { minX: wc.x - hw, minY: wc.y - hh, maxX: wc.x + hw, maxY: wc.y + hh };
        for (const s of g.originals) host.scene.overrides.set(s.id, resizeInFrame(s, g.frame, g.to));
        host.scene.touch();
        host.redraw();
        return;
      }
      case 'rotate': {
        const c = centreOf(g.frame.box);
        let angle = Math.atan2(p.y - c.y, p.x - c.x) - g.start;
        if (p.shift) angle = Math.round((g.frame.rotation + angle) / ROTATE_STEP) * ROTATE_STEP - g.frame.rotation;
        g.angle = angle;
        for (const s of g.originals) host.scene.overrides.set(s.id, rotateShape(s, c, angle));
        host.scene.touch();
        host.redraw();
        return;
      }
    }
  }

  up(p: ToolPointer, host: ToolHost): void {
    const g = this.gesture;
    if (!g) return;
    this.move(p, host);
    const done = this.gesture;
    this.gesture = null;
    this.guides = [];
    if (!done) {
      host.redraw();
      return;
    }
    switch (done.kind) {
      case 'press':
        if (done.edit) {
          host.setSelection([done.hitId]);
          host.editText(done.hitId);
          break;
        }
        // a plain click on a member of a bigger selection selects just its group
        if (!done.shift && done.wasSelected) host.setSelection(expandGroups([done.hitId], host.scene));
        break;
      case 'move': {
        const { ids, dx, dy } = done;
        for (const id of ids) host.scene.offsets.delete(id);
        host.scene.touch();
        if (dx || dy)
          host.commit((d) => {
            for (const id of ids) moveShape(d, id, dx, dy);
          });
        break;
      }
      case 'marquee': {
        const r = rectOf(done.from, done.to);
        if (r.maxX - r.minX > 0 || r.maxY - r.minY > 0) {
          const hits = host.scene.intersecting(r).map((it) => it.shape.id);
          host.setSelection(expandGroups([...done.base, ...hits], host.scene));
        }
        break;
      }
      case 'resize':
      case 'rotate': {
        const after = done.originals.map((s) => host.scene.overrides.get(s.id) ?? s);
        for (const s of done.originals) host.scene.overrides.delete(s.id);
        host.scene.touch();
        const changed = done.kind === 'resize' ? done.to !== null : done.angle !== 0;
        if (changed)
          host.commit((d) => {
            done.originals.forEach((s, i) => patchShape(d, s, after[i]!));
          });
        break;
      }
    }
    host.redraw();
  }

  cancel(host: ToolHost): void {
    const g = this.gesture;
    this.gesture = null;
    this.guides = [];
    if (g?.kind === 'move') for (const id of g.ids) host.scene.offsets.delete(id);
    if (g?.kind === 'resize' || g?.kind === 'rotate') for (const s of g.originals) host.scene.overrides.delete(s.id);
    host.scene.touch();
    host.redraw();
  }

  key(e: { key: string; shift: boolean; mod: boolean }, host: ToolHost): boolean {
    if (e.key !== 'Escape') return false;
    if (this.gesture) this.cancel(host);
    else if (host.selection().size) host.setSelection([]);
    else return false;
    host.redraw();
    return true;
  }

  // ------------------------------------------------------------------------------------------
  // drawing

  drawOverlay(g: CanvasRenderingContext2D, host: ToolHost): void {
    const zoom = host.zoom();
    g.save();
    g.setLineDash([]);
    const items = this.items(host);
    // each selected shape's outline, then the frame with its handles
    g.strokeStyle = '#2563eb';
    g.lineWidth = 1 / zoom;
    if (items.length > 1)
      for (const it of items) {
        const b = host.scene.displaced(it);
        g.strokeRect(b.minX, b.minY, b.maxX - b.minX, b.maxY - b.minY);
      }
    const frame = this.frame(host);
    const gesture = this.gesture;
    if (frame && gesture?.kind !== 'marquee') {
      const corners = (['nw', 'ne', 'se', 'sw'] as const).map((h) => handlePoint(frame, h, zoom));
      g.lineWidth = 1.5 / zoom;
      g.beginPath();
      corners.forEach((q, i) => (i ? g.lineTo(q.x, q.y) : g.moveTo(q.x, q.y)));
      g.closePath();
      g.stroke();
      const locked = items.some((it) => it.shape.locked);
      if (this.editable(host) && gesture?.kind !== 'move') this.drawHandles(g, frame, zoom);
      else if (locked) this.drawLock(g, corners[1]!, zoom);
    }
    if (gesture?.kind === 'marquee') {
      const r = rectOf(gesture.from, gesture.to);
      g.lineWidth = 1 / zoom;
      g.fillStyle = 'rgba(37, 99, 235, 0.08)';
      g.fillRect(r.minX, r.minY, r.maxX - r.minX, r.maxY - r.minY);
      g.strokeRect(r.minX, r.minY, r.maxX - r.minX, r.maxY - r.minY);
    }
    g.restore();
    drawGuides(g, this.guides, zoom);
  }

  private drawHandles(g: CanvasRenderingContext2D, frame: Frame, zoom: number): void {
    const size = HANDLE_SIZE / zoom;
    const top = handlePoint(frame, 'n', zoom);
    const rot = handlePoint(frame, 'rotate', zoom);
    g.beginPath();
    g.moveTo(top.x, top.y);
    g.lineTo(rot.x, rot.y);
    g.stroke();
    g.fillStyle = '#ffffff';
    g.lineWidth = 1.5 / zoom;
    for (const hd of visibleHandles(frame, zoom)) {
      const q = handlePoint(frame, hd, zoom);
      g.save();
      g.translate(q.x, q.y);
      g.rotate(frame.rotation);
      g.fillRect(-size / 2, -size / 2, size, size);
      g.strokeRect(-size / 2, -size / 2, size, size);
      g.restore();
    }
    g.beginPath();
    g.arc(rot.x, rot.y, size / 2 + 1 / zoom, 0, Math.PI * 2);
    g.fill();
    g.stroke();
  }

  /** a small padlock at the frame's top-right: selected but locked */
  private drawLock(g: CanvasRenderingContext2D, at: Point, zoom: number): void {
    const s = 10 / zoom;
    g.fillStyle = '#2563eb';
    g.fillRect(at.x + 2 / zoom, at.y - s - 2 / zoom, s, s * 0.7);
    g.beginPath();
    g.arc(at.x + 2 / zoom + s / 2, at.y - s - 2 / zoom, s / 3, Math.PI, 0);
    g.stroke();
  }
}

/** a shape's box without stroke padding (what people align), its bounds when turned */
function itemBox(it: SceneItem): Rect {
  if (it.shape.rotation) return it.bounds;
  const b = localBox(it.shape, it.points);
  return { minX: b.x, minY: b.y, maxX: b.x + b.w, maxY: b.y + b.h };
}

/**
 * Resize a shape with its frame. A turned frame is one shape's own box: it is resized along the
 * shape's axes (resizeShape maps world-axis boxes, so the shape is mapped unturned and turned back
 * about its new centre, which `to` already holds).
 */
export function resizeInFrame<S extends ShapeRecord>(shape: S, frame: Frame, to: Rect): S {
  if (!frame.rotation) return resizeShape(shape, frame.box, to);
  const flat = resizeShape({ ...shape, rotation: 0 }, frame.box, to);
  return { ...flat, rotation: shape.rotation };
}

function boxAsLocal(frame: Frame): { x: number; y: number; w: number; h: number } {
  const b = frame.box;
  return { x: b.minX, y: b.minY, w: b.maxX - b.minX, h: b.maxY - b.minY };
}
