/**
 * What the React board page sees of the imperative editor (BoardView implements it): commands,
 * the tool and style, and a small observable state for the toolbar, panels and minimap.
 */
import type { BoardBackground, ShapeKind, ShapeRecord } from '@wb/proto';
import type { ActionId } from './actions';
import type { Camera, Rect } from './camera';
import type { Scene } from './scene';
import type { ToolStyles } from './toolStyles';
import type { ToolId, ToolStyle } from './tools/types';

export interface EditorSelection {
  count: number;
  kinds: readonly ShapeKind[];
  /** every selected shape is locked */
  locked: boolean;
  /** the selection is exactly one or more whole groups */
  grouped: boolean;
}

/** A shape made outside the editor (a file placed on the board): the editor gives id, z and creator. */
export type NewShape = ShapeRecord extends infer S
  ? S extends ShapeRecord
    ? Omit<S, 'id' | 'z' | 'creator'>
    : never
  : never;

export interface EditorState {
  tool: ToolId;
  /** what the style panel shows and setStyle changes: the selection's or the tool's group */
  style: ToolStyle;
  /** every tool group's style (toolStyles.ts): what the page saves */
  styles: ToolStyles;
  selection: EditorSelection;
  canUndo: boolean;
  canRedo: boolean;
  camera: Camera;
  /** world rectangle on screen */
  view: Rect;
  /** CSS px of the board surface */
  screen: { width: number; height: number };
  /** touch pans, only a stylus draws (palm rejection); a device preference in localStorage */
  penOnly: boolean;
  /** the formula or graph whose editing panel is open */
  editing: { id: string; kind: 'formula' | 'graph' } | null;
}

/** Preferences and board facts the view needs (settings, theme, the board's background). */
export interface EditorOptions {
  theme: 'light' | 'dark';
  background: BoardBackground;
  snapping: boolean;
  inertialPanning: boolean;
  showParticipantNames: boolean;
}

export interface EditorApi {
  readonly scene: Scene;
  getState(): EditorState;
  /** useSyncExternalStore-compatible */
  subscribe(fn: () => void): () => void;
  setTool(id: ToolId): void;
  setStyle(patch: Partial<ToolStyle>): void;
  setPenOnly(on: boolean): void;
  setOptions(patch: Partial<EditorOptions>): void;
  /** run a command (toolbar button, menu, shortcut); false when it did nothing */
  run(action: ActionId): boolean;
  /** may this command run now (selection, access, undo stack)? power-tool gating is the page's */
  can(action: ActionId): boolean;
  setCamera(c: Camera): void;
  /** centre the view on a world point (minimap click) */
  centerOn(x: number, y: number): void;
  /** ids of the selected shapes (export of the selection) */
  selection(): ReadonlySet<string>;
  /** open / close the editing panel of a formula or graph (EditorState.editing) */
  openEditor(id: string): void;
  closeEditor(): void;
  /** change fields of one shape as one undo step (editing panels); false when refused */
  updateShape(id: string, patch: Record<string, unknown>): boolean;
  /**
   * Add shapes (files placed from the drawer, pasted or dropped) above everything as one undo
   * step (sent in parts within SPEC L4 when big) and select them; `reveal` brings them into view.
   * Their ids, or null when refused (viewer, not yet in sync, limits).
   */
  addShapes(shapes: readonly NewShape[], opts?: { reveal?: boolean }): string[] | null;
  /** other people's visible rectangles (minimap), by peer id */
  peerViewports(): ReadonlyMap<number, Rect>;
}
