/**
 * What a valid shape record is, per kind (realtime SPEC D4, D10): the realtime node checks every
 * new or changed record with it before a change is applied or forwarded, and the web editor can
 * check what its tools write. Derived from the ShapeRecord interfaces in ./realtime.
 *
 * Hand-written checks, no zod: the node runs this on every committed edit (a pen stroke's record
 * takes ~1–2 µs here; the equivalent zod object schema took several times that).
 *
 * A record is the stored form as plain values: strings (Automerge ImmutableStrings read as their
 * value), numbers (Int, Uint or Float64), booleans, null, and Uint8Array bytes. The id is the
 * record's key in its bucket; an `id` field is tolerated (records of older documents carry one).
 * `text` and `latex` may also be collaborative text (an Automerge Text object): the realtime node
 * passes those as `{ textLength }` (it never materialises the document); the web passes strings.
 */
import { FILL_STYLES, GEOMETRIC_SHAPES, SHAPE_KINDS, unpackPoints } from './realtime';
import type { ShapeKind } from './realtime';
import { FORMULA_ALIGNMENTS, LINE_PATTERNS } from './settings';

/**
 * The order shapes are drawn in, bottom to top: by z key, then by id (two shapes given the same
 * key concurrently). The browser's scene and arrange commands and the node's render snapshots (S9)
 * all sort with it. Keys and ids as arguments: a 20,000-shape sort compares flat strings.
 */
export function compareZOrder(zA: string, idA: string, zB: string, idB: string): number {
  return zA < zB ? -1 : zA > zB ? 1 : idA < idB ? -1 : idA > idB ? 1 : 0;
}

export const SHAPE_LIMITS = {
  /** |x|, |y| and every stroke point, in world units */
  maxCoordinate: 1e9,
  /** w, h, r */
  maxSize: 1e9,
  /** |rotation|, |startAngle|, |endAngle| (radians or degrees: generous either way) */
  maxAngle: 1e4,
  maxStrokeWidth: 1000,
  maxFontSize: 1000,
  /** points of one stroke / line / polyline / connector */
  maxPoints: 50_000,
  /** the z fractional index key */
  maxZLength: 128,
  /** shape ids (fromId, toId, a legacy `id` field) and file ids */
  maxIdLength: 128,
  /** font names, anchors, line patterns and other short words */
  maxShortString: 64,
  /** text of stickies and text boxes, LaTeX of formulas (characters) */
  maxText: 20_000,
  /** the graph tool's JSON state (characters) */
  maxSpec: 64 * 1024,
  maxPage: 100_000,
  /** user ids (creator) */
  maxUserId: Number.MAX_SAFE_INTEGER,
} as const;

/** Fields that may be collaborative text (Automerge Text objects, edited per character). */
export const SHAPE_TEXT_FIELDS: readonly string[] = ['text', 'latex'];

/** A collaborative text field seen by its length only (the realtime node; see the file comment). */
export interface TextLength {
  readonly textLength: number;
}

/** null: valid; else the reason. */
type Check = (value: unknown) => string | null;

const isTextLength = (v: unknown): v is TextLength =>
  typeof v === 'object' && v !== null && typeof (v as { textLength?: unknown }).textLength === 'number';

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (v instanceof Uint8Array) return 'bytes';
  if (isTextLength(v)) return 'a collaborative text';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'a nested object' : typeof v;
}

function finite(min: number, max: number): Check {
  return (v) =>
    typeof v !== 'number'
      ? `must be a number, not ${describe(v)}`
      : Number.isFinite(v) && v >= min && v <= max
        ? null
        : `must be a finite number from ${min} to ${max}`;
}
function integer(min: number, max: number): Check {
  return (v) =>
    typeof v !== 'number'
      ? `must be a number, not ${describe(v)}`
      : Number.isInteger(v) && v >= min && v <= max
        ? null
        : `must be an integer from ${min} to ${max}`;
}
const boolean: Check = (v) => (typeof v === 'boolean' ? null : `must be a boolean, not ${describe(v)}`);
const colour = integer(0, 0xffffff);

/** C0/C1 control characters (tabs and newlines included): never part of ids, names or keys */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

function word(min: number, max: number): Check {
  return (v) => {
    if (typeof v !== 'string') return `must be a string, not ${describe(v)}`;
    if (v.length < min || v.length > max) return `must be ${min}–${max} characters`;
    return CONTROL.test(v) ? 'must not contain control characters' : null;
  };
}
function oneOf(values: readonly string[]): Check {
  const set = new Set(values);
  return (v) => (typeof v === 'string' && set.has(v) ? null : `must be one of ${values.join(', ')}`);
}
/** free text (newlines allowed), or a collaborative text of at most `max` characters */
function text(max: number, collaborative: boolean): Check {
  return (v) => {
    if (typeof v === 'string') return v.length <= max ? null : `must be at most ${max} characters`;
    if (collaborative && isTextLength(v)) return v.textLength <= max ? null : `must be at most ${max} characters`;
    return `must be a string, not ${describe(v)}`;
  };
}
function nullable(check: Check): Check {
  return (v) => (v === null ? null : check(v));
}
function bytes(maxLength: number): Check {
  return (v) =>
    !(v instanceof Uint8Array)
      ? `must be bytes, not ${describe(v)}`
      : v.length <= maxLength
        ? null
        : `must be at most ${maxLength} bytes`;
}
/** SPEC D3: bytes `unpackPoints` reads, `min`…maxPoints finite points within maxCoordinate */
function points(min: number): Check {
  const { maxPoints, maxCoordinate } = SHAPE_LIMITS;
  return (v) => {
    if (!(v instanceof Uint8Array)) return `must be packed points (bytes), not ${describe(v)}`;
    // compact form: ≥ 2 bytes per point; Float32 pairs: 8. Refuse before decoding anything big
    if (v.length > maxPoints * 16 + 16) return `must hold at most ${maxPoints} points`;
    let xy: Float32Array;
    try {
      xy = unpackPoints(v);
    } catch {
      return 'must be packed points (SPEC D3)';
    }
    const n = xy.length / 2;
    if (n < min || n > maxPoints) return `must hold ${min}–${maxPoints} points`;
    for (let i = 0; i < xy.length; i++) {
      const c = xy[i]!;
      if (!(c >= -maxCoordinate && c <= maxCoordinate)) return 'must hold finite points within range';
    }
    return null;
  };
}

interface FieldSpec {
  check: Check;
  required: boolean;
}
type KindSpec = Map<string, FieldSpec>;

const L = SHAPE_LIMITS;
const coordinate = finite(-L.maxCoordinate, L.maxCoordinate);
const size = finite(0, L.maxSize);
const angle = finite(-L.maxAngle, L.maxAngle);
const fontSize = finite(0, L.maxFontSize);
const shapeId = word(1, L.maxIdLength);

const req = (check: Check): FieldSpec => ({ check, required: true });
const opt = (check: Check): FieldSpec => ({ check, required: false });

/** ShapeBase */
const BASE: Record<string, FieldSpec> = {
  kind: req(oneOf(SHAPE_KINDS)),
  creator: req(integer(0, L.maxUserId)),
  z: req(word(1, L.maxZLength)),
  x: req(coordinate),
  y: req(coordinate),
  rotation: opt(angle),
  locked: opt(boolean),
  strokeColor: opt(colour),
  strokeWidth: opt(finite(0, L.maxStrokeWidth)),
  linePattern: opt(oneOf(LINE_PATTERNS)),
  fillColor: opt(nullable(colour)),
  fill: opt(oneOf(FILL_STYLES)),
  opacity: opt(finite(0, 1)),
  groupId: opt(shapeId),
  /** records of older documents carry their id (SPEC D4); never written any more */
  id: opt(shapeId),
};

const KIND_FIELDS: Record<ShapeKind, Record<string, FieldSpec>> = {
  pen: { points: req(points(1)), pressures: opt(bytes(L.maxPoints * 4)) },
  line: { points: req(points(2)), arrowStart: opt(boolean), arrowEnd: opt(boolean) },
  arc: { r: req(size), startAngle: req(angle), endAngle: req(angle) },
  polyline: { points: req(points(2)), closed: opt(boolean) },
  curve: { points: req(points(2)), closed: opt(boolean) },
  connector: {
    points: req(points(2)),
    fromId: req(nullable(shapeId)),
    toId: req(nullable(shapeId)),
    fromAnchor: opt(word(1, L.maxShortString)),
    toAnchor: opt(word(1, L.maxShortString)),
    arrowStart: opt(boolean),
    arrowEnd: opt(boolean),
    elbow: opt(boolean),
  },
  shape: {
    shapeType: req(oneOf(GEOMETRIC_SHAPES)),
    w: req(size),
    h: req(size),
    text: opt(text(L.maxText, true)),
  },
  sticky: { w: req(size), h: req(size), text: req(text(L.maxText, true)), color: req(colour) },
  text: {
    text: req(text(L.maxText, true)),
    font: req(word(1, L.maxShortString)),
    fontSize: req(fontSize),
    color: req(colour),
    w: req(size),
  },
  formula: {
    latex: req(text(L.maxText, true)),
    fontSize: req(fontSize),
    color: req(colour),
    alignment: req(oneOf(FORMULA_ALIGNMENTS)),
    w: opt(size),
    h: opt(size),
  },
  graph: { spec: req(text(L.maxSpec, false)), w: req(size), h: req(size) },
  image: { fileId: req(word(1, L.maxIdLength)), w: req(size), h: req(size) },
  documentPage: {
    fileId: req(word(1, L.maxIdLength)),
    page: req(integer(0, L.maxPage)),
    w: req(size),
    h: req(size),
  },
};

const SPECS = new Map<string, KindSpec>(
  SHAPE_KINDS.map((kind) => [kind, new Map(Object.entries({ ...BASE, ...KIND_FIELDS[kind] }))]),
);
const REQUIRED = new Map<string, string[]>(
  [...SPECS].map(([kind, spec]) => [kind, [...spec].filter(([, f]) => f.required).map(([k]) => k)]),
);

/**
 * null when `record` is a valid shape record of its kind, else why not (e.g. `points: must be
 * packed points (SPEC D3)`). Unknown fields, missing required fields, nested objects, lists and
 * values of the wrong type or out of range are all invalid.
 */
export function validateShapeRecord(record: unknown): string | null {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return 'a shape must be a map';
  const r = record as Record<string, unknown>;
  if (typeof r.kind !== 'string') return r.kind === undefined ? 'kind is missing' : 'kind must be a string';
  const kind = r.kind;
  const spec = SPECS.get(kind);
  if (!spec) return `unknown shape kind "${kind.slice(0, 40)}"`;
  for (const key in r) {
    if (!Object.prototype.hasOwnProperty.call(r, key)) continue;
    const value = r[key];
    if (value === undefined) continue;
    const field = spec.get(key);
    if (!field) return `${kind}: unknown field "${key.slice(0, 40)}"`;
    const problem = field.check(value);
    if (problem) return `${kind}.${key}: ${problem}`;
  }
  for (const key of REQUIRED.get(kind)!) if (r[key] === undefined) return `${kind}.${key} is missing`;
  return null;
}
