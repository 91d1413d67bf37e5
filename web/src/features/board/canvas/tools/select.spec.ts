/**
 * @jest-environment node
 */
/// <reference types="jest" />
/// <reference types="node" />
/** The select tool's gestures with a fake host over a real Automerge document and Scene. */
import { fakeToolHost, loadAutomerge, pt, rect } from '../testing/editorTesting';
import { handlePoint, resizedBox, SelectTool } from './select';
import type { ToolHost, ToolPointer } from './types';

beforeAll(loadAutomerge);

/** a full gesture: down, moves, up */
function drag(tool: SelectTool, host: ToolHost, from: ToolPointer, ...to: ToolPointer[]) {
  tool.down(from, host);
  for (const p of to) tool.move(p, host);
  tool.up(to[to.length - 1] ?? from, host);
}

describe('SelectTool', () => {
  it('click selects, drag moves in one commit (offsets while dragging); locked shapes do not move', () => {
    const { host, state, scene, shape } = fakeToolHost([rect('a', 0, 0), rect('b', 300, 0, { locked: true })]);
    const tool = new SelectTool();
    tool.down(pt(50, 25), host);
    expect([...host.selection()]).toEqual(['a']);
    tool.move(pt(90, 45, { alt: true }), host);
    expect(scene.offsets.get('a')).toEqual({ x: 40, y: 20 });
    tool.up(pt(90, 45, { alt: true }), host);
    expect(state.commits).toBe(1);
    expect(shape('a')).toMatchObject({ x: 40, y: 20 });
    expect(scene.offsets.size).toBe(0);
    // the locked one: selectable, not movable
    drag(tool, host, pt(350, 25), pt(400, 100));
    expect([...host.selection()]).toEqual(['b']);
    expect(shape('b')).toMatchObject({ x: 300, y: 0 });
    expect(state.commits).toBe(1);
    // Escape clears the selection
    expect(tool.key({ key: 'Escape', shift: false, mod: false }, host)).toBe(true);
    expect(host.selection().size).toBe(0);
  });

  it('groups select as a whole; Shift adds and removes', () => {
    const { host } = fakeToolHost([
      rect('a', 0, 0, { groupId: 'g' }),
      rect('b', 200, 0, { groupId: 'g' }),
      rect('c', 400, 0),
    ]);
    const tool = new SelectTool();
    drag(tool, host, pt(50, 25));
    expect([...host.selection()].sort()).toEqual(['a', 'b']);
    drag(tool, host, pt(450, 25, { shift: true }));
    expect([...host.selection()].sort()).toEqual(['a', 'b', 'c']);
    drag(tool, host, pt(250, 25, { shift: true }));
    expect([...host.selection()]).toEqual(['c']);
  });

  it('marquee on empty space selects what it touches (with groups)', () => {
    const { host } = fakeToolHost([
      rect('a', 0, 0),
      rect('b', 200, 0, { groupId: 'g' }),
      rect('c', 600, 0, { groupId: 'g' }),
      rect('d', 0, 300),
    ]);
    const tool = new SelectTool();
    drag(tool, host, pt(-20, -20), pt(120, 10), pt(220, 10));
    expect([...host.selection()].sort()).toEqual(['a', 'b', 'c']);
  });

  it('Shift+corner resize keeps the ratio; several shapes resize together; one commit', () => {
    const { host, state, scene, shape } = fakeToolHost([rect('a', 0, 0), rect('b', 200, 100)]);
    const tool = new SelectTool();
    host.setSelection(['a']);
    expect(tool.cursorAt(pt(100, 50), host)).toBe('nwse-resize');
    tool.down(pt(100, 50), host);
    tool.move(pt(300, 80, { shift: true }), host);
    expect(scene.overrides.get('a')).toMatchObject({ w: 300, h: 150 });
    tool.up(pt(300, 80, { shift: true }), host);
    expect(shape('a')).toMatchObject({ x: 0, y: 0, w: 300, h: 150 });
    expect(scene.overrides.size).toBe(0);
    expect(state.commits).toBe(1);

    // both: frame (0,0)-(300,150) ∪ (200,100)-(300,150) → drag the east edge to x = 600
    host.setSelection(['a', 'b']);
    const e = handlePoint(tool.frame(host)!, 'e', 1);
    drag(tool, host, pt(e.x, e.y), pt(600, e.y));
    expect(shape('a')).toMatchObject({ x: 0, w: 600, h: 150 });
    expect(shape('b')).toMatchObject({ x: 400, y: 100, w: 200, h: 50 });
    expect(state.commits).toBe(2);
  });

  it('rotate handle turns about the selection centre; Shift snaps to 15°', () => {
    const { host, shape } = fakeToolHost([rect('a', 0, 0)]);
    const tool = new SelectTool();
    host.setSelection(['a']);
    const r = handlePoint(tool.frame(host)!, 'rotate', 1);
    expect(r).toEqual({ x: 50, y: -24 });
    expect(tool.cursorAt(r, host)).toBe('grab');
    drag(tool, host, pt(r.x, r.y), pt(150, 31, { shift: true }));
    const s = shape('a')!;
    expect(s.rotation).toBeCloseTo(Math.PI / 2);
    // the centre stays
    expect(s.x + 50).toBeCloseTo(50);
    expect(s.y + 25).toBeCloseTo(25);
    // a turned shape resizes along its own axes: its frame's east handle is now at the bottom
    const e = handlePoint(tool.frame(host)!, 'e', 1);
    expect(e.x).toBeCloseTo(50);
    expect(e.y).toBeCloseTo(75);
    drag(tool, host, pt(e.x, e.y), pt(e.x, e.y + 40));
    expect(shape('a')).toMatchObject({ w: 140, h: 50 });
    expect(shape('a')!.rotation).toBeCloseTo(Math.PI / 2);
  });

  it('moving snaps to other shapes with guides (Alt disables)', () => {
    const { host, shape } = fakeToolHost([rect('a', 0, 0), rect('b', 300, 200)]);
    const tool = new SelectTool();
    // a's left edge to 297 → snaps to b's left edge 300
    tool.down(pt(50, 25), host);
    tool.move(pt(347, 25), host);
    const g: string[] = [];
    const ctx = new Proxy(
      {},
      {
        get: (_t, k) => (k === 'moveTo' ? (x: number, y: number) => g.push(`${x},${y}`) : () => undefined),
        set: () => true,
      },
    );
    tool.drawOverlay(ctx as unknown as CanvasRenderingContext2D, host);
    expect(g).toContain('300,0');
    tool.up(pt(347, 25), host);
    expect(shape('a')).toMatchObject({ x: 300, y: 0 });
    drag(tool, host, pt(350, 25), pt(353, 25, { alt: true }));
    expect(shape('a')).toMatchObject({ x: 303 });
  });

  it('double-click edits text; viewers select but never commit', () => {
    const { host, state } = fakeToolHost([rect('a', 0, 0)]);
    const tool = new SelectTool();
    drag(tool, host, pt(50, 25, { clicks: 2 }));
    expect(state.edited).toEqual(['a']);
    const viewer = fakeToolHost([rect('a', 0, 0)], { edit: false });
    drag(tool, viewer.host, pt(50, 25), pt(150, 125));
    expect([...viewer.host.selection()]).toEqual(['a']);
    expect(viewer.state.commits).toBe(0);
    expect(tool.cursorAt(pt(100, 50), viewer.host)).toBeNull();
  });

  it('resizedBox clamps and anchors the opposite side', () => {
    const b = { minX: 0, minY: 0, maxX: 100, maxY: 50 };
    expect(resizedBox(b, 'w', { x: 150, y: 0 }, false)).toEqual({ minX: 99, minY: 0, maxX: 100, maxY: 50 });
    expect(resizedBox(b, 'nw', { x: -100, y: -10 }, true)).toEqual({ minX: -100, minY: -50, maxX: 100, maxY: 50 });
    expect(resizedBox(b, 's', { x: 0, y: 100 }, true)).toEqual({ minX: -50, minY: 0, maxX: 150, maxY: 100 });
  });
});
