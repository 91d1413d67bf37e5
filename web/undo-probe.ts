import { buildEditorBoard } from '../scripts/bench/editor-board';
import * as A from '@automerge/automerge';
import { bucketOf } from '../proto/src/realtime';
const eb = buildEditorBoard();
let doc = A.load<any>(eb.board.full.saveNoCompress());
const ids: string[] = [];
for (const b of Object.values(doc.shapes as Record<string, Record<string, unknown>>)) for (const id of Object.keys(b)) if (ids.length < 25) ids.push(id);
const t0 = performance.now();
for (let round = 0; round < 60; round++) {
  doc = A.change(doc, (d: any) => {
    for (const id of ids) {
      const s = d.shapes[bucketOf(id)][id];
      s.x = s.x + 1;
      s.y = s.y + 1;
    }
  });
}
console.log('per change ms', (performance.now() - t0) / 60);
