/**
 * What a shape kind's module provides (the way tldraw gives each shape a ShapeUtil): everything
 * the editor does differently per kind, and nothing it does the same for all. The record's
 * validation schema stays in proto (shapes.ts); the kinds are listed in ./registry.ts, and the
 * per-shape operations look them up there (geometry.ts shapeGeometry / hitsShape, painters.ts
 * paintItem, export/vector.ts shapeDrawing, transform.ts resizeShape, the select tool, the text
 * editor, arrange.restyle, the renderer's idle warm-up and the exports' asset and typeset passes).
 *
 * Functions here are called per item on hot paths (paint, hit test): they never use `this` and a
 * kind never makes a closure per call.
 */
import type { ShapeRecord } from '@wb/proto';
import type { Point } from '../camera';
import type { SceneItem } from '../scene';
import type { PaintContext } from '../theme';
import type { ToolStyle } from '../tools/types';
import type { LocalBox, ShapeGeometry } from './shared/geometry';
import type { Prim, VectorContext } from './shared/vector';

/**
 * How the selection frame maps one shape (transform.ts resizeShape computes it once for all
 * kinds): the shape's unrotated box, the scale along its own axes and where its centre goes.
 */
export interface ResizeMapping {
  /** the shape's unrotated box before the resize */
  box: LocalBox;
  /** scale along the shape's own x and y axes */
  lx: number;
  ly: number;
  /** the box centre before and after */
  cx: number;
  cy: number;
  ncx: number;
  ncy: number;
}

/** the text and note style a restyle may carry (arrange.restyle) */
export type TextStylePatch = Partial<Pick<ToolStyle, 'textColor' | 'stickyColor' | 'textSize' | 'textFont'>>;

/** a double click edits the shape's text in place (canvas/textEditor.ts) */
export interface InPlaceEditing<S extends ShapeRecord> {
  readonly mode: 'text';
  /** the editor's font size in world units */
  fontSize(shape: S): number;
  /** the editor's font; `textFont` is the text tools' font (labels and notes are edited in it) */
  font(shape: S, textFont: string): string;
  /** the text colour (#rrggbb) */
  color(shape: S): string;
  /** the editor's background (#rrggbb), or undefined for none */
  background(shape: S): string | undefined;
  readonly align: 'left' | 'center';
  /** committing empty text deletes the shape (a text box) */
  readonly removeWhenEmpty?: boolean;
}

/** a double click opens the shape's panel (EditorState.editing: the formula and graph panels) */
export interface PanelEditing<S extends ShapeRecord> {
  readonly mode: 'panel';
  /** closing the panel deletes the shape when this says so (a formula left empty) */
  removeOnClose?(shape: S): boolean;
}

export interface ShapeUtil<S extends ShapeRecord = ShapeRecord> {
  readonly kind: S['kind'];

  // ---- geometry and hit testing ------------------------------------------------------------

  /**
   * The shape's box, path or outline and ink reach (uncached: geometry.ts shapeGeometry caches it
   * per record). `points` are the record's unpacked points when the caller has them.
   */
  geometry(shape: S, points?: Float32Array): ShapeGeometry;
  /**
   * Its inside is part of it (a hit or a touching marquee anywhere inside its closed path or
   * outline counts), not only its outline. Default: filled with a colour (geometry.isFilled).
   */
  solid?(shape: S): boolean;
  /** is `p` (box coordinates) inside its outline; default: inside the outline polygon */
  insideOutline?(shape: S, p: Point, box: LocalBox): boolean;
  /** a connector end may bind to it (geometry.bindsShape); default true */
  readonly bindable?: boolean;

  // ---- painting ------------------------------------------------------------------------------

  /** draw it (world transform set; rotation and opacity are applied by painters.paintItem) */
  paint(g: CanvasRenderingContext2D, item: SceneItem, ctx: PaintContext): void;
  /** the colour it is drawn in when it is only a dot on screen (painters.paintDot) */
  dotColor(shape: S, ctx: PaintContext): string;

  // ---- export ---------------------------------------------------------------------------------

  /** its SVG/PDF drawing (world coordinates, unrotated: export/vector.ts shapeDrawing turns it) */
  vector(item: SceneItem, ctx: VectorContext): Prim[];
  /**
   * Its picture is a file to load (images, document pages): the URL its painter and the exports
   * load it from. Such shapes are not painted ahead in idle time (that would load every picture).
   */
  assetUrl?(shape: S): string;
  /**
   * It is typeset by a lazily loaded engine (formulas: MathJax, graphs: function-plot): exports
   * wait for it and embed its SVG fragment; it is not painted ahead in idle time.
   */
  readonly typeset?: boolean;

  // ---- editing ----------------------------------------------------------------------------------

  /** map it with the selection frame (transform.resizeShape); a new record that validates */
  resize(shape: S, m: ResizeMapping): S;
  /** which style fields a restyle gives it (arrange.restyle): the stroke fields, the fill fields */
  readonly style: { readonly stroke: boolean; readonly fill: boolean };
  /** the text/note style fields it takes from a restyle, written into `out` */
  restyle?(patch: TextStylePatch, out: Record<string, unknown>): void;
  /** what a double click edits; none: a double click only selects */
  readonly editing?: InPlaceEditing<S> | PanelEditing<S>;
}
