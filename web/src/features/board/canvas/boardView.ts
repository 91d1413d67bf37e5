/**
 * The imperative board editor (no React): wires the realtime client's document and ephemeral
 * events to the scene, the renderer and the remote cursors; pointer, wheel, touch and keyboard
 * input to the current tool, pan and zoom; and every command of actions.ts (undo, clipboard,
 * arrange, zoom …). React mounts it once per board (BoardSession.tsx) and talks to it through
 * EditorApi only.
 *
 * Every local edit goes through `commit`: one Automerge change that also keeps bound connectors
 * attached (bindings.ts) and one undo step holding the touched shapes before and after.
 */
import { RT_LIMITS } from '@wb/proto';
import type { GraphShape, RenderRecord, ShapeRecord } from '@wb/proto';
import { panRange, parseGraphSpec, plotFraction, serializeGraphSpec, zoomRange } from '../graph/graphSpec';
import type { BoardClient } from '../realtime/boardClient';
import { getShape, newShapeId, previewShape, putShape, readShape, type BoardDoc } from '../realtime/boardDoc';
import { bucketOf } from '@wb/proto';
import { allows, findShortcut, keyOf, nudgeStep, POWER_TOOLS, type Access, type ActionId } from './actions';
import {
  DEFAULT_CAMERA,
  fitRect,
  panBy,
  toScreen,
  toWorld,
  visibleRect,
  zoomAt,
  type Camera,
  type Point,
  type Rect,
} from './camera';
import type { EditorApi, EditorOptions, EditorSelection, EditorState, NewShape } from './editorApi';
import * as arrange from './editor/arrange';
import { BoardClipboard } from './editor/clipboard';
import { followBindings } from './editor/bindings';
import { snapPoint } from './editor/snapping';
import { fitsOneChange, recordChange, replay, writesCost, type ShapeWrites } from './editor/splitChange';
import { UndoManager } from './editor/undo';
import { keyAbove } from './fractionalIndex';
import { cssColor } from './geometry';
import { snapGrid } from './background';
import { LaserTrails } from './laserTrail';
import { CompassTool } from './instruments/compassTool';
import { InstrumentsLayer } from './instruments/instrumentsLayer';
import { ProtractorTool } from './instruments/protractorTool';
import { RulerTool } from './instruments/rulerTool';
import { drawStroke, paintShape, type PaintContext } from './painters';
import { CanvasRenderer } from './renderer';
import { Scene } from './scene';
import { utilOf } from './shapes/registry';
import { TextEditor } from './textEditor';
import { setShapeText } from './textOps';
import { ConnectorTool } from './tools/connector';
import { createTools } from './tools/index';
import { SelectTool } from './tools/select';
import type { Tool, ToolHost, ToolId, ToolPointer, ToolStyle } from './tools/types';
import {
  applyStylePatch,
  strokeGroupOfKinds,
  strokeGroupOfTool,
  styleFor,
  type StrokeGroup,
  type ToolStyles,
} from './toolStyles';

/**
 * performance.now() of WELCOME, of the render snapshot shown (S9: a fresh join's board before its
 * document has loaded), of SYNCED, and of the first full paint with the whole board in the scene
 * (after the render snapshot or SYNCED, whichever came first); benchmarks read them
 */
export interface BoardTimings {
  welcomeAt: number | null;
  renderedAt: number | null;
  syncedAt: number | null;
  paintedAt: number | null;
}

export interface BoardViewOptions {
  /** each tool group's style (toolStyles.ts) */
  style: ToolStyles;
  options: EditorOptions;
  /** a message for the person (toasts): codes of the board namespace's `errors.*` */
  notify(kind: 'warning' | 'error' | 'info', code: string, values?: Record<string, unknown>): void;
  /** does the plan include powerTools? (POWER_TOOLS, actions.ts) */
  powerTools(): boolean;
  /** a power tool was asked for on a plan without it: show the upgrade prompt */
  upgradeNeeded(action: ActionId): void;
  /** keys 1–9: the style of pen preset n, or null when there is none */
  penPreset(n: number): Partial<ToolStyle> | null;
  /** panels the page owns (toolbar, minimap, shortcuts panel) */
  panel(action: 'toggleToolbar' | 'toggleMinimap' | 'shortcuts'): void;
  /** the style changed through the editor (a preset key): the page saves it */
  styleChanged?(styles: ToolStyles): void;
  /** an image was pasted from another application */
  pastedImage?(blob: Blob, at: Point): void;
}

const PEN_ONLY_KEY = 'wb.penOnly';
const SHAPE_STYLE_FIELDS = ['strokeColor', 'strokeWidth', 'linePattern', 'fill', 'fillColor'] as const;
const EMPTY_SELECTION: EditorSelection = { count: 0, kinds: [], locked: false, grouped: false };
/** Ctrl+wheel: a mouse notch (deltaY ≈ 100) zooms by ~18 %; trackpad pinch deltas are small */
const WHEEL_ZOOM_SPEED = 0.002;

interface Gesture {
  /** pointers down on the canvas, by id: screen position */
  pointers: Map<number, { sx: number; sy: number; type: string }>;
  /** the pointer driving the tool, if any */
  toolPointer: number | null;
  pan: { sx: number; sy: number; samples: { t: number; sx: number; sy: number }[] } | null;
  pinch: { dist: number; mid: Point } | null;
}

/** the kinds edited in a panel (EditorState.editing) */
type EditingKind = NonNullable<EditorState['editing']>['kind'];

export class BoardView implements ToolHost, EditorApi {
  readonly scene = new Scene();
  readonly renderer: CanvasRenderer;
  private readonly tools: Record<ToolId, Tool>;
  private tool: Tool;
  private selected = new Set<string>();
  private readonly undo = new UndoManager();
  private readonly lasers = new LaserTrails();
  /** ruler, protractor and compass: mine and the other peers' (ephemeral, never stored) */
  private readonly instrumentsLayer = new InstrumentsLayer({
    background: () => this.options.background,
    redraw: () => this.renderer.invalidate(),
  });
  private readonly textEditor: TextEditor;
  private readonly clipboard: BoardClipboard;
  private readonly sceneCanvas = document.createElement('canvas');
  private readonly overlayCanvas = document.createElement('canvas');
  private readonly cursorLayer = document.createElement('div');
  private readonly cursorEls = new Map<number, HTMLElement>();
  private readonly disposers: (() => void)[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly gesture: Gesture = { pointers: new Map(), toolPointer: null, pan: null, pinch: null };
  private spaceDown = false;
  private altDown = false;
  private lastPointer: Point = { x: 0, y: 0 };
  private lastPress: { t: number; sx: number; sy: number; clicks: number } | null = null;
  private inertia = 0;
  private laserAnimation = 0;
  private styles: ToolStyles;
  /** the flat style of each stroke group, made once per styles object (stable for React) */
  private flatStyles: { of: ToolStyles; pen: ToolStyle; shape: ToolStyle } | null = null;
  private options: EditorOptions;
  private penOnly = readPenOnly();
  private state: EditorState;
  private stateDirty = false;
  /** the formula or graph whose panel is open (EditorState.editing) */
  private editing: EditorState['editing'] = null;
  /** a drag inside the graph being edited pans its plot (previewed as a scene override) */
  private plotDrag: { shape: GraphShape; from: Point; spec: string | null } | null = null;
  /** wheel zooming of that plot: committed once the wheel rests */
  private plotWheelTimer = 0;
  readonly timings: BoardTimings = { welcomeAt: null, renderedAt: null, syncedAt: null, paintedAt: null };

  constructor(
    private readonly root: HTMLElement,
    private readonly client: BoardClient,
    private readonly opts: BoardViewOptions,
  ) {
    this.styles = opts.style;
    this.options = { ...opts.options };
    this.tools = {
      ...createTools({ textEditor: () => this.textEditor, laserTrails: this.lasers }),
      select: new SelectTool({ snapping: () => (this.options.snapping ? { grid: this.gridSpacing() } : null) }),
      connector: new ConnectorTool(),
      compass: new CompassTool(this.instrumentsLayer),
      ruler: new RulerTool(this.instrumentsLayer),
      protractor: new ProtractorTool(this.instrumentsLayer),
    };
    this.tool = this.tools.select;
    this.clipboard = new BoardClipboard({
      userId: client.userId,
      canEdit: () => this.canEdit(),
      copySelection: () => this.selectedShapes(),
      deleteSelection: () => void this.deleteSelection(),
      has: (id) => !!this.scene.get(id),
      pointer: () => this.pointerOnBoard(),
      viewCentre: () => {
        const v = this.viewRect();
        return { x: (v.minX + v.maxX) / 2, y: (v.minY + v.maxY) / 2 };
      },
      style: () => this.style(),
      newId: () => this.newId(),
      topZ: () => this.scene.topZ(),
      commit: (fn) => this.commit(fn),
      setSelection: (ids) => {
        this.setTool('select');
        this.setSelection(ids);
      },
      onImage: (blob, at) =>
        this.opts.pastedImage ? this.opts.pastedImage(blob, at) : this.notify('warning', 'imagePasteUnavailable'),
    });
    this.sceneCanvas.className = 'board-layer';
    this.overlayCanvas.className = 'board-layer board-input';
    this.overlayCanvas.tabIndex = 0;
    this.overlayCanvas.setAttribute('aria-hidden', 'true');
    this.sceneCanvas.setAttribute('aria-hidden', 'true');
    this.cursorLayer.className = 'cursor-layer';
    this.cursorLayer.classList.toggle('hide-names', !this.options.showParticipantNames);
    root.append(this.sceneCanvas, this.overlayCanvas, this.cursorLayer);
    this.textEditor = new TextEditor(root);
    this.renderer = new CanvasRenderer(this.scene, this.sceneCanvas, this.overlayCanvas, (g) => this.paintOverlay(g));
    this.renderer.setPaintContext(this.paintContextPatch());
    this.state = this.computeState();

    this.scene.apply(client.doc, { all: true });
    this.timings.welcomeAt = client.welcomeAt;
    if (client.preview) this.showPreview(client.preview); // it arrived before this view
    this.updateAttributes();
    this.disposers.push(
      client.onDoc((u) => {
        this.scene.apply(client.doc, u);
        const gone = [...this.selected].filter((id) => !this.scene.get(id));
        if (gone.length) this.setSelection([...this.selected].filter((id) => this.scene.get(id)));
        if (this.editing && !this.scene.get(this.editing.id)) this.editing = null; // removed meanwhile
        this.renderer.invalidate();
        this.updateAttributes();
        this.markState();
      }),
      client.onRender((records) => this.showPreview(records)),
      client.onEphemeral(() => {
        this.syncRemoteLasers();
        this.instrumentsLayer.syncRemote(this.client.remote.instruments);
        this.renderer.invalidate();
        this.placeCursors();
        this.updateAttributes();
      }),
      client.subscribe(() => {
        const snap = client.getSnapshot();
        if (snap.welcome && this.timings.welcomeAt === null) this.timings.welcomeAt = client.welcomeAt;
        if (snap.ready && this.timings.syncedAt === null) {
          this.timings.syncedAt = performance.now();
          this.renderer.invalidate();
        }
        this.placeCursors();
        this.markState();
      }),
      this.renderer.onPainted((full) => {
        if (full && (this.timings.syncedAt ?? this.timings.renderedAt) !== null && this.timings.paintedAt === null) {
          this.timings.paintedAt = performance.now();
          // after this frame is presented, the document behind the preview may block the thread
          if (this.timings.syncedAt === null) setTimeout(() => this.client.previewShown(), 0);
        }
      }),
    );

    const el = this.overlayCanvas;
    const on = <K extends keyof WindowEventMap>(
      target: HTMLElement | Window,
      type: K,
      fn: (e: WindowEventMap[K]) => void,
      o?: AddEventListenerOptions,
    ) => {
      target.addEventListener(type, fn as EventListener, o);
      this.disposers.push(() => target.removeEventListener(type, fn as EventListener, o));
    };
    on(el, 'pointerdown', (e) => this.onDown(e));
    on(el, 'pointermove', (e) => this.onMove(e));
    on(el, 'pointerup', (e) => this.onUp(e));
    on(el, 'pointercancel', (e) => this.onCancel(e));
    on(el, 'pointerleave', () => {
      if (this.tool.id === 'laser' && this.gesture.toolPointer === null) this.client.outbox.setLaser(null);
    });
    on(el, 'wheel', (e) => this.onWheel(e), { passive: false });
    on(el, 'contextmenu', (e) => e.preventDefault());
    on(window, 'keydown', (e) => this.onKeyDown(e));
    on(window, 'keyup', (e) => {
      if (e.code === 'Space') this.spaceDown = false;
      if (e.key === 'Alt') this.altDown = false;
    });
    on(window, 'blur', () => {
      this.spaceDown = false;
      this.altDown = false;
    });
    // the clipboard events, not key handling: they carry the system clipboard without a permission
    this.disposers.push(this.clipboard.attach(document));

    const ro = new ResizeObserver(() => this.resize());
    ro.observe(root);
    this.disposers.push(() => ro.disconnect());
    this.resize();
    this.setTool('select');
  }

  // ------------------------------------------------------------------------------------------
  // EditorApi: state

  getState = (): EditorState => {
    if (this.stateDirty) {
      this.stateDirty = false;
      this.state = this.computeState();
    }
    return this.state;
  };

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  private markState(): void {
    this.stateDirty = true;
    for (const fn of this.listeners) fn();
  }

  private computeState(): EditorState {
    const camera = this.renderer.camera;
    const { width, height } = this.renderer.size;
    return {
      tool: this.tool.id,
      style: this.flatStyle(this.panelStrokeGroup()),
      styles: this.styles,
      selection: this.selectionSummary(),
      canUndo: this.undo.canUndo && this.canEdit(),
      canRedo: this.undo.canRedo && this.canEdit(),
      camera,
      view: visibleRect(camera, width, height),
      screen: { width, height },
      penOnly: this.penOnly,
      editing: this.editing,
    };
  }

  private selectionSummary(): EditorSelection {
    if (!this.selected.size) return EMPTY_SELECTION;
    const kinds = new Set<ShapeRecord['kind']>();
    let locked = true;
    const groups = new Set<string>();
    let ungrouped = false;
    for (const id of this.selected) {
      const s = this.scene.get(id)?.shape;
      if (!s) continue;
      kinds.add(s.kind);
      locked &&= !!s.locked;
      if (s.groupId) groups.add(s.groupId);
      else ungrouped = true;
    }
    const next = { count: this.selected.size, kinds: [...kinds], locked, grouped: groups.size > 0 && !ungrouped };
    // the same object while nothing in it changed: panels that show the selection do not re-render
    const prev = (this.state as EditorState | undefined)?.selection; // undefined while constructing
    return prev &&
      prev.count === next.count &&
      prev.locked === next.locked &&
      prev.grouped === next.grouped &&
      prev.kinds.length === next.kinds.length &&
      prev.kinds.every((k, i) => k === next.kinds[i])
      ? prev
      : next;
  }

  // ------------------------------------------------------------------------------------------
  // ToolHost

  get userId(): number {
    return this.client.userId;
  }
  get ephemeral() {
    return this.client.outbox;
  }
  instruments(): InstrumentsLayer {
    return this.instrumentsLayer;
  }
  zoom(): number {
    return this.renderer.camera.zoom;
  }
  /** S9: the board as the DOC on its way has it, drawn until that document has loaded */
  private showPreview(records: readonly RenderRecord[]): void {
    const shapes: ShapeRecord[] = [];
    for (const r of records) {
      const shape = previewShape(r);
      if (shape) shapes.push(shape);
    }
    this.scene.load(shapes);
    performance.mark('wb:preview-built');
    this.timings.renderedAt = performance.now();
    this.renderer.invalidate();
    this.updateAttributes();
  }

  canEdit(): boolean {
    return this.client.canEdit();
  }
  /** the style the current tool draws with (its group's stroke: toolStyles.ts) */
  style(): ToolStyle {
    return this.flatStyle(strokeGroupOfTool(this.tool.id));
  }
  private flatStyle(group: StrokeGroup): ToolStyle {
    if (this.flatStyles?.of !== this.styles)
      this.flatStyles = { of: this.styles, pen: styleFor(this.styles, 'pen'), shape: styleFor(this.styles, 'shape') };
    return this.flatStyles[group];
  }
  /** what the style panel edits: the selection's kinds, else the tool's group */
  private panelStrokeGroup(): StrokeGroup {
    if (this.selected.size) return strokeGroupOfKinds(this.selectionSummary().kinds);
    return strokeGroupOfTool(this.tool.id);
  }
  newId(): string {
    return newShapeId();
  }
  topZ(): string {
    return keyAbove(this.scene.topZ());
  }
  selection(): ReadonlySet<string> {
    return this.selected;
  }
  setSelection(ids: Iterable<string>): void {
    const next = new Set(ids);
    if (next.size === this.selected.size && [...next].every((id) => this.selected.has(id))) return;
    this.selected = next;
    this.client.outbox.setSelection([...next]);
    this.renderer.invalidate();
    this.updateAttributes();
    this.markState();
  }
  redraw(): void {
    this.renderer.invalidate();
  }
  viewRect(): Rect {
    const { width, height } = this.renderer.size;
    return visibleRect(this.renderer.camera, width, height);
  }
  pan(dsx: number, dsy: number): void {
    this.setCamera(panBy(this.renderer.camera, dsx, dsy));
  }
  drawShape(g: CanvasRenderingContext2D, shape: ShapeRecord): void {
    paintShape(g, shape, this.paintContext());
  }
  notify(kind: 'warning' | 'error', code: string, values?: Record<string, unknown>): void {
    this.opts.notify(kind, code, values);
  }
  mayDelete(shape: ShapeRecord): boolean {
    const snap = this.client.getSnapshot();
    // the board's setting as it is now (BOARD_INFO), not as it was when I joined
    const deleteOwnOnly = snap.board?.deleteOwnOnly ?? snap.welcome?.deleteOwnOnly;
    if (!deleteOwnOnly || snap.welcome?.role === 'owner') return true;
    return this.userId !== 0 && shape.creator === this.userId;
  }

  snap(p: Point, o?: { exclude?: ReadonlySet<string>; alt?: boolean }): Point {
    if (!this.options.snapping || o?.alt || this.altDown) return p;
    const tolerance = 6 / this.zoom();
    const near = this.scene.intersecting({
      minX: p.x - tolerance * 4,
      minY: p.y - tolerance * 4,
      maxX: p.x + tolerance * 4,
      maxY: p.y + tolerance * 4,
    });
    const candidates = near.filter((it) => !o?.exclude?.has(it.shape.id)).map((it) => it.bounds);
    return snapPoint(p, { grid: this.gridSpacing(), candidates, tolerance }).point;
  }

  /** the snapping grid: the background's drawn minor spacing at this zoom (none on plain ones) */
  gridSpacing(): number | null {
    return snapGrid(this.options.background, this.zoom());
  }

  /**
   * One user action: one Automerge change that also keeps bound connectors attached, and one
   * undo step with the touched shapes before and after.
   */
  commit(fn: (d: BoardDoc) => void): boolean {
    return this.change(fn, true);
  }

  private change(fn: (d: BoardDoc) => void, recordUndo: boolean): boolean {
    const before = this.client.doc;
    // connectors bound to the shapes the change wrote follow them (written: every bound shape
    // when the change could not be recorded)
    const whole = (d: BoardDoc, written: () => Iterable<string> = () => this.scene.boundShapeIds()) => {
      fn(d);
      followBindings(
        d,
        written(),
        (id) => readShape(id, d.shapes?.[bucketOf(id)]?.[id]),
        (id) => this.scene.connectorsOf(id),
      );
    };
    // recorded first, so a big edit can go out as several changes within the node's limits (L4)
    let writes: ShapeWrites[] | null;
    try {
      writes = recordChange(before, whole);
    } catch {
      writes = null; // e.g. collaborative text edited per character: one direct change
    }
    if (writes && !writes.length) return false;
    const touched = new Set<string>();
    const off = this.client.onDoc((u) => {
      if (!u.all) for (const id of u.ids) touched.add(id);
    });
    let ok: boolean;
    try {
      if (!writes) ok = this.client.change((d) => whole(d)) !== null;
      else if (fitsOneChange(writes)) ok = this.client.change((d) => replay(d, writes)) !== null;
      else ok = this.client.changeInParts(writes, writesCost, (d, w) => replay(d, [w])).length > 0;
    } finally {
      off();
    }
    if (!ok) return false;
    if (recordUndo) {
      const b = new Map<string, ShapeRecord | null>();
      const a = new Map<string, ShapeRecord | null>();
      for (const id of touched) {
        b.set(id, getShape(before, id));
        a.set(id, getShape(this.client.doc, id));
      }
      this.undo.record(b, a);
    }
    this.markState();
    return true;
  }

  openEditor = (id: string): void => {
    const s = this.scene.get(id)?.shape;
    if (!s || utilOf(s.kind).editing?.mode !== 'panel' || !this.canEdit() || s.locked) return;
    // the kinds edited in a panel (ShapeUtil.editing): formulas and graphs
    this.editing = { id, kind: s.kind as EditingKind };
    this.markState();
  };

  /** closing a formula left empty removes it, as an empty text box is */
  closeEditor = (): void => {
    const id = this.editing?.id;
    if (!id) return;
    this.editing = null;
    const s = this.scene.get(id)?.shape;
    const editing = s && utilOf(s.kind).editing;
    if (s && editing?.mode === 'panel' && editing.removeOnClose?.(s) && this.mayDelete(s))
      this.commit((d) => arrange.deleteShapes(d, [id], () => true));
    this.markState();
  };

  updateShape = (id: string, patch: Record<string, unknown>): boolean => {
    if (!this.canEdit()) return false;
    let changed = false;
    const ok = this.commit((d) => {
      changed = arrange.patchShape(d, id, patch);
    });
    return ok && changed;
  };

  editText(id: string): void {
    const item = this.scene.get(id);
    if (!item || !this.canEdit()) return;
    const s = item.shape;
    const editing = utilOf(s.kind).editing;
    if (editing?.mode === 'panel') return this.openEditor(id);
    if (editing?.mode !== 'text') return;
    if (s.locked) return;
    const camera = this.renderer.camera;
    const b = item.bounds;
    const tl = toScreen(camera, s.x, s.y);
    const w = 'w' in s && s.w !== undefined ? s.w : b.maxX - b.minX;
    const h = 'h' in s && s.h !== undefined ? s.h : b.maxY - b.minY;
    const fontSize = editing.fontSize(s);
    this.scene.hidden.add(id);
    this.renderer.invalidate();
    const done = () => {
      this.scene.hidden.delete(id);
      this.scene.touch();
      this.renderer.invalidate();
    };
    this.textEditor.open({
      text: ('text' in s && typeof s.text === 'string' ? s.text : '') ?? '',
      screenRect: { x: tl.x, y: tl.y, width: w * camera.zoom, height: h * camera.zoom },
      zoom: camera.zoom,
      font: editing.font(s, this.styles.text.textFont),
      fontSize,
      color: editing.color(s),
      background: editing.background(s),
      align: editing.align,
      onCommit: (text) => {
        done();
        const current = this.scene.get(id)?.shape;
        if (!current) return;
        if (editing.removeWhenEmpty && !text.trim()) {
          if (this.mayDelete(current)) this.commit((d) => arrange.deleteShapes(d, [id], () => true));
          return;
        }
        if ('text' in current && current.text === text) return;
        this.commit((d) => setShapeText(d, id, text));
      },
      onCancel: done,
    });
  }

  // ------------------------------------------------------------------------------------------
  // EditorApi: commands

  setTool = (id: ToolId): void => {
    const next = this.tools[id];
    if (!next) return;
    if (next.edits && !this.canEdit()) return;
    if (this.tool.id !== id) {
      this.tool.cancel(this);
      if (this.tool.id === 'laser') this.client.outbox.setLaser(null);
    }
    this.tool = next;
    this.overlayCanvas.style.cursor = this.tool.cursor;
    if (id !== 'select') this.setSelection([]);
    this.markState();
  };

  setStyle = (patch: Partial<ToolStyle>): void => {
    // the group of the selection (or of the tool) keeps the change: the next shape of that kind
    // is drawn like the restyled one, other groups keep theirs
    this.styles = applyStylePatch(this.styles, this.panelStrokeGroup(), patch);
    // a style change while shapes are selected restyles them (one change)
    if (this.selected.size && this.canEdit()) this.restyleSelection(patch);
    this.markState();
  };

  setPenOnly = (on: boolean): void => {
    this.penOnly = on;
    try {
      localStorage.setItem(PEN_ONLY_KEY, on ? '1' : '0');
    } catch {
      // private mode: the choice lasts for this page
    }
    this.markState();
  };

  setOptions = (patch: Partial<EditorOptions>): void => {
    this.options = { ...this.options, ...patch };
    this.renderer.setPaintContext(this.paintContextPatch());
    this.cursorLayer.classList.toggle('hide-names', !this.options.showParticipantNames);
    this.markState();
  };

  can = (action: ActionId): boolean => {
    const edit = this.canEdit();
    const n = this.selected.size;
    const sel = this.selectionSummary();
    switch (action) {
      case 'undo':
        return edit && this.undo.canUndo;
      case 'redo':
        return edit && this.undo.canRedo;
      case 'copy':
        return n > 0;
      case 'cut':
      case 'duplicate':
      case 'delete':
      case 'bringForward':
      case 'sendBackward':
      case 'bringToFront':
      case 'sendToBack':
      case 'nudgeLeft':
      case 'nudgeRight':
      case 'nudgeUp':
      case 'nudgeDown':
        return edit && n > 0;
      case 'lock':
        return edit && n > 0 && !sel.locked;
      case 'unlock':
        return edit && n > 0 && sel.locked;
      case 'group':
        return edit && n > 1 && !sel.grouped;
      case 'ungroup':
        return edit && sel.grouped;
      case 'paste':
        return edit;
      case 'selectAll':
        return this.scene.size > 0;
      case 'deselect':
        return n > 0;
      case 'zoomSelection':
        return n > 0;
      default:
        return true;
    }
  };

  run = (action: ActionId): boolean => {
    if (POWER_TOOLS.has(action) && !this.opts.powerTools()) {
      this.opts.upgradeNeeded(action);
      return false;
    }
    if (!this.can(action)) return false;
    const ids = [...this.selected];
    switch (action) {
      case 'undo':
      case 'redo':
        return this.undoRedo(action);
      case 'copy':
      case 'cut':
        void this.clipboard.copy(action === 'cut').then((ok) => ok || this.notify('warning', 'clipboardDenied'));
        return true;
      case 'paste':
        void this.clipboard.paste().then((ok) => ok || this.notify('warning', 'clipboardDenied'));
        return true;
      case 'duplicate': {
        let created: string[] = [];
        const ok = this.commit((d) => {
          created = arrange.duplicate(d, this.withGroups(ids), (id) => this.scene.get(id)?.shape ?? null, {
            newId: () => this.newId(),
            topZ: this.scene.topZ(),
            // copies are mine: I may delete them under "delete own only"
            creator: this.userId,
          });
        });
        if (ok) this.setSelection(created);
        return ok;
      }
      case 'delete':
        return this.deleteSelection().deleted > 0;
      case 'selectAll':
        this.setTool('select');
        this.setSelection(this.scene.ids());
        return true;
      case 'deselect':
        this.setSelection([]);
        return true;
      case 'bringForward':
      case 'sendBackward':
      case 'bringToFront':
      case 'sendToBack':
        return this.commit((d) => arrange[action](d, this.withGroups(ids), this.scene));
      case 'lock':
      case 'unlock':
        return this.commit((d) => arrange.setLocked(d, ids, action === 'lock'));
      case 'group': {
        const groupId = this.newId();
        return this.commit((d) => arrange.group(d, this.withGroups(ids), groupId));
      }
      case 'ungroup':
        return this.commit((d) => arrange.ungroup(d, this.withGroups(ids)));
      case 'nudgeLeft':
      case 'nudgeRight':
      case 'nudgeUp':
      case 'nudgeDown':
        return this.nudge(action, 1);
      case 'zoomIn':
        return (this.zoomBy(1.25), true);
      case 'zoomOut':
        return (this.zoomBy(0.8), true);
      case 'zoomFit':
        return (this.fit(), true);
      case 'zoom100': {
        const { width, height } = this.renderer.size;
        const c = this.renderer.camera;
        this.setCamera(zoomAt(c, width / 2, height / 2, 1 / c.zoom));
        return true;
      }
      case 'zoomSelection': {
        const b = this.selectionBounds();
        if (!b) return false;
        const { width, height } = this.renderer.size;
        this.setCamera(fitRect(b, width, height));
        return true;
      }
      case 'toggleToolbar':
      case 'toggleMinimap':
      case 'shortcuts':
        this.opts.panel(action);
        return true;
    }
  };

  setCamera = (c: Camera): void => {
    this.renderer.setCamera(c);
    const v = this.viewRect();
    this.client.outbox.setViewport({ x: v.minX, y: v.minY, width: v.maxX - v.minX, height: v.maxY - v.minY });
    this.placeCursors();
    this.markState();
  };

  centerOn = (x: number, y: number): void => {
    const { width, height } = this.renderer.size;
    const z = this.renderer.camera.zoom;
    this.setCamera({ zoom: z, x: x - width / 2 / z, y: y - height / 2 / z });
  };

  addShapes = (shapes: readonly NewShape[], opts: { reveal?: boolean } = {}): string[] | null => {
    if (!shapes.length || !this.canEdit()) return null;
    let z = this.scene.topZ();
    const placed = shapes.map((s) => {
      z = keyAbove(z);
      return { ...s, id: this.newId(), z, creator: this.client.userId } as ShapeRecord;
    });
    if (!this.commit((d) => placed.forEach((s) => putShape(d, s)))) return null;
    const ids = placed.map((s) => s.id);
    this.setTool('select');
    this.setSelection(ids);
    if (opts.reveal) this.reveal(ids);
    return ids;
  };

  /** centre the shapes when they fit at this zoom, else show the first of them whole (a long column of pages) */
  private reveal(ids: readonly string[]): void {
    const rects = ids.map((id) => this.scene.get(id)?.bounds).filter((b): b is Rect => !!b);
    if (!rects.length) return;
    const all = rects.reduce((a, b) => ({
      minX: Math.min(a.minX, b.minX),
      minY: Math.min(a.minY, b.minY),
      maxX: Math.max(a.maxX, b.maxX),
      maxY: Math.max(a.maxY, b.maxY),
    }));
    const v = this.viewRect();
    if (all.maxX - all.minX <= v.maxX - v.minX && all.maxY - all.minY <= v.maxY - v.minY) {
      this.centerOn((all.minX + all.maxX) / 2, (all.minY + all.maxY) / 2);
      return;
    }
    const { width, height } = this.renderer.size;
    const fit = fitRect(rects[0]!, width, height);
    // never zoom in past the current zoom just to show a page
    const zoom = Math.min(fit.zoom, this.renderer.camera.zoom);
    const first = rects[0]!;
    this.setCamera({ zoom, x: (first.minX + first.maxX) / 2 - width / 2 / zoom, y: first.minY - 40 / zoom });
  }

  peerViewports(): ReadonlyMap<number, Rect> {
    const out = new Map<number, Rect>();
    for (const [peer, v] of this.client.remote.viewports)
      out.set(peer, { minX: v.x, minY: v.y, maxX: v.x + v.width, maxY: v.y + v.height });
    return out;
  }

  /**
   * Delete the selection (one change). With "only creators delete their own objects" a non-owner
   * cannot delete others' shapes (SPEC D6): those stay selected and the person is told why.
   */
  deleteSelection(): { deleted: number; refused: number } {
    const ids = this.withGroups([...this.selected]).filter((id) => !this.scene.get(id)?.shape.locked);
    let result = { deleted: 0, refused: 0 };
    const ok = this.commit((d) => {
      result = arrange.deleteShapes(d, ids, (id) => {
        const s = this.scene.get(id)?.shape;
        return !!s && this.mayDelete(s);
      });
    });
    if (result.refused) this.notify('warning', 'deleteOthers', { count: result.refused });
    return ok ? result : { deleted: 0, refused: result.refused };
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
    this.textEditor.close();
    cancelAnimationFrame(this.inertia);
    cancelAnimationFrame(this.laserAnimation);
    clearTimeout(this.plotWheelTimer);
    this.instrumentsLayer.dispose();
    for (const d of this.disposers.splice(0)) d();
    this.renderer.destroy();
    this.listeners.clear();
    this.root.replaceChildren();
  }

  // ------------------------------------------------------------------------------------------
  // commands' helpers

  private selectedShapes(): ShapeRecord[] {
    return this.withGroups([...this.selected])
      .map((id) => this.scene.get(id)?.shape)
      .filter((s): s is ShapeRecord => !!s);
  }

  /** a group acts as one object: every member of a selected member's group */
  private withGroups(ids: string[]): string[] {
    return arrange.expandGroups(ids, this.scene);
  }

  private selectionBounds(): Rect | null {
    let r: Rect | null = null;
    for (const id of this.selected) {
      const b = this.scene.get(id)?.bounds;
      if (!b) continue;
      r = r
        ? {
            minX: Math.min(r.minX, b.minX),
            minY: Math.min(r.minY, b.minY),
            maxX: Math.max(r.maxX, b.maxX),
            maxY: Math.max(r.maxY, b.maxY),
          }
        : { ...b };
    }
    return r;
  }

  private nudge(action: 'nudgeLeft' | 'nudgeRight' | 'nudgeUp' | 'nudgeDown', step: number): boolean {
    const ids = this.withGroups([...this.selected]).filter((id) => !this.scene.get(id)?.shape.locked);
    if (!ids.length) return false;
    const dx = action === 'nudgeLeft' ? -step : action === 'nudgeRight' ? step : 0;
    const dy = action === 'nudgeUp' ? -step : action === 'nudgeDown' ? step : 0;
    return this.commit((d) => arrange.nudge(d, ids, dx, dy));
  }

  private undoRedo(which: 'undo' | 'redo'): boolean {
    const current = (id: string) => getShape(this.client.doc, id);
    const step = which === 'undo' ? this.undo.undo(current) : this.undo.redo(current);
    if (!step) return false;
    const ok = this.change(step.apply, false);
    if (ok) step.done();
    this.markState();
    return ok;
  }

  private restyleSelection(patch: Partial<ToolStyle>): void {
    // stroke and fill are shape fields as they are; restyle maps text and sticky styles per kind,
    // skips locked shapes, and an edit that changes nothing commits nothing
    const fields = Object.fromEntries(
      SHAPE_STYLE_FIELDS.filter((k) => patch[k] !== undefined).map((k) => [k, patch[k]]),
    );
    this.commit((d) => arrange.restyle(d, [...this.selected], fields, patch));
  }

  /** the pointer's world position while it is over the board */
  private pointerOnBoard(): Point | null {
    const v = this.viewRect();
    const p = this.lastPointer;
    return p.x >= v.minX && p.x <= v.maxX && p.y >= v.minY && p.y <= v.maxY ? p : null;
  }

  // ------------------------------------------------------------------------------------------
  // input

  private access(): Access {
    const snap = this.client.getSnapshot();
    const role = snap.welcome?.role;
    if (!snap.ready || snap.readOnly) return 'view';
    return role === 'owner' ? 'own' : role === 'editor' ? 'edit' : 'view';
  }

  private pointer(e: PointerEvent): ToolPointer {
    const r = this.overlayCanvas.getBoundingClientRect();
    const sx = e.clientX - r.left;
    const sy = e.clientY - r.top;
    const w = toWorld(this.renderer.camera, sx, sy);
    const type = e.pointerType === 'pen' || e.pointerType === 'touch' ? e.pointerType : 'mouse';
    return {
      x: w.x,
      y: w.y,
      sx,
      sy,
      shift: e.shiftKey,
      alt: e.altKey,
      mod: e.ctrlKey || e.metaKey,
      // mice report 0.5 while a button is down: only pens and touch carry real pressure
      pressure: type === 'pen' && e.pressure > 0 ? e.pressure : 0.5,
      pointerType: type,
      clicks: 1,
    };
  }

  /** pointer events carry no click count (detail is 0): count presses close in time and place */
  private countClicks(p: ToolPointer): number {
    const now = performance.now();
    const last = this.lastPress;
    const clicks = last && now - last.t < 500 && Math.hypot(p.sx - last.sx, p.sy - last.sy) < 6 ? last.clicks + 1 : 1;
    this.lastPress = { t: now, sx: p.sx, sy: p.sy, clicks };
    return clicks;
  }

  private onDown(e: PointerEvent): void {
    this.overlayCanvas.focus({ preventScroll: true });
    cancelAnimationFrame(this.inertia);
    const p = this.pointer(e);
    p.clicks = this.countClicks(p);
    const g = this.gesture;
    g.pointers.set(e.pointerId, { sx: p.sx, sy: p.sy, type: e.pointerType });
    this.overlayCanvas.setPointerCapture?.(e.pointerId);
    // a second finger: the tool's gesture ends and the two fingers pan and zoom
    const touches = [...g.pointers.values()].filter((q) => q.type === 'touch');
    if (touches.length === 2) {
      if (g.toolPointer !== null) {
        this.tool.cancel(this);
        g.toolPointer = null;
      }
      g.pan = null;
      g.pinch = pinchOf(touches);
      return;
    }
    if (g.toolPointer !== null || g.pan || g.pinch) return;
    const panTool = this.tool.id === 'hand';
    const touchPans = e.pointerType === 'touch' && this.penOnly && this.tool.id !== 'select';
    if (e.button === 1 || e.button === 2 || this.spaceDown || touchPans || (panTool && e.button === 0)) {
      g.pan = { sx: p.sx, sy: p.sy, samples: [{ t: performance.now(), sx: p.sx, sy: p.sy }] };
      this.overlayCanvas.style.cursor = 'grabbing';
      return;
    }
    if (e.button !== 0) return;
    if (this.tool.edits && !this.canEdit()) return;
    g.toolPointer = e.pointerId;
    const graph = this.editedGraphAt(p);
    if (graph) {
      this.plotDrag = { shape: graph, from: p, spec: null };
      return;
    }
    this.tool.down(p, this);
  }

  private onMove(e: PointerEvent): void {
    const p = this.pointer(e);
    this.lastPointer = { x: p.x, y: p.y };
    this.client.outbox.setCursor({ x: p.x, y: p.y });
    const g = this.gesture;
    const known = g.pointers.get(e.pointerId);
    if (known) {
      known.sx = p.sx;
      known.sy = p.sy;
    }
    if (g.pinch) {
      const touches = [...g.pointers.values()].filter((q) => q.type === 'touch');
      if (touches.length < 2) return;
      const next = pinchOf(touches);
      let c = panBy(this.renderer.camera, next.mid.x - g.pinch.mid.x, next.mid.y - g.pinch.mid.y);
      if (g.pinch.dist > 0) c = zoomAt(c, next.mid.x, next.mid.y, next.dist / g.pinch.dist);
      g.pinch = next;
      this.setCamera(c);
      return;
    }
    if (g.pan && known) {
      this.setCamera(panBy(this.renderer.camera, p.sx - g.pan.sx, p.sy - g.pan.sy));
      g.pan.sx = p.sx;
      g.pan.sy = p.sy;
      g.pan.samples.push({ t: performance.now(), sx: p.sx, sy: p.sy });
      if (g.pan.samples.length > 6) g.pan.samples.shift();
      return;
    }
    if (e.pointerId !== g.toolPointer) {
      if (g.toolPointer === null) {
        this.tool.hover?.(p, this);
        if (this.tool.id === 'laser') this.animateLasers();
        const cursor = this.tool instanceof SelectTool ? this.tool.cursorAt(p, this) : null;
        this.overlayCanvas.style.cursor = cursor ?? this.tool.cursor;
      }
      return;
    }
    if (this.plotDrag) return this.dragPlot(p);
    // coalesced events: every sample of a fast stroke, not one per frame
    const samples = e.getCoalescedEvents?.() ?? [];
    if (samples.length > 1) for (const s of samples) this.tool.move(this.pointer(s), this);
    else this.tool.move(p, this);
    if (this.tool.id === 'laser') this.animateLasers();
  }

  private onUp(e: PointerEvent): void {
    const g = this.gesture;
    g.pointers.delete(e.pointerId);
    if (g.pinch) {
      if ([...g.pointers.values()].filter((q) => q.type === 'touch').length < 2) g.pinch = null;
      return;
    }
    if (g.pan) {
      const samples = g.pan.samples;
      g.pan = null;
      this.overlayCanvas.style.cursor = this.tool.cursor;
      if (this.options.inertialPanning) this.glide(samples);
      return;
    }
    if (e.pointerId !== g.toolPointer) return;
    g.toolPointer = null;
    if (this.plotDrag) this.endPlotDrag(true);
    else this.tool.up(this.pointer(e), this);
    this.markState();
  }

  private onCancel(e: PointerEvent): void {
    const g = this.gesture;
    g.pointers.delete(e.pointerId);
    if (e.pointerId === g.toolPointer) {
      g.toolPointer = null;
      if (this.plotDrag) this.endPlotDrag(false);
      else this.tool.cancel(this);
    }
    if (!g.pointers.size) {
      g.pan = null;
      g.pinch = null;
    }
  }

  /**
   * The graph whose panel is open when `p` is inside its plot (not on the edge, where the select
   * tool's handles resize it): dragging there pans the plot and the wheel zooms it.
   */
  private editedGraphAt(p: Point): GraphShape | null {
    if (this.editing?.kind !== 'graph' || this.tool.id !== 'select' || !this.canEdit()) return null;
    const id = this.editing.id;
    const s = this.scene.overrides.get(id) ?? this.scene.get(id)?.shape;
    if (s?.kind !== 'graph' || s.locked) return null;
    const edge = 10 / this.zoom();
    const inside = p.x > s.x + edge && p.x < s.x + s.w - edge && p.y > s.y + edge && p.y < s.y + s.h - edge;
    return inside ? s : null;
  }

  private previewPlot(shape: GraphShape, spec: string | null): void {
    if (spec) this.scene.overrides.set(shape.id, { ...shape, spec });
    else this.scene.overrides.delete(shape.id);
    this.scene.touch();
    this.renderer.invalidate();
  }

  private dragPlot(p: Point): void {
    const d = this.plotDrag!;
    const { spec } = parseGraphSpec(d.shape.spec);
    d.spec = serializeGraphSpec(panRange(spec, p.x - d.from.x, p.y - d.from.y, d.shape.w, d.shape.h));
    this.previewPlot(d.shape, d.spec);
  }

  private endPlotDrag(commit: boolean): void {
    const d = this.plotDrag!;
    this.plotDrag = null;
    this.previewPlot(d.shape, null);
    if (commit && d.spec) this.updateShape(d.shape.id, { spec: d.spec });
  }

  private zoomPlot(shape: GraphShape, at: Point, factor: number): void {
    const { spec } = parseGraphSpec(shape.spec);
    const { ax, ay } = plotFraction(at.x - shape.x, at.y - shape.y, shape.w, shape.h);
    const next = serializeGraphSpec(zoomRange(spec, factor, ax, ay));
    if (!next) return;
    this.previewPlot(shape, next);
    clearTimeout(this.plotWheelTimer);
    // a burst of wheel notches is one change (one undo step)
    this.plotWheelTimer = window.setTimeout(() => {
      this.previewPlot(shape, null);
      this.updateShape(shape.id, { spec: next });
    }, 250);
  }

  /** inertial panning: keep the last drag velocity and let it decay (~350 ms) */
  private glide(samples: { t: number; sx: number; sy: number }[]): void {
    if (samples.length < 2) return;
    const a = samples[0]!;
    const b = samples[samples.length - 1]!;
    const dt = b.t - a.t;
    if (dt <= 0 || performance.now() - b.t > 80) return;
    let vx = (b.sx - a.sx) / dt;
    let vy = (b.sy - a.sy) / dt;
    if (Math.hypot(vx, vy) < 0.2) return;
    let last = performance.now();
    const step = () => {
      const now = performance.now();
      const ms = now - last;
      last = now;
      this.setCamera(panBy(this.renderer.camera, vx * ms, vy * ms));
      const decay = Math.exp(-ms / 120);
      vx *= decay;
      vy *= decay;
      this.inertia = Math.hypot(vx, vy) > 0.02 ? requestAnimationFrame(step) : 0;
    };
    this.inertia = requestAnimationFrame(step);
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    cancelAnimationFrame(this.inertia);
    const r = this.overlayCanvas.getBoundingClientRect();
    // lines / pages → pixels, so mice and trackpads move alike
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? r.height : 1;
    const dx = e.deltaX * unit;
    const dy = e.deltaY * unit;
    const at = toWorld(this.renderer.camera, e.clientX - r.left, e.clientY - r.top);
    const graph = e.ctrlKey || e.metaKey ? null : this.editedGraphAt(at);
    if (graph) return this.zoomPlot(graph, at, Math.exp(-Math.max(-150, Math.min(150, dy)) * WHEEL_ZOOM_SPEED));
    if (e.ctrlKey || e.metaKey) {
      // trackpad pinch arrives as Ctrl+wheel with small deltas; a mouse notch is ~100
      const clamped = Math.max(-150, Math.min(150, dy));
      this.setCamera(
        zoomAt(this.renderer.camera, e.clientX - r.left, e.clientY - r.top, Math.exp(-clamped * WHEEL_ZOOM_SPEED)),
      );
    } else if (e.shiftKey && dx === 0) this.setCamera(panBy(this.renderer.camera, -dy, 0));
    else this.setCamera(panBy(this.renderer.camera, -dx, -dy));
  }

  private onKeyDown(e: KeyboardEvent): void {
    if (e.key === 'Alt') this.altDown = true;
    if (isTyping(e.target) || ownsKeys(e.target) || this.textEditor.isOpen) return;
    if (e.code === 'Space') {
      this.spaceDown = true;
      if (e.target === this.overlayCanvas || e.target === document.body) e.preventDefault();
      return;
    }
    // the active tool first: Enter ends a polyline, Escape cancels a gesture
    if (this.tool.key?.({ key: e.key, shift: e.shiftKey, mod: e.ctrlKey || e.metaKey }, this)) {
      e.preventDefault();
      return;
    }
    // copy/cut/paste keys are left to the browser's clipboard events (system clipboard access)
    const key = keyOf(e);
    if (key === 'Mod+C' || key === 'Mod+X' || key === 'Mod+V') return;
    const shortcut = findShortcut(key);
    if (!shortcut) return;
    // spec §4: a shortcut whose access level the board does not grant is ignored
    if (!allows(this.access(), shortcut.access)) return;
    e.preventDefault();
    const t = shortcut.target;
    if ('tool' in t) this.setTool(t.tool);
    else if ('preset' in t) {
      const style = this.opts.penPreset(t.preset);
      if (style) {
        this.setTool('pen');
        this.styles = applyStylePatch(this.styles, 'pen', style);
        this.opts.styleChanged?.(this.styles);
        this.markState();
      }
    } else if (t.action.startsWith('nudge')) {
      this.nudge(t.action as 'nudgeLeft', nudgeStep(shortcut.keys));
    } else if (t.action === 'deselect') {
      this.tool.cancel(this);
      this.setSelection([]);
    } else this.run(t.action);
  }

  private syncRemoteLasers(): void {
    const now = performance.now();
    for (const [peer, pts] of this.client.remote.lasers) {
      const last = pts[pts.length - 1];
      if (last) this.lasers.add(peer, last, now);
    }
    if (this.client.remote.lasers.size) this.animateLasers();
  }

  /** trails fade over a second: keep drawing frames while any is visible */
  private animateLasers(): void {
    if (this.laserAnimation) return;
    const frame = () => {
      this.renderer.invalidate();
      this.laserAnimation = this.lasers.hasActive(performance.now()) ? requestAnimationFrame(frame) : 0;
    };
    this.laserAnimation = requestAnimationFrame(frame);
  }

  private resize(): void {
    const r = this.root.getBoundingClientRect();
    this.renderer.resize(r.width, r.height, window.devicePixelRatio || 1);
    this.placeCursors();
    this.markState();
  }

  // ------------------------------------------------------------------------------------------
  // drawing of what is not committed

  private paintContextPatch() {
    return { theme: this.options.theme, background: this.options.background };
  }

  private paintContext(): PaintContext {
    return {
      theme: this.options.theme,
      background: this.options.background,
      zoom: this.renderer.camera.zoom,
      onAsset: () => this.renderer.invalidate(),
    };
  }

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
    // my selection: the select tool draws the box and handles; other tools just outline
    if (!(this.tool instanceof SelectTool)) {
      g.strokeStyle = '#2563eb';
      for (const id of this.selected) {
        const it = this.scene.get(id);
        if (it) strokeBounds(g, this.scene.displaced(it), 4 / zoom);
      }
    }
    this.tool.drawOverlay?.(g, this);
    this.instrumentsLayer.drawOverlay(g, {
      zoom,
      theme: this.options.theme,
      peerColor: (peer) => this.peerColor(peer),
      peerName: (peer) => this.client.getSnapshot().presence.find((p) => p.peerId === peer)?.name,
    });
    this.lasers.draw(g, performance.now(), zoom, (peer) => (peer < 0 ? '#ef4444' : this.peerColor(peer)));
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

function pinchOf(touches: { sx: number; sy: number }[]): { dist: number; mid: Point } {
  const [a, b] = touches as [{ sx: number; sy: number }, { sx: number; sy: number }];
  return { dist: Math.hypot(a.sx - b.sx, a.sy - b.sy), mid: { x: (a.sx + b.sx) / 2, y: (a.sy + b.sy) / 2 } };
}

function strokeBounds(
  g: CanvasRenderingContext2D,
  b: { minX: number; minY: number; maxX: number; maxY: number },
  pad: number,
) {
  g.strokeRect(b.minX - pad, b.minY - pad, b.maxX - b.minX + 2 * pad, b.maxY - b.minY + 2 * pad);
}

/** keys pressed in a panel that takes the keyboard (formula, graph, dialogs) are not shortcuts */
function ownsKeys(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el?.closest?.('[data-own-keys], [role="dialog"]');
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && !!el.tagName && (/^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) || el.isContentEditable);
}

function readPenOnly(): boolean {
  try {
    return localStorage.getItem(PEN_ONLY_KEY) === '1';
  } catch {
    return false;
  }
}
