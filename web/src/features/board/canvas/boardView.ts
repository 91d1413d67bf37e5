/**
 * The imperative board view (no React): wires the realtime client's document and ephemeral
 * events to the scene, the renderer and the remote cursors, and the pointer input to the
 * current tool, pan and zoom. React mounts it once per board (BoardCanvas.tsx) and drives it
 * through setTool / deleteSelection / zoom.
 */
import { RT_LIMITS } from '@wb/proto';
import type { BoardClient } from '../realtime/boardClient';
import { newShapeId, removeShape, type BoardDoc } from '../realtime/boardDoc';
import { DEFAULT_CAMERA, fitRect, panBy, toScreen, toWorld, visibleRect, zoomAt, type Camera } from './camera';
import { cssColor } from './geometry';
import { drawStroke } from './painters';
import { CanvasRenderer } from './renderer';
import { Scene } from './scene';
import { createTools, type Tool, type ToolHost, type ToolId, type ToolPointer } from './tools';

export interface BoardViewOptions {
  /** pen style (settings: toolStrokeColor, toolStrokeWidth) */
  style: { strokeColor: number; strokeWidth: number };
  onSelectionChange?: (count: number) => void;
  onZoomChange?: (zoom: number) => void;
}

export class BoardView implements ToolHost {
  readonly scene = new Scene();
  readonly renderer: CanvasRenderer;
  private readonly tools = createTools();
  private tool: Tool = this.tools.select;
  private selected = new Set<string>();
  private readonly sceneCanvas = document.createElement('canvas');
  private readonly overlayCanvas = document.createElement('canvas');
  private readonly cursorLayer = document.createElement('div');
  private readonly cursorEls = new Map<number, HTMLElement>();
  private readonly disposers: (() => void)[] = [];
  private pan: { x: number; y: number } | null = null;
  private activePointer: number | null = null;
  private spaceDown = false;

  constructor(
    private readonly root: HTMLElement,
    private readonly client: BoardClient,
    private readonly opts: BoardViewOptions,
  ) {
    this.sceneCanvas.className = 'board-layer';
    this.overlayCanvas.className = 'board-layer board-input';
    this.overlayCanvas.setAttribute('aria-hidden', 'true');
    this.sceneCanvas.setAttribute('aria-hidden', 'true');
    this.cursorLayer.className = 'cursor-layer';
    root.append(this.sceneCanvas, this.overlayCanvas, this.cursorLayer);
    this.renderer = new CanvasRenderer(this.scene, this.sceneCanvas, this.overlayCanvas, (g) => this.paintOverlay(g));

    this.scene.apply(client.doc, { all: true });
    this.updateAttributes();
    this.disposers.push(
      client.onDoc((u) => {
        this.scene.apply(client.doc, u);
        const gone = [...this.selected].filter((id) => !this.scene.get(id));
        if (gone.length) this.setSelection([...this.selected].filter((id) => this.scene.get(id)));
        this.renderer.invalidate();
        this.updateAttributes();
      }),
      client.onEphemeral(() => {
        this.renderer.invalidate();
        this.placeCursors();
        this.updateAttributes();
      }),
      client.subscribe(() => this.placeCursors()),
    );

    const el = this.overlayCanvas;
    const on = <K extends keyof HTMLElementEventMap>(
      target: HTMLElement | Window,
      type: K,
      fn: (e: HTMLElementEventMap[K]) => void,
      opts?: AddEventListenerOptions,
    ) => {
      target.addEventListener(type, fn as EventListener, opts);
      this.disposers.push(() => target.removeEventListener(type, fn as EventListener, opts));
    };
    on(el, 'pointerdown', (e) => this.onDown(e));
    on(el, 'pointermove', (e) => this.onMove(e));
    on(el, 'pointerup', (e) => this.onUp(e));
    on(el, 'pointercancel', () => this.onCancel());
    on(el, 'wheel', (e) => this.onWheel(e), { passive: false });
    on(el, 'contextmenu', (e) => e.preventDefault());
    on(window, 'keydown', (e) => {
      if (e.code === 'Space' && !isTyping(e.target)) this.spaceDown = true;
    });
    on(window, 'keyup', (e) => {
      if (e.code === 'Space') this.spaceDown = false;
    });

    const ro = new ResizeObserver(() => this.resize());
    ro.observe(root);
    this.disposers.push(() => ro.disconnect());
    this.resize();
    this.setTool('select');
  }

  // ------------------------------------------------------------------------------------------
  // ToolHost

  get userId(): number {
    return this.client.userId;
  }
  get ephemeral() {
    return this.client.outbox;
  }
  zoom(): number {
    return this.renderer.camera.zoom;
  }
  canEdit(): boolean {
    return this.client.canEdit();
  }
  style() {
    return this.opts.style;
  }
  commit(fn: (d: BoardDoc) => void): boolean {
    return this.client.change(fn) !== null;
  }
  newId(): string {
    return newShapeId();
  }
  selection(): ReadonlySet<string> {
    return this.selected;
  }
  setSelection(ids: Iterable<string>): void {
    const next = new Set(ids);
    if (next.size === this.selected.size && [...next].every((id) => this.selected.has(id))) return;
    this.selected = next;
    this.client.outbox.setSelection([...next]);
    this.opts.onSelectionChange?.(next.size);
    this.renderer.invalidate();
    this.updateAttributes();
  }
  redraw(): void {
    this.renderer.invalidate();
  }

  // ------------------------------------------------------------------------------------------
  // commands from the page

  setTool(id: ToolId): void {
    if (this.tool.id !== id) this.tool.cancel(this);
    this.tool = this.tools[id];
    this.overlayCanvas.style.cursor = this.tool.cursor;
    if (id !== 'select') this.setSelection([]);
  }

  /**
   * Delete the selection (one change). With "only creators delete their own objects" a non-owner
   * cannot delete others' shapes (SPEC D6); those stay selected. Returns how many were kept.
   */
  deleteSelection(): { deleted: number; refused: number } {
    const w = this.client.getSnapshot().welcome;
    const restricted = !!w?.deleteOwnOnly && w.role !== 'owner';
    const mine = (id: string) => {
      const s = this.scene.get(id)?.shape;
      return !!s && this.userId !== 0 && s.creator === this.userId;
    };
    const ids = [...this.selected].filter((id) => !restricted || mine(id));
    const refused = this.selected.size - ids.length;
    if (!ids.length) return { deleted: 0, refused };
    const ok = this.commit((d) => {
      for (const id of ids) removeShape(d, id);
    });
    return { deleted: ok ? ids.length : 0, refused };
  }

  zoomBy(factor: number): void {
    const { width, height } = this.renderer.size;
    this.setCamera(zoomAt(this.renderer.camera, width / 2, height / 2, factor));
  }
  /** fit the drawing (or the origin at 100 %) */
  fit(): void {
    const b = this.scene.bounds();
    const { width, height } = this.renderer.size;
    this.setCamera(b ? fitRect(b, width, height) : DEFAULT_CAMERA);
  }
  get camera(): Camera {
    return this.renderer.camera;
  }

  destroy(): void {
    this.tool.cancel(this);
    for (const d of this.disposers.splice(0)) d();
    this.renderer.destroy();
    this.root.replaceChildren();
  }

  // ------------------------------------------------------------------------------------------
  // input

  private pointer(e: PointerEvent): ToolPointer & { sx: number; sy: number } {
    const r = this.overlayCanvas.getBoundingClientRect();
    const sx = e.clientX - r.left;
    const sy = e.clientY - r.top;
    const w = toWorld(this.renderer.camera, sx, sy);
    return { x: w.x, y: w.y, sx, sy, shift: e.shiftKey };
  }

  private onDown(e: PointerEvent): void {
    if (this.activePointer !== null) return;
    this.overlayCanvas.focus?.();
    const p = this.pointer(e);
    this.activePointer = e.pointerId;
    this.overlayCanvas.setPointerCapture?.(e.pointerId);
    if (e.button === 1 || e.button === 2 || this.spaceDown) {
      this.pan = { x: p.sx, y: p.sy };
      return;
    }
    if (e.button !== 0) return;
    if (this.tool.edits && !this.canEdit()) return;
    this.tool.down(p, this);
  }

  private onMove(e: PointerEvent): void {
    const p = this.pointer(e);
    this.client.outbox.setCursor({ x: p.x, y: p.y });
    if (e.pointerId !== this.activePointer) return;
    if (this.pan) {
      this.setCamera(panBy(this.renderer.camera, p.sx - this.pan.x, p.sy - this.pan.y));
      this.pan = { x: p.sx, y: p.sy };
      return;
    }
    // coalesced events: every sample of a fast stroke, not one per frame
    const samples = e.getCoalescedEvents?.() ?? [];
    if (samples.length > 1) for (const s of samples) this.tool.move(this.pointer(s), this);
    else this.tool.move(p, this);
  }

  private onUp(e: PointerEvent): void {
    if (e.pointerId !== this.activePointer) return;
    this.activePointer = null;
    if (this.pan) {
      this.pan = null;
      return;
    }
    this.tool.up(this.pointer(e), this);
  }

  private onCancel(): void {
    this.activePointer = null;
    this.pan = null;
    this.tool.cancel(this);
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    const r = this.overlayCanvas.getBoundingClientRect();
    if (e.ctrlKey || e.metaKey) {
      this.setCamera(zoomAt(this.renderer.camera, e.clientX - r.left, e.clientY - r.top, Math.exp(-e.deltaY * 0.01)));
    } else this.setCamera(panBy(this.renderer.camera, -e.deltaX, -e.deltaY));
  }

  private setCamera(c: Camera): void {
    this.renderer.setCamera(c);
    const { width, height } = this.renderer.size;
    const v = visibleRect(c, width, height);
    this.client.outbox.setViewport({ x: v.minX, y: v.minY, width: v.maxX - v.minX, height: v.maxY - v.minY });
    this.placeCursors();
    this.opts.onZoomChange?.(c.zoom);
  }

  private resize(): void {
    const r = this.root.getBoundingClientRect();
    this.renderer.resize(r.width, r.height, window.devicePixelRatio || 1);
    this.placeCursors();
  }

  // ------------------------------------------------------------------------------------------
  // drawing of what is not committed

  private peerColor(peerId: number): string {
    return this.client.getSnapshot().presence.find((p) => p.peerId === peerId)?.color ?? '#888888';
  }

  private paintOverlay(g: CanvasRenderingContext2D): void {
    const zoom = this.renderer.camera.zoom;
    // other people's strokes in progress (E2)
    for (const s of this.client.remote.strokes.values()) drawStroke(g, s.points, cssColor(s.color), s.width);
    // other people's selections, in their colour
    g.lineWidth = 2 / zoom;
    for (const [peer, ids] of this.client.remote.selections) {
      g.strokeStyle = this.peerColor(peer);
      for (const id of ids) {
        const it = this.scene.get(id);
        if (it) strokeBounds(g, this.scene.displaced(it), 3 / zoom);
      }
    }
    g.strokeStyle = '#2563eb';
    g.setLineDash([]);
    for (const id of this.selected) {
      const it = this.scene.get(id);
      if (it) strokeBounds(g, this.scene.displaced(it), 4 / zoom);
    }
    this.tool.drawOverlay?.(g, this);
  }

  private placeCursors(): void {
    const snap = this.client.getSnapshot();
    const seen = new Set<number>();
    for (const [peer, c] of this.client.remote.cursors) {
      const who = snap.presence.find((p) => p.peerId === peer);
      if (!who) continue;
      seen.add(peer);
      let el = this.cursorEls.get(peer);
      if (!el) {
        el = document.createElement('div');
        el.className = 'remote-cursor';
        const arrow = document.createElement('span');
        arrow.className = 'remote-cursor-arrow';
        arrow.setAttribute('aria-hidden', 'true');
        const label = document.createElement('span');
        label.className = 'remote-cursor-name';
        el.append(arrow, label);
        this.cursorLayer.append(el);
        this.cursorEls.set(peer, el);
      }
      const label = el.lastElementChild as HTMLElement;
      const name = who.name.slice(0, RT_LIMITS.maxNameLength);
      if (label.textContent !== name) label.textContent = name;
      el.style.setProperty('--peer', who.color);
      const s = toScreen(this.renderer.camera, c.x, c.y);
      el.style.transform = `translate(${Math.round(s.x)}px, ${Math.round(s.y)}px)`;
    }
    for (const [peer, el] of this.cursorEls)
      if (!seen.has(peer)) {
        el.remove();
        this.cursorEls.delete(peer);
      }
  }

  /** counts for assistive tech and end-to-end tests */
  private updateAttributes(): void {
    this.root.dataset.shapes = String(this.scene.size);
    this.root.dataset.previews = String(this.client.remote.strokes.size);
    this.root.dataset.selected = String(this.selected.size);
  }
}

function strokeBounds(
  g: CanvasRenderingContext2D,
  b: { minX: number; minY: number; maxX: number; maxY: number },
  pad: number,
) {
  g.strokeRect(b.minX - pad, b.minY - pad, b.maxX - b.minX + 2 * pad, b.maxY - b.minY + 2 * pad);
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (/^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) || el.isContentEditable);
}
