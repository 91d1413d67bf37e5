/**
 * @jest-environment node
 */
/// <reference types="jest" />
/// <reference types="node" />
/** The scene's R-tree answers equal a naive scan; incremental updates keep order and index right. */
import { readFileSync } from 'node:fs';
import * as A from '@automerge/automerge/slim';
import { BUCKET_NAMES, GEOMETRIC_SHAPES, packPoints } from '@wb/proto';
import type { ShapeRecord } from '@wb/proto';
import { getShape, moveShape, putShape, removeShape, type BoardDoc } from '../realtime/boardDoc';
import { contains, intersects, type Rect } from './camera';
import { keyAbove } from './fractionalIndex';
import { hitsShape, shapeTouchesRect } from './geometry';
import { Scene, type SceneItem } from './scene';

beforeAll(async () => {
  await A.initializeWasm(readFileSync(require.resolve('@automerge/automerge/automerge.wasm')));
});

function readyDoc(): A.Doc<BoardDoc> {
  return A.change(A.init<BoardDoc>(), (d) => {
    d.schema = 1;
    const shapes: Record<string, Record<string, Record<string, unknown>>> = {};
    for (const b of BUCKET_NAMES) shapes[b] = {};
    d.shapes = shapes;
  });
}

/** deterministic pseudo-random numbers */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const KINDS = [
  'pen',
  'line',
  'polyline',
  'curve',
  'connector',
  'arc',
  'shape',
  'sticky',
  'text',
  'graph',
  'image',
] as const;

function randomShape(r: () => number, id: string, z: string, ids: string[]): ShapeRecord {
  const kind = KINDS[Math.floor(r() * KINDS.length)]!;
  const x = r() * 4000;
  const y = r() * 3000;
  const rotation = r() < 0.3 ? (r() - 0.5) * 6 : undefined;
  const common = { id, creator: 1, z, x, y, rotation, strokeWidth: 1 + Math.floor(r() * 6) };
  const pts = () => {
    const n = 2 + Math.floor(r() * 8);
    const out: number[] = [];
    let px = 0;
    let py = 0;
    for (let i = 0; i < n; i++) {
      out.push(px, py);
      px += (r() - 0.5) * 80;
      py += (r() - 0.5) * 80;
    }
    return packPoints(out);
  };
  switch (kind) {
    case 'pen':
    case 'line':
      return { ...common, kind, points: pts() } as ShapeRecord;
    case 'polyline':
    case 'curve':
      return {
        ...common,
        kind,
        points: pts(),
        closed: r() < 0.5,
        fillColor: r() < 0.5 ? 0xff0000 : null,
      } as ShapeRecord;
    case 'connector':
      return {
        ...common,
        kind,
        points: pts(),
        fromId: ids.length ? ids[Math.floor(r() * ids.length)]! : null,
        toId: null,
        elbow: r() < 0.5,
      } as ShapeRecord;
    case 'arc':
      return { ...common, kind, r: 10 + r() * 60, startAngle: r() * 3, endAngle: r() * 6 } as ShapeRecord;
    case 'shape':
      return {
        ...common,
        kind,
        shapeType: GEOMETRIC_SHAPES[Math.floor(r() * GEOMETRIC_SHAPES.length)]!,
        w: 10 + r() * 150,
        h: 10 + r() * 150,
        fillColor: r() < 0.5 ? 0x00ff00 : null,
        text: r() < 0.2 ? 'label' : undefined,
      } as ShapeRecord;
    case 'sticky':
      return { ...common, kind, w: 100 + r() * 100, h: 100 + r() * 100, text: 'note', color: 0xffee88 } as ShapeRecord;
    case 'text':
      return {
        ...common,
        kind,
        w: 50 + r() * 200,
        text: 'some text here',
        font: 'Open Sans',
        fontSize: 12 + r() * 20,
        color: 0,
      } as ShapeRecord;
    case 'graph':
      return { ...common, kind, w: 50 + r() * 200, h: 50 + r() * 200, spec: '{}' } as ShapeRecord;
    default:
      return { ...common, kind: 'image', w: 50 + r() * 200, h: 50 + r() * 200, fileId: 'img' } as ShapeRecord;
  }
}

const idsOf = (items: readonly SceneItem[]) => items.map((it) => it.shape.id);
const byZ = (a: SceneItem, b: SceneItem) =>
  a.shape.z < b.shape.z
    ? -1
    : a.shape.z > b.shape.z
      ? 1
      : a.shape.id < b.shape.id
        ? -1
        : a.shape.id > b.shape.id
          ? 1
          : 0;

function naiveOrder(scene: Scene): SceneItem[] {
  return scene
    .ids()
    .map((id) => scene.get(id)!)
    .sort(byZ);
}

function compareWithNaive(scene: Scene, r: () => number): void {
  const order = naiveOrder(scene);
  expect(idsOf(scene.order())).toEqual(idsOf(order));
  for (let i = 0; i < 300; i++) {
    const p = { x: r() * 4200 - 100, y: r() * 3200 - 100 };
    const tol = r() * 8;
    let naive: SceneItem | null = null;
    for (let k = order.length - 1; k >= 0; k--) {
      const it = order[k]!;
      if (hitsShape(it.shape, it.points, it.bounds, p, tol)) {
        naive = it;
        break;
      }
    }
    expect(scene.hitTest(p, tol)?.shape.id ?? null).toBe(naive?.shape.id ?? null);
  }
  for (let i = 0; i < 66; i++) {
    const x = r() * 4000;
    const y = r() * 3000;
    // the last few cover most of the board (answered by a scan of the z order, not the tree)
    const big = i >= 60;
    const rect: Rect = big
      ? { minX: x / 4 - 100, minY: y / 4 - 100, maxX: x / 4 + 3500, maxY: y / 4 + 2600 }
      : { minX: x, minY: y, maxX: x + r() * 1500, maxY: y + r() * 1200 };
    expect(idsOf(scene.inside(rect))).toEqual(idsOf(order.filter((it) => contains(rect, it.bounds))));
    expect(idsOf(scene.intersecting(rect))).toEqual(
      idsOf(order.filter((it) => shapeTouchesRect(it.shape, it.points, it.bounds, rect))),
    );
    expect(idsOf(scene.visible(rect))).toEqual(idsOf(order.filter((it) => intersects(it.bounds, rect))));
  }
}

describe('scene index', () => {
  it('hitTest, inside, intersecting and visible equal a naive scan over 2,000 random shapes, also after edits', () => {
    const r = rng(12345);
    let doc = readyDoc();
    const zs: string[] = [];
    let top: string | null = null;
    for (let i = 0; i < 2600; i++) zs.push((top = keyAbove(top)));
    // z keys handed out in random order: z order differs from insertion order
    for (let i = zs.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [zs[i], zs[j]] = [zs[j]!, zs[i]!];
    }
    const ids: string[] = [];
    doc = A.change(doc, (d) => {
      for (let i = 0; i < 2000; i++) {
        const id = `s${i}`;
        putShape(d, randomShape(r, id, zs[i]!, ids));
        ids.push(id);
      }
    });
    const scene = new Scene();
    scene.apply(doc, { all: true });
    expect(scene.size).toBe(2000);
    compareWithNaive(scene, r);

    // a few edits (spliced into the order), then many (re-sorted)
    for (const n of [20, 300]) {
      const touched = new Set<string>();
      doc = A.change(doc, (d) => {
        for (let i = 0; i < n; i++) {
          const id = ids[Math.floor(r() * ids.length)]!;
          touched.add(id);
          if (r() < 0.3) removeShape(d, id);
          else putShape(d, randomShape(r, id, zs[2000 + Math.floor(r() * 600)]!, ids));
        }
        for (let i = 0; i < n / 10; i++) {
          const id = `n${n}-${i}`;
          touched.add(id);
          putShape(d, randomShape(r, id, zs[Math.floor(r() * 2600)]!, ids));
        }
      });
      scene.apply(doc, { all: false, ids: touched });
      compareWithNaive(scene, r);
    }
    // moves keep their z: the new items take the old ones' places in the order
    const moved = new Set(scene.ids().slice(0, 40));
    doc = A.change(doc, (d) => {
      for (const id of moved) moveShape(d, id, 13, -7);
    });
    scene.apply(doc, { all: false, ids: moved });
    compareWithNaive(scene, r);
    expect(scene.get([...moved][0]!)!.shape.x).toBe(getShape(doc, [...moved][0]!)!.x);
    // bounds and the z extremes
    const order = naiveOrder(scene);
    expect(scene.topZ()).toBe(order.at(-1)!.shape.z);
    expect(scene.bottomZ()).toBe(order[0]!.shape.z);
    const b = scene.bounds()!;
    expect(b.minX).toBe(Math.min(...order.map((it) => it.bounds.minX)));
    expect(b.maxY).toBe(Math.max(...order.map((it) => it.bounds.maxY)));
  });

  it('connectorsOf follows connector edits; offsets, overrides and hidden change what is visible', () => {
    let doc = readyDoc();
    const box = (id: string, x: number, z: string): ShapeRecord =>
      ({ id, kind: 'shape', shapeType: 'rectangle', creator: 1, z, x, y: 0, w: 50, h: 50 }) as ShapeRecord;
    const conn = (id: string, from: string | null, to: string | null): ShapeRecord =>
      ({
        id,
        kind: 'connector',
        creator: 1,
        z: 'a5',
        x: 0,
        y: 0,
        fromId: from,
        toId: to,
        points: packPoints([25, 25, 225, 25]),
      }) as ShapeRecord;
    doc = A.change(doc, (d) => {
      putShape(d, box('a', 0, 'a1'));
      putShape(d, box('b', 200, 'a2'));
      putShape(d, conn('c', 'a', 'b'));
    });
    const scene = new Scene();
    scene.apply(doc, { all: true });
    expect(scene.connectorsOf('a')).toEqual(['c']);
    expect(scene.connectorsOf('b')).toEqual(['c']);
    expect(scene.boundShapeIds().sort()).toEqual(['a', 'b']);
    doc = A.change(doc, (d) => putShape(d, conn('c', 'b', null)));
    scene.apply(doc, { all: false, ids: new Set(['c']) });
    expect(scene.connectorsOf('a')).toEqual([]);
    expect(scene.connectorsOf('b')).toEqual(['c']);
    doc = A.change(doc, (d) => removeShape(d, 'c'));
    scene.apply(doc, { all: false, ids: new Set(['c']) });
    expect(scene.connectorsOf('b')).toEqual([]);

    const far: Rect = { minX: 1000, minY: 1000, maxX: 1100, maxY: 1100 };
    expect(scene.visible(far)).toEqual([]);
    scene.offsets.set('a', { x: 1020, y: 1020 });
    expect(idsOf(scene.visible(far))).toEqual(['a']);
    expect(scene.displaced(scene.get('a')!).minX).toBeGreaterThan(1000);
    scene.offsets.clear();
    scene.overrides.set('b', { ...scene.get('b')!.shape, x: 1030, y: 1030 });
    expect(idsOf(scene.visible(far))).toEqual(['b']);
    expect(scene.drawn(scene.get('b')!).shape.x).toBe(1030);
    expect(idsOf(scene.visible({ minX: 150, minY: 0, maxX: 300, maxY: 50 }))).toEqual([]);
    scene.overrides.clear();
    scene.hidden.add('a');
    expect(idsOf(scene.visible({ minX: -10, minY: -10, maxX: 400, maxY: 60 }))).toEqual(['b']);
  });
});

describe('renderer', () => {
  /** canvases whose 2D context records calls (Node has no canvas) */
  function fakeCanvas(calls: string[]): HTMLCanvasElement {
    const ctx = new Proxy({} as Record<string, unknown>, {
      get: (t, k) => (typeof k !== 'string' ? undefined : k in t ? t[k] : (..._a: unknown[]) => void calls.push(k)),
      set: (t, k, v) => ((t[k as string] = v), true),
    });
    const c = {
      width: 0,
      height: 0,
      style: {},
      getContext: () => ctx,
      ownerDocument: { createElement: () => fakeCanvas(calls) },
    };
    return c as unknown as HTMLCanvasElement;
  }

  it('shifts the bitmap on whole-pixel pans, repaints on zoom and scene changes, composes tiles zoomed out', async () => {
    const { CanvasRenderer } = await import('./renderer');
    const r = rng(99);
    let doc = readyDoc();
    let top: string | null = null;
    doc = A.change(doc, (d) => {
      for (let i = 0; i < 300; i++) putShape(d, randomShape(r, `r${i}`, (top = keyAbove(top)), []));
    });
    const scene = new Scene();
    scene.apply(doc, { all: true });
    const calls: string[] = [];
    const painted: boolean[] = [];
    const renderer = new CanvasRenderer(
      scene,
      fakeCanvas(calls),
      fakeCanvas(calls),
      () => undefined,
      () => 0,
      () => undefined,
    );
    renderer.onPainted((full) => painted.push(full));
    renderer.resize(800, 600, 1);
    renderer.setCamera({ x: 0, y: 0, zoom: 1 });
    renderer.draw();
    expect(renderer.stats.scenePasses).toBe(1);
    renderer.setCamera({ x: 10, y: -4, zoom: 1 });
    renderer.draw();
    expect(renderer.stats.blitPasses).toBe(1);
    // drawn at whole device pixels: a quarter pixel draws nothing new, three quarters is a blit
    renderer.setCamera({ x: 10.25, y: -4, zoom: 1 });
    renderer.draw();
    expect(renderer.stats.scenePasses).toBe(2);
    renderer.setCamera({ x: 10.75, y: -4, zoom: 1 });
    renderer.draw();
    expect(renderer.stats.blitPasses).toBe(2);
    expect(renderer.camera).toEqual({ x: 10.75, y: -4, zoom: 1 }); // the camera itself stays exact
    renderer.setCamera({ x: 10.75, y: -4, zoom: 1.5 });
    renderer.draw();
    expect(renderer.stats.blitPasses).toBe(2);
    renderer.draw(); // nothing changed: no pass
    expect(renderer.stats.scenePasses).toBe(4);
    renderer.setPaintContext({ theme: 'dark', background: 'blackboard' });
    renderer.draw();
    expect(renderer.stats.scenePasses).toBe(5);
    expect(painted).toEqual([true, false, false, true, true]);
    // zoomed out: tiles, painted once and reused; a pass over its time budget finishes in the next ones
    const settle = (): number => {
      let tiles = 0;
      for (let n = 0; n < 200; n++) {
        renderer.draw();
        tiles += renderer.stats.tilesPainted;
        if (painted.at(-1)) break;
      }
      return tiles;
    };
    renderer.setCamera({ x: 0, y: 0, zoom: 0.2 });
    const painted1 = settle();
    expect(renderer.stats.tiledPasses).toBeGreaterThan(0);
    expect(painted1).toBeGreaterThan(0);
    renderer.setCamera({ x: 0, y: 0, zoom: 0.21 }); // the same tile level, a smaller view
    expect(settle()).toBe(0);
    // a changed shape drops only the tiles under it
    doc = A.change(doc, (d) => putShape(d, randomShape(r, 'r0', 'a0', [])));
    scene.apply(doc, { all: false, ids: new Set(['r0']) });
    const repainted = settle();
    expect(repainted).toBeGreaterThan(0);
    expect(repainted).toBeLessThan(painted1);
    renderer.destroy();
  });
});
