/**
 * @jest-environment node
 */
/// <reference types="jest" />
/// <reference types="node" />
import { validateShapeRecord, type GraphShape, type ShapeRecord } from '@wb/proto';
import { fakeToolHost, loadAutomerge, pt } from '../canvas/testing/editorTesting';
import type { ToolHost } from '../canvas/tools/types';
import { DEFAULT_GRAPH_SPEC, parseGraphSpec } from './graphSpec';
import { DEFAULT_GRAPH_SIZE, GraphTool, MIN_GRAPH_SIZE } from './graphTool';

beforeAll(loadAutomerge);

function withSpies(host: ToolHost) {
  const tools: string[] = [];
  host.setTool = (id) => void tools.push(id);
  return tools;
}

describe('GraphTool', () => {
  it('a click places a 480 × 320 graph of the default spec centred there, selects it and opens its panel', () => {
    const { host, state, shape } = fakeToolHost();
    const tools = withSpies(host);
    const tool = new GraphTool();
    tool.down(pt(100, 200), host);
    tool.up(pt(100, 200), host);
    expect(state.commits).toBe(1);
    const s = shape('new1') as GraphShape;
    expect(s).toMatchObject({ kind: 'graph', x: 100 - 240, y: 200 - 160, ...DEFAULT_GRAPH_SIZE });
    expect(parseGraphSpec(String(s.spec))).toEqual({ spec: DEFAULT_GRAPH_SPEC, problem: null });
    expect(validateShapeRecord({ ...s, id: undefined, spec: String(s.spec) })).toBeNull();
    expect([...host.selection()]).toEqual(['new1']);
    expect(tools).toEqual(['select']);
    expect(state.opened).toEqual(['new1']);
  });

  it('a drag places a graph in the dragged box; a tiny one grows to the minimum', () => {
    const { host, shape } = fakeToolHost();
    const tool = new GraphTool();
    tool.down(pt(10, 20), host);
    tool.move(pt(300, 220), host);
    tool.up(pt(300, 220), host);
    expect(shape('new1')).toMatchObject({ x: 10, y: 20, w: 290, h: 200 });
    tool.down(pt(500, 500), host);
    tool.move(pt(490, 495), host);
    tool.up(pt(490, 495), host);
    // dragged up-left: the box grows away from the start point
    expect(shape('new2')).toMatchObject({ x: 500 - MIN_GRAPH_SIZE.w, y: 500 - MIN_GRAPH_SIZE.h, ...MIN_GRAPH_SIZE });
  });

  it('a click on an existing graph opens it instead of placing another', () => {
    const existing: ShapeRecord = {
      id: 'g1',
      kind: 'graph',
      creator: 1,
      z: 'a1',
      x: 0,
      y: 0,
      w: 480,
      h: 320,
      spec: JSON.stringify(DEFAULT_GRAPH_SPEC),
    };
    const { host, state } = fakeToolHost([existing]);
    const tools = withSpies(host);
    const tool = new GraphTool();
    tool.down(pt(100, 100), host);
    tool.up(pt(100, 100), host);
    expect(state.commits).toBe(0);
    expect(state.opened).toEqual(['g1']);
    expect([...host.selection()]).toEqual(['g1']);
    expect(tools).toEqual(['select']);
  });

  it('places nothing for a viewer, and nothing after cancel', () => {
    const viewer = fakeToolHost([], { edit: false });
    const tool = new GraphTool();
    tool.down(pt(0, 0), viewer.host);
    tool.up(pt(0, 0), viewer.host);
    expect(viewer.state.commits).toBe(0);
    const { host, state } = fakeToolHost();
    tool.down(pt(0, 0), host);
    tool.cancel(host);
    tool.up(pt(0, 0), host);
    expect(state.commits).toBe(0);
    expect(state.opened).toEqual([]);
  });
});
