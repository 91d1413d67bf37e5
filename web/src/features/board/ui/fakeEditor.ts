/**
 * A fake EditorApi for the chrome's component tests (jsdom has no canvas): it records every call
 * and keeps a state the test can change, notifying subscribers like the real view does.
 */
import type { ActionId } from '../canvas/actions';
import type { Camera, Rect } from '../canvas/camera';
import type { EditorApi, EditorOptions, EditorState, NewShape } from '../canvas/editorApi';
import type { Scene, SceneItem } from '../canvas/scene';
import { stylesFromFlat } from '../canvas/toolStyles';
import type { ToolId, ToolStyle } from '../canvas/tools/types';

export const DEFAULT_TEST_STYLE: ToolStyle = {
  strokeColor: 0,
  strokeWidth: 3,
  linePattern: 'pen',
  fillColor: null,
  fill: 'none',
  textColor: 0,
  textSize: 16,
  textFont: 'Open Sans',
  stickyColor: 0xfff59d,
  fixedWidth: false,
  elbow: false,
  arrowStart: false,
  arrowEnd: true,
  formulaColor: 0,
  formulaSize: 20,
  formulaAlignment: 'equation',
};

export interface FakeEditor extends EditorApi {
  calls: { method: string; args: unknown[] }[];
  /** change the state and notify (as the view does after a command) */
  update(patch: Partial<EditorState>): void;
  items: { bounds: Rect }[];
  peers: Map<number, Rect>;
  enabled: Set<ActionId>;
}

export function fakeEditor(init: Partial<EditorState> = {}): FakeEditor {
  let state: EditorState = {
    tool: 'select',
    style: DEFAULT_TEST_STYLE,
    styles: stylesFromFlat(DEFAULT_TEST_STYLE),
    selection: { count: 0, kinds: [], locked: false, grouped: false },
    canUndo: false,
    canRedo: false,
    camera: { x: 0, y: 0, zoom: 1 },
    view: { minX: 0, minY: 0, maxX: 800, maxY: 600 },
    screen: { width: 800, height: 600 },
    penOnly: false,
    editing: null,
    ...init,
  };
  const subs = new Set<() => void>();
  const calls: FakeEditor['calls'] = [];
  const record = (method: string, ...args: unknown[]) => calls.push({ method, args });
  const items: { bounds: Rect }[] = [];
  const scene = {
    order: () => items as unknown as readonly SceneItem[],
    get size() {
      return items.length;
    },
    version: 0,
  };
  const fake: FakeEditor = {
    calls,
    items,
    peers: new Map(),
    enabled: new Set(),
    scene: scene as unknown as Scene,
    getState: () => state,
    subscribe(fn) {
      subs.add(fn);
      return () => subs.delete(fn);
    },
    update(patch) {
      state = { ...state, ...patch };
      subs.forEach((f) => f());
    },
    setTool(id: ToolId) {
      record('setTool', id);
      fake.update({ tool: id });
    },
    setStyle(patch: Partial<ToolStyle>) {
      record('setStyle', patch);
      fake.update({ style: { ...state.style, ...patch } });
    },
    setPenOnly(on: boolean) {
      record('setPenOnly', on);
      fake.update({ penOnly: on });
    },
    setOptions(patch: Partial<EditorOptions>) {
      record('setOptions', patch);
    },
    run(action: ActionId) {
      record('run', action);
      return true;
    },
    can: (action: ActionId) => fake.enabled.has(action),
    setCamera(c: Camera) {
      record('setCamera', c);
    },
    centerOn(x: number, y: number) {
      record('centerOn', x, y);
    },
    selection: () => new Set<string>(),
    openEditor(id: string) {
      record('openEditor', id);
    },
    closeEditor() {
      record('closeEditor');
      fake.update({ editing: null });
    },
    updateShape(id: string, patch: Record<string, unknown>) {
      record('updateShape', id, patch);
      return true;
    },
    addShapes(shapes: readonly NewShape[], opts?: { reveal?: boolean }) {
      record('addShapes', shapes, opts);
      return shapes.map((_, i) => `added${i}`);
    },
    peerViewports: () => fake.peers,
  };
  return fake;
}
