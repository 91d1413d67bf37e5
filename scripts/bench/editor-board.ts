/**
 * The editor benchmark's board: 20,000 objects of mixed kinds over ~20,000 × 15,000 world units
 * (pen strokes, geometric shapes, stickies, text boxes, lines and connectors), one Automerge
 * change per object as the web commits them, a new actor every 500 objects. Built on the raw
 * handle like realtime-board.ts (the high-level API would materialise the whole board on every
 * change) and returned as a BigBoard, so `seedBigBoard` stores it through the realtime service's
 * own storage code.
 *
 * Datatypes are those the web's `toStored` + Automerge's JS import give a record: `text` (and
 * `latex`) as collaborative text objects, every other string an ImmutableString ('str'),
 * integers 'int', other numbers 'f64', Uint8Array 'bytes'. Every record is checked with proto's
 * validateShapeRecord before it is written.
 */
import { bucketOf, packPoints, validateShapeRecord } from '@wb/proto';
import { genesisChange, layoutOf, newHandle } from '@wb/realtime/dist/doc/automerge';
import type { Handle } from '@wb/realtime/dist/doc/automerge';
import type { BigBoard } from './realtime-board';
import { seeded, strokePoints } from './realtime-common';

export const EDITOR_BOARD_MIX = {
  pen: 12_000,
  shape: 3_000,
  sticky: 2_500,
  text: 2_000,
  line: 300,
  connector: 200,
} as const;
export type MixKind = keyof typeof EDITOR_BOARD_MIX;

export interface EditorBoard {
  board: BigBoard;
  counts: Record<MixKind, number>;
  objects: number;
  /** pen, line and connector points */
  points: number;
  /** characters of collaborative text (stickies, text boxes, shape labels) */
  textChars: number;
  /** the area objects are placed in (world units; strokes and boxes may reach a little past it) */
  area: { width: number; height: number };
}

const OBJECTS_PER_ACTOR = 500;
/** fields the web keeps as collaborative text (boardDoc.ts TEXT_FIELDS) */
const TEXT_FIELDS = new Set(['text', 'latex']);
const PALETTE = [0x000000, 0x1e88e5, 0xe53935, 0x43a047, 0xfb8c00, 0x8e24aa, 0x00897b, 0x6d4c41];
const STICKY_COLOURS = [0xfff59d, 0xffcc80, 0xa5d6a7, 0x90caf9, 0xf48fb1, 0xce93d8];
const SHAPE_TYPES = ['rectangle', 'ellipse', 'triangle', 'diamond', 'star', 'hexagon', 'arrow'] as const;
const FILLS = ['none', 'solid', 'semi'] as const;
const WORDS =
  'the a of to and is in that for it on with as fraction angle triangle area volume photosynthesis cell verb noun river mountain equation solve sum product why how what example answer question group homework check draw label explain compare'.split(
    ' ',
  );
const DIGITS62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * The i-th z key in creation order, in the web's fractional-index format: 'c' + three base-62
 * digits is a valid integer key (fractionalIndex.ts), and equal-length keys sort like numbers.
 */
export function zKey(i: number): string {
  let s = '';
  let n = i;
  for (let k = 0; k < 3; k++) {
    s = DIGITS62[n % 62]! + s;
    n = Math.floor(n / 62);
  }
  return `c${s}`;
}

/** Put one record field by field with the datatypes the web's change would give it. */
function putRecord(h: Handle, bucket: string, id: string, record: Record<string, unknown>): void {
  const obj = h.putObject(bucket, id, {});
  for (const [k, v] of Object.entries(record)) {
    if (v === undefined || k === 'id') continue;
    if (typeof v === 'string') {
      if (TEXT_FIELDS.has(k)) h.putObject(obj, k, v);
      else h.put(obj, k, v, 'str');
    } else if (typeof v === 'number') h.put(obj, k, v, Number.isInteger(v) ? 'int' : 'f64');
    else if (typeof v === 'boolean') h.put(obj, k, v, 'boolean');
    else if (v === null) h.put(obj, k, null, 'null');
    else if (v instanceof Uint8Array) h.put(obj, k, v, 'bytes');
    else throw new Error(`${id}.${k}: no stored form for ${typeof v}`);
  }
}

export function buildEditorBoard(
  mix: Record<MixKind, number> = EDITOR_BOARD_MIX,
  area = { width: 20_000, height: 15_000 },
  seed = 13_013,
): EditorBoard {
  const t0 = performance.now();
  const rnd = seeded(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const between = (a: number, b: number): number => a + rnd() * (b - a);
  const int = (a: number, b: number): number => a + Math.floor(rnd() * (b - a + 1));
  // pointer positions: fractional world coordinates, as tools write them
  const coord = (max: number): number => Math.round(rnd() * max * 100) / 100;
  const words = (min: number, max: number): string => {
    const n = int(min, max);
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(i > 0 && rnd() < 0.08 ? `\n${pick(WORDS)}` : pick(WORDS));
    return out.join(' ');
  };
  const hex = (): string =>
    Array.from({ length: 4 }, () =>
      Math.floor(rnd() * 2 ** 32)
        .toString(16)
        .padStart(8, '0'),
    ).join('');

  // kinds in a shuffled order: a board fills up with everything at once, not kind by kind
  const order: MixKind[] = [];
  for (const [kind, n] of Object.entries(mix) as Array<[MixKind, number]>) for (let i = 0; i < n; i++) order.push(kind);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }

  let h: Handle = newHandle();
  h.applyChanges([genesisChange()]);
  const layout = layoutOf(h);
  if (!layout) throw new Error('genesis has no bucket layout');
  const bucketId = new Map<string, string>();
  for (const [objId, name] of layout.bucketIds) bucketId.set(name, objId);

  const counts = Object.fromEntries(Object.keys(mix).map((k) => [k, 0])) as Record<MixKind, number>;
  const shapesSoFar: Array<{ id: string; x: number; y: number; w: number; h: number }> = [];
  const changes: BigBoard['changes'] = [];
  let points = 0;
  let textChars = 0;
  let time = 1_700_000_000;
  for (let i = 0; i < order.length; i++) {
    if (i % OBJECTS_PER_ACTOR === 0) {
      const next = h.fork(hex());
      h.free();
      h = next;
    }
    const kind = order[i]!;
    const id = `${kind[0]}${i.toString(36)}${Math.floor(rnd() * 2 ** 32).toString(36)}`;
    const base = { kind, creator: 100 + Math.floor(i / OBJECTS_PER_ACTOR), z: zKey(i) };
    let record: Record<string, unknown>;
    switch (kind) {
      case 'pen': {
        const n = int(20, 80);
        points += n;
        record = {
          ...base,
          x: coord(area.width),
          y: coord(area.height),
          strokeColor: pick(PALETTE),
          strokeWidth: pick([2, 3, 3, 5]),
          // relative to the shape's x, y as the pen tool writes them (SPEC D3)
          points: packPoints(strokePoints(n, 0, 0, rnd)),
        };
        break;
      }
      case 'shape': {
        const w = Math.round(between(40, 400));
        const hh = Math.round(between(40, 300));
        const fill = pick(FILLS);
        const label = rnd() < 0.2 ? words(1, 4) : undefined;
        if (label) textChars += label.length;
        record = {
          ...base,
          x: coord(area.width),
          y: coord(area.height),
          shapeType: pick(SHAPE_TYPES),
          w,
          h: hh,
          strokeColor: pick(PALETTE),
          strokeWidth: pick([2, 3, 4]),
          fillColor: fill === 'none' ? null : pick(PALETTE),
          fill,
          text: label,
        };
        shapesSoFar.push({ id, x: record.x as number, y: record.y as number, w, h: hh });
        break;
      }
      case 'sticky': {
        const text = words(2, 12);
        textChars += text.length;
        const side = pick([160, 200, 200, 240]);
        record = {
          ...base,
          x: coord(area.width),
          y: coord(area.height),
          w: side,
          h: side,
          text,
          color: pick(STICKY_COLOURS),
        };
        break;
      }
      case 'text': {
        const text = words(1, 24);
        textChars += text.length;
        record = {
          ...base,
          x: coord(area.width),
          y: coord(area.height),
          text,
          font: 'Open Sans',
          fontSize: pick([14, 16, 16, 20, 24, 32, 48]),
          color: pick(PALETTE),
          w: Math.round(between(120, 600)),
        };
        break;
      }
      case 'line': {
        points += 2;
        record = {
          ...base,
          x: coord(area.width),
          y: coord(area.height),
          strokeColor: pick(PALETTE),
          strokeWidth: pick([2, 3]),
          points: packPoints([0, 0, Math.round(between(-500, 500)), Math.round(between(-400, 400))]),
          arrowEnd: rnd() < 0.4,
        };
        break;
      }
      case 'connector': {
        // between two shapes already on the board (centre to centre), else a free connector
        const a = shapesSoFar.length >= 2 ? pick(shapesSoFar) : null;
        let b = a ? pick(shapesSoFar) : null;
        if (a && b === a) b = null;
        const ax = a ? a.x + a.w / 2 : coord(area.width);
        const ay = a ? a.y + a.h / 2 : coord(area.height);
        const bx = b ? b.x + b.w / 2 : ax + between(-600, 600);
        const by = b ? b.y + b.h / 2 : ay + between(-400, 400);
        points += 2;
        record = {
          ...base,
          x: ax,
          y: ay,
          strokeColor: pick(PALETTE),
          strokeWidth: 2,
          points: packPoints([0, 0, bx - ax, by - ay]),
          fromId: a?.id ?? null,
          toId: b?.id ?? null,
          fromAnchor: a ? 'center' : undefined,
          toAnchor: b ? 'center' : undefined,
          arrowEnd: true,
          elbow: rnd() < 0.3,
        };
        break;
      }
    }
    const problem = validateShapeRecord(record);
    if (problem) throw new Error(`seed record ${id} is invalid: ${problem}`);
    putRecord(h, bucketId.get(bucketOf(id))!, id, record);
    counts[kind]++;
    time += 1 + Math.floor(rnd() * 4);
    const hash = h.commit(null, time);
    const bytes = h.getLastLocalChange();
    if (!hash || !bytes) throw new Error('commit produced no change');
    changes.push({ hash, bytes });
  }
  // stored as eviction leaves a board: one snapshot of the whole document, no journal tail
  const board: BigBoard = {
    strokes: order.length,
    points,
    changes,
    prefix: h.fork(),
    full: h,
    tail: 0,
    buildMs: Math.round(performance.now() - t0),
  };
  return { board, counts, objects: order.length, points, textChars, area };
}
