/**
 * @jest-environment node
 */
/// <reference types="jest" />
/// <reference types="node" />
import { gzipSync } from 'node:zlib';
import { encodeRenderSnapshot, MSG, type RenderRecord } from '@wb/proto';
import { previewShape } from './boardDoc';
import { renderRecords, startRenderDecoding } from './renderFrame';

const records = (n: number): RenderRecord[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `s${i}`,
    kind: 'shape',
    shapeType: 'rectangle',
    x: i,
    y: 0,
    w: 10,
    h: 10,
    z: 'a0',
    creator: 1,
  }));

function frame(rs: RenderRecord[]): Uint8Array {
  const body = gzipSync(encodeRenderSnapshot(rs));
  const out = new Uint8Array(1 + body.length);
  out[0] = MSG.RENDER;
  out.set(body, 1);
  return out;
}

test('a frame decoded as it arrives is not decoded again when the client takes it', async () => {
  const f = frame(records(3));
  startRenderDecoding(f);
  const first = renderRecords(f.subarray(1));
  expect(renderRecords(f.subarray(1))).toBe(first); // the same work
  await expect(first).resolves.toEqual(records(3));
});

test('another payload is decoded on its own, even in the same buffer', async () => {
  const a = frame(records(1));
  const b = frame(records(2));
  const both = new Uint8Array(a.length + b.length);
  both.set(a);
  both.set(b, a.length);
  const ra = renderRecords(both.subarray(1, a.length));
  const rb = renderRecords(both.subarray(a.length + 1));
  expect(rb).not.toBe(ra);
  await expect(ra).resolves.toHaveLength(1);
  await expect(rb).resolves.toHaveLength(2);
});

test('a malformed payload rejects (the client ignores the preview; the DOC follows)', async () => {
  await expect(renderRecords(new Uint8Array([1, 2, 3]))).rejects.toThrow();
});

test('previewShape uses a readable record as it is and refuses one it cannot paint', () => {
  const [r] = records(1);
  expect(previewShape(r!)).toBe(r);
  expect(previewShape({ ...r!, kind: 'hologram' })).toBeNull();
  expect(previewShape({ ...r!, x: 'left' })).toBeNull();
  expect(previewShape({ ...r!, z: undefined })).toBeNull();
});
