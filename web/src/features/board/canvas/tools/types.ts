/**
 * The contract between the board view (boardView.ts) and its tools. A tool turns pointer input
 * into a preview on the overlay while the gesture lasts and exactly one committed change per user
 * action (one undo step). Tools never touch React, the socket or the DOM outside what the host
 * gives them (the text editor overlay is a host service).
 */
import type { ShapeRecord } from '@wb/proto';
import type { BoardDoc } from '../../realtime/boardDoc';
import type { EphemeralOutbox } from '../../realtime/ephemeral';
import type { Point, Rect } from '../camera';
import type { Ruler } from '../instruments/model';
import type { Scene } from '../scene';

export const TOOL_IDS = [
  'select',
  'hand',
  'pen',
  'eraser',
  'line',
  'polyline',
  'curve',
  'connector',
  'rectangle',
  'ellipse',
  'triangle',
  'diamond',
  'star',
  'hexagon',
  'arrow',
  'sticky',
  'text',
  'formula',
  'graph',
  'laser',
  'compass',
  'ruler',
  'protractor',
] as const;
export type ToolId = (typeof TOOL_IDS)[number];

/** The current style of the drawing tools (from the user's settings; changing it saves them). */
export interface ToolStyle {
  /** 0xRRGGBB */
  strokeColor: number;
  strokeWidth: number;
  /** LINE_PATTERNS: pen, dashed, dotted, marker, highlighter */
  linePattern: string;
  /** 0xRRGGBB; null = no fill */
  fillColor: number | null;
  /** FILL_STYLES */
  fill: 'none' | 'solid' | 'semi';
  textColor: number;
  textSize: number;
  textFont: string;
  /** sticky note colour */
  stickyColor: number;
  /** pen: ignore pressure (a fixed width) */
  fixedWidth: boolean;
  /** connector: elbow route instead of straight */
  elbow: boolean;
  arrowStart: boolean;
  arrowEnd: boolean;
  /** formula tool (toolFormula* settings): 0xRRGGBB, size, FORMULA_ALIGNMENTS */
  formulaColor: number;
  formulaSize: number;
  formulaAlignment: string;
}

export interface ToolPointer extends Point {
  shift: boolean;
  alt: boolean;
  /** ctrl or meta */
  mod: boolean;
  /** 0…1; 0.5 when the device reports none */
  pressure: number;
  pointerType: 'mouse' | 'pen' | 'touch';
  /** screen coordinates (CSS px within the board) */
  sx: number;
  sy: number;
  /** detail of the click (2 = double click) */
  clicks: number;
}

/** What a tool may use of the board. */
export interface ToolHost {
  readonly scene: Scene;
  readonly userId: number;
  zoom(): number;
  canEdit(): boolean;
  style(): ToolStyle;
  /**
   * One user action = one change = one undo step. `fn` runs inside the Automerge change; the
   * host records the touched shapes for undo, keeps bound connectors attached and returns false
   * when the board refused (read-only, not ready).
   */
  commit(fn: (d: BoardDoc) => void): boolean;
  newId(): string;
  /** a z key above every shape (new shapes go on top) */
  topZ(): string;
  selection(): ReadonlySet<string>;
  setSelection(ids: Iterable<string>): void;
  readonly ephemeral: EphemeralOutbox;
  /** the overlay (previews) changed */
  redraw(): void;
  /** snap a world point (grid and other shapes' edges/centres) unless Alt is held or snapping is off */
  snap(p: Point, opts?: { exclude?: ReadonlySet<string>; alt?: boolean }): Point;
  /** edit the text of a text-bearing shape in place (sticky, text, shape label); resolves when done */
  editText(id: string): void;
  /** open the page's editing panel of a formula or graph (placing one, double-click) */
  openEditor(id: string): void;
  /** switch tools (e.g. text → select after placing) */
  setTool(id: ToolId): void;
  /** a message for the person (e.g. why a delete was refused) */
  notify(kind: 'warning' | 'error', code: string, values?: Record<string, unknown>): void;
  /** may this person delete the shape (SPEC D6 "delete own only")? */
  mayDelete(shape: ShapeRecord): boolean;
  /** world rectangle visible on screen */
  viewRect(): Rect;
  /** pan the view by a screen distance (the hand tool; content follows the pointer) */
  pan(dsx: number, dsy: number): void;
  /** draw an uncommitted shape record as it will look (tool previews), world transform set */
  drawShape(g: CanvasRenderingContext2D, shape: ShapeRecord): void;
  /** the geometry instruments on the board (the pen draws along a ruler's edge); none: no instruments */
  instruments?(): { ruler(): Ruler | null };
}

export interface Tool {
  readonly id: ToolId;
  /** CSS cursor over the canvas */
  readonly cursor: string;
  /** needs edit rights (disabled for viewers) */
  readonly edits: boolean;
  down(p: ToolPointer, host: ToolHost): void;
  move(p: ToolPointer, host: ToolHost): void;
  up(p: ToolPointer, host: ToolHost): void;
  /** gesture aborted (Escape, pointer lost, tool switched) */
  cancel(host: ToolHost): void;
  /** a key while this tool is active (Enter ends a polyline); true = handled */
  key?(e: { key: string; shift: boolean; mod: boolean }, host: ToolHost): boolean;
  /** pointer moves without a button (hover previews: the next polyline segment) */
  hover?(p: ToolPointer, host: ToolHost): void;
  /** preview in world coordinates */
  drawOverlay?(g: CanvasRenderingContext2D, host: ToolHost): void;
}
