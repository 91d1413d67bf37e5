/**
 * @jest-environment node
 */
/// <reference types="jest" />
/// <reference types="node" />
import { validateShapeRecord, type ShapeRecord } from '@wb/proto';
import { fakeToolHost, loadAutomerge, pt } from '../canvas/testing/editorTesting';
import type { ToolHost } from '../canvas/tools/types';
import { EMPTY_FORMULA_EM, FormulaTool } from './formulaTool';

beforeAll(loadAutomerge);

function withSpies(host: ToolHost) {
  const tools: string[] = [];
  host.setTool = (id) => void tools.push(id);
  return tools;
}

describe('FormulaTool', () => {
  it('a click places an empty formula in the style, selects it, switches to select and opens its panel', () => {
    const { host, state, shape } = fakeToolHost([], {
      style: { formulaColor: 0x1155aa, formulaSize: 32, formulaAlignment: 'left' },
    });
    const tools = withSpies(host);
    const tool = new FormulaTool();
    tool.down(pt(100, 200), host);
    tool.up(pt(100, 200), host);
    expect(state.commits).toBe(1);
    const s = shape('new1') as ShapeRecord & { kind: 'formula' };
    expect(s).toMatchObject({
      kind: 'formula',
      latex: '',
      fontSize: 32,
      color: 0x1155aa,
      alignment: 'left',
      x: 100,
      w: EMPTY_FORMULA_EM.w * 32,
      h: EMPTY_FORMULA_EM.h * 32,
    });
    expect(s.y + s.h! / 2).toBe(200);
    expect(validateShapeRecord({ ...s, id: undefined, latex: String(s.latex) })).toBeNull();
    expect([...host.selection()]).toEqual(['new1']);
    expect(tools).toEqual(['select']);
    expect(state.opened).toEqual(['new1']);
  });

  it('falls back to the default style for values the settings do not allow', () => {
    const { host, shape } = fakeToolHost([], { style: { formulaSize: NaN, formulaAlignment: 'diagonal' } });
    const tool = new FormulaTool();
    tool.down(pt(0, 0), host);
    tool.up(pt(0, 0), host);
    expect(shape('new1')).toMatchObject({ fontSize: 20, alignment: 'equation' });
  });

  it('a click on an existing formula opens it instead of placing another', () => {
    const existing: ShapeRecord = {
      id: 'f1',
      kind: 'formula',
      creator: 1,
      z: 'a1',
      x: 0,
      y: 0,
      latex: 'x^2',
      fontSize: 20,
      color: 0,
      alignment: 'equation',
      w: 100,
      h: 40,
    };
    const { host, state } = fakeToolHost([existing]);
    const tool = new FormulaTool();
    tool.down(pt(50, 20), host);
    tool.up(pt(50, 20), host);
    expect(state.commits).toBe(0);
    expect(state.opened).toEqual(['f1']);
  });

  it('viewers place nothing', () => {
    const { host, state } = fakeToolHost([], { edit: false });
    const tool = new FormulaTool();
    tool.down(pt(0, 0), host);
    tool.up(pt(0, 0), host);
    expect(state.commits).toBe(0);
    expect(state.opened).toEqual([]);
  });
});
