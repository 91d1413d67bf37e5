/**
 * @jest-environment node
 */
/// <reference types="jest" />
/// <reference types="node" />
/** The connector tool and bound ends following moves, with a fake host over a real document and Scene. */
import { unpackPoints } from '@wb/proto';
import type { ConnectorShape, ShapeRecord } from '@wb/proto';
import { fakeToolHost, loadAutomerge, pt, rect } from '../testing/editorTesting';
import { ConnectorTool } from './connector';
import { SelectTool } from './select';

beforeAll(loadAutomerge);

/** world end points of a connector */
function ends(c: ShapeRecord | null): number[] {
  const k = c as ConnectorShape;
  return Array.from(unpackPoints(k.points)).map((v, i) => v + (i % 2 ? k.y : k.x));
}

describe('ConnectorTool', () => {
  it('binds shape to shape with auto anchors and the style; one commit; ends follow a move', () => {
    const { host, state, shape } = fakeToolHost([rect('a', 0, 0), rect('b', 300, 0)]);
    const tool = new ConnectorTool();
    tool.hover(pt(350, 25), host);
    expect(tool.target).toBe('b');
    tool.down(pt(50, 25), host);
    tool.move(pt(200, 25), host);
    expect(tool.target).toBeNull();
    tool.move(pt(340, 30), host);
    expect(tool.target).toBe('b');
    tool.up(pt(340, 30), host);
    expect(state.commits).toBe(1);
    const c = shape('new1') as ConnectorShape;
    expect(c).toMatchObject({
      kind: 'connector',
      creator: 1,
      fromId: 'a',
      toId: 'b',
      fromAnchor: 'auto',
      toAnchor: 'auto',
      strokeColor: 0x123456,
      strokeWidth: 3,
      linePattern: 'pen',
      arrowEnd: true,
    });
    expect(ends(c)).toEqual([100, 25, 300, 25]);

    // moving b with the select tool: the bound end follows in the same commit
    const select = new SelectTool();
    select.down(pt(350, 25), host);
    select.move(pt(350, 225, { alt: true }), host);
    select.up(pt(350, 225, { alt: true }), host);
    expect(state.commits).toBe(2);
    const moved = ends(shape('new1'));
    expect(moved[2]).toBeCloseTo(300 + 50 / 4, 0);
    expect(moved[3]).toBeCloseTo(200, 0);
  });

  it('free ends in empty space; a click makes nothing; viewers draw nothing', () => {
    const { host, state, shape } = fakeToolHost([rect('a', 0, 0)]);
    const tool = new ConnectorTool();
    tool.down(pt(50, 25), host);
    tool.up(pt(50, 26), host);
    expect(state.commits).toBe(0);
    tool.down(pt(50, 25), host);
    tool.move(pt(50, 300), host);
    tool.up(pt(50, 300), host);
    const c = shape('new2') as ConnectorShape;
    expect(c).toMatchObject({ fromId: 'a', toId: null });
    expect(ends(c)).toEqual([50, 50, 50, 300]);
    tool.down(pt(500, 500), host);
    tool.up(pt(600, 500), host);
    expect(shape('new3')).toMatchObject({ fromId: null, toId: null });
    const viewer = fakeToolHost([], { edit: false });
    tool.down(pt(0, 0), viewer.host);
    tool.up(pt(100, 0), viewer.host);
    expect(viewer.state.commits).toBe(0);
  });
});
