/**
 * Every shape kind's module, by kind: adding a kind is one module (see ./README.md) and one line
 * here (its record type and validation go in proto's realtime.ts and shapes.ts). The type below
 * makes a kind in proto without a module here a type error.
 */
import type { ShapeKind } from '@wb/proto';
import { arcUtil } from './arc';
import { connectorUtil } from './connector';
import { curveUtil } from './curve';
import { documentPageUtil } from './documentPage';
import { formulaUtil } from './formula';
import { graphUtil } from './graph';
import { imageUtil } from './image';
import { lineUtil } from './line';
import { penUtil } from './pen';
import { polylineUtil } from './polyline';
import { shapeUtil } from './shape';
import { stickyUtil } from './sticky';
import { textUtil } from './text';
import type { ShapeUtil } from './types';
import { unknownUtil } from './unknown';

export const SHAPE_UTILS: { readonly [K in ShapeKind]: ShapeUtil } = {
  pen: penUtil,
  line: lineUtil,
  arc: arcUtil,
  polyline: polylineUtil,
  curve: curveUtil,
  connector: connectorUtil,
  shape: shapeUtil,
  sticky: stickyUtil,
  text: textUtil,
  formula: formulaUtil,
  graph: graphUtil,
  image: imageUtil,
  documentPage: documentPageUtil,
};

const BY_KIND = new Map<string, ShapeUtil>(Object.entries(SHAPE_UTILS));

/** the module of a kind (one map lookup: called per item when painting and hit testing) */
export function utilOf(kind: string): ShapeUtil {
  return BY_KIND.get(kind) ?? unknownUtil;
}
