/// <reference types="jest" />
/// <reference types="node" />
/**
 * The board editor end to end (issue 13) in Debian's Chromium, two people on one board through
 * two realtime nodes: every tool creates its object from the toolbar (data-tool) and the other
 * person sees it; moving a shape drags its bound connector on both screens; undo removes only my
 * object on both screens and redo brings it back; the eraser; a viewer cannot edit; a reload
 * keeps everything. Screenshots (desktop, dark, 390 px) go to artifacts/e2e.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { e2eReady, SHOTS } from './chromium';
import {
  drag,
  hook,
  live,
  pickTool,
  startBoardStack,
  twoOnNewBoard,
  until,
  updateBoard,
  type BoardStack,
} from './boardStack';

const maybe = e2eReady ? describe : describe.skip;

/** the drawing area left free by the toolbar and panels at 1100 × 760: 4 × 3 cells */
function cell(i: number): { x: number; y: number } {
  return { x: 300 + (i % 4) * 160, y: 200 + Math.floor(i / 4) * 150 };
}

/** pick a tool from the toolbar (the geometric shapes sit behind the flyout) */
const count = (page: Page) => hook(page, (h) => h.shapes().length);

maybe('board editor end to end', () => {
  let stack: BoardStack;
  beforeAll(async () => {
    stack = await startBoardStack();
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  test('two people: every tool, bound connector, undo/redo of my own changes, eraser, viewer, reload', async () => {
    const { ada, a, b, boardId } = await twoOnNewBoard(stack, 'Geometry lesson');

    /** a new shape of `kind` on both screens; returns it as Bob sees it */
    const seen = new Set<string>();
    const created = async (kind: string, before: number) => {
      await until(a, `Ada’s ${kind}`, (h, n) => h.shapes().length === n + 1, before);
      const shape = (await hook(a, (h) => h.shapes())).find(
        (s) => s.kind === kind && s.creator === ada.id && !seen.has(s.id),
      );
      expect(shape).toBeTruthy();
      seen.add(shape!.id);
      await until(b, `Bob sees the ${kind}`, (h, id) => h.shapes().some((s) => s.id === id), shape!.id);
      return (await hook(b, (h, id) => h.shapes().find((s) => s.id === id)!, shape!.id))!;
    };

    // drag tools: pen, line and the seven shapes, each in its own cell
    const dragged: Record<string, { id: string } & Record<string, unknown>> = {};
    const dragTools = ['pen', 'line', 'rectangle', 'ellipse', 'triangle', 'diamond', 'star', 'hexagon', 'arrow'];
    for (const [i, tool] of dragTools.entries()) {
      const c = cell(i);
      const before = await count(a);
      await pickTool(a, tool);
      await drag(a, { x: c.x - 50, y: c.y - 40 }, { x: c.x + 50, y: c.y + 40 });
      const kind = tool === 'pen' || tool === 'line' ? tool : 'shape';
      const shape = await created(kind, before);
      if (kind === 'shape') expect(shape.shapeType).toBe(tool);
      expect(shape.creator).toBe(ada.id);
      dragged[tool] = shape;
    }

    // sticky: typing starts at once; text: click, type, Escape commits
    let c = cell(9);
    let before = await count(a);
    await pickTool(a, 'sticky');
    await a.mouse.click(c.x, c.y);
    await a.keyboard.type('Hello class');
    await a.keyboard.press('Escape');
    await until(b, 'the sticky’s text', (h) => h.shapes().some((s) => s.kind === 'sticky' && s.text === 'Hello class'));
    expect(await count(a)).toBe(before + 1);

    c = cell(10);
    before = await count(a);
    await pickTool(a, 'text');
    await a.mouse.click(c.x - 60, c.y - 20);
    await a.keyboard.type('a² + b² = c²');
    await a.keyboard.press('Escape');
    await until(b, 'the text box', (h) => h.shapes().some((s) => s.kind === 'text' && s.text === 'a² + b² = c²'));
    expect(await count(a)).toBe(before + 1);

    // polyline (Enter ends) and curve (double-click ends), below the cells
    before = await count(a);
    await pickTool(a, 'polyline');
    for (const [x, y] of [
      [300, 640],
      [380, 600],
      [460, 650],
    ])
      await a.mouse.click(x!, y!);
    await a.keyboard.press('Enter');
    await created('polyline', before);
    before = await count(a);
    await pickTool(a, 'curve');
    await a.mouse.click(560, 640);
    await a.mouse.click(640, 600);
    await a.mouse.dblclick(720, 650);
    await created('curve', before);

    // a connector from the rectangle's left edge to the ellipse's left edge: bound at both ends
    const rect = dragged.rectangle!;
    const ellipse = dragged.ellipse!;
    const rc = cell(2);
    const ec = cell(3);
    before = await count(a);
    await pickTool(a, 'connector');
    await drag(a, { x: rc.x - 50, y: rc.y + 10 }, { x: ec.x - 50, y: ec.y + 10 });
    const connector = await created('connector', before);
    expect(connector).toMatchObject({ fromId: rect.id, toId: ellipse.id });

    // moving the rectangle (select, drag its top edge) drags the connector's end on both screens
    await pickTool(a, 'select');
    await a.mouse.click(rc.x - 25, rc.y - 40);
    await a.locator('.board-surface[data-selected="1"]').waitFor();
    await drag(a, { x: rc.x - 25, y: rc.y - 40 }, { x: rc.x - 25, y: rc.y + 60 });
    await until(
      b,
      'the rectangle moved',
      (h, r) => h.shapes().some((s) => s.id === r.id && Math.abs(s.y - ((r.y as number) + 100)) < 2),
      rect,
    );
    for (const page of [a, b])
      await until(
        page,
        'the bound connector followed',
        (h, k) => {
          const s = h.shapes().find((x) => x.id === k.id);
          return !!s && s.fromId === k.fromId && Math.abs(s.y - (k.y as number)) > 20;
        },
        connector,
      );
    await a.screenshot({ path: join(SHOTS, 'editor-every-kind.png') });

    // undo removes only my object on both screens, even after Bob drew; redo brings it back
    const bobBefore = await count(b);
    await b.keyboard.press('r');
    await drag(b, { x: 90, y: 560 }, { x: 170, y: 620 });
    await until(a, 'Bob’s rectangle', (h, n) => h.shapes().length === n + 1, bobBefore);
    await pickTool(a, 'ellipse');
    await drag(a, { x: 90, y: 640 }, { x: 170, y: 700 });
    const mine = await created('shape', bobBefore + 1);
    await a.keyboard.press('Control+z');
    for (const page of [a, b])
      await until(page, 'my ellipse undone', (h, id) => !h.shapes().some((s) => s.id === id), mine.id);
    expect(await count(b)).toBe(bobBefore + 1); // Bob's rectangle stays
    await a.keyboard.press('Control+Shift+z');
    for (const page of [a, b])
      await until(page, 'my ellipse redone', (h, id) => h.shapes().some((s) => s.id === id), mine.id);

    // the eraser removes what it touches (the pen stroke)
    const pen = dragged.pen!;
    const pc = cell(0);
    await pickTool(a, 'eraser');
    await drag(a, { x: pc.x - 60, y: pc.y }, { x: pc.x + 60, y: pc.y });
    for (const page of [a, b])
      await until(page, 'the stroke erased', (h, id) => !h.shapes().some((s) => s.id === id), pen.id);

    // everything is saved and still there after a reload
    await until(a, 'saved', (h) => h.state().saveState === 'saved' && h.state().pending === 0);
    const total = await count(a);
    await a.reload();
    await live(a);
    expect(await count(a)).toBe(total);

    // dark theme and a phone: ink stays readable, the toolbar collapses
    await a.evaluate(() => localStorage.setItem('wb.theme', 'dark'));
    await a.reload();
    await live(a);
    await a.waitForTimeout(300);
    await a.screenshot({ path: join(SHOTS, 'editor-dark.png') });
    await a.evaluate(() => localStorage.removeItem('wb.theme'));
    await a.setViewportSize({ width: 390, height: 800 });
    await a.waitForTimeout(300);
    await a.screenshot({ path: join(SHOTS, 'editor-phone.png') });
    await a.setViewportSize({ width: 1100, height: 760 });

    // a viewer: editing tools disabled, and drawing by shortcut changes nothing
    expect(await updateBoard(a, boardId, { defaultPermission: 'view' })).toBe(200);
    await until(b, 'Bob is a viewer', (h) => h.state().status === 'live' && h.state().welcome?.role === 'viewer');
    expect(await b.locator('.board-toolbar [data-tool="pen"]').isDisabled()).toBe(true);
    expect(await b.locator('.board-toolbar [data-tool="select"]').isDisabled()).toBe(false);
    const onBoard = await count(b);
    await b.keyboard.press('r');
    await drag(b, { x: 90, y: 420 }, { x: 170, y: 480 });
    await b.keyboard.press('Delete');
    await b.waitForTimeout(300);
    expect(await count(b)).toBe(onBoard);
    expect(await hook(b, (h) => h.state().pending)).toBe(0);
  }, 150_000);
});
