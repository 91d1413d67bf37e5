/// <reference types="jest" />
/// <reference types="node" />
/**
 * Issue 26 #2, #5, #6 and the toolbar part of #15 in Debian's Chromium, one teacher on a new
 * board: Shift+Arrow nudges by 10 and Ctrl/⌘+Shift+Arrow by 100; a highlighter at width 20 leaves
 * the next rectangle, line and connector alone, and a reload keeps each group's style (the pen's in
 * the account's settings); the graph panel takes the focus (typing "-" does not zoom the board),
 * Escape closes it and the board menu opens above it; the shapes tooltip never covers the flyout.
 * Screenshots (1440 px, 390 px, dark) of the toolbar with its flyout, the style panel and the graph
 * panel under the open board menu go to artifacts/e2e (chrome-*.png).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { e2eReady, SHOTS } from './chromium';
import { drag, hook, live, pickTool, startBoardStack, until, type BoardStack } from './boardStack';

const maybe = e2eReady ? describe : describe.skip;

/** the newest shape of a kind */
const newest = (page: Page, kind: string) =>
  hook(
    page,
    (h, k) =>
      h
        .shapes()
        .filter((s) => s.kind === k)
        .pop() ?? null,
    kind,
  );

/** the element at the centre of a locator's box is inside it (nothing covers it) */
const uncovered = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return false;
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!top && el.contains(top);
  }, selector);

maybe('board chrome (issue 26)', () => {
  let stack: BoardStack;
  beforeAll(async () => {
    stack = await startBoardStack();
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  test('nudges, a style per tool group kept over a reload, the graph panel and the menu, tooltips', async () => {
    const { page: a } = await stack.newUser('Ada');
    await a.setViewportSize({ width: 1440, height: 900 });
    // (an empty dashboard offers it twice: in the toolbar and in the empty state)
    await a.getByRole('button', { name: 'New board' }).first().click();
    const dialog = a.getByRole('dialog', { name: 'New board' });
    await dialog.getByLabel('Board name').fill('Fractions');
    await dialog.getByRole('button', { name: 'Create board' }).click();
    await a.waitForURL(/\/boards\/[A-Za-z0-9_-]{21}$/);
    await live(a);

    // #15: the shapes button's tooltip is gone while its flyout is open, the first shape is clickable
    const flyoutButton = a.locator('.tool-flyout button[aria-haspopup]');
    await flyoutButton.hover();
    await a.locator('.tool-flyout [role="tooltip"]').waitFor();
    await flyoutButton.click();
    await a.locator('.flyout-menu').waitFor();
    await a.waitForTimeout(700);
    expect(await a.locator('.tool-flyout > .tooltip-anchor > [role="tooltip"]').count()).toBe(0);
    expect(await uncovered(a, '.flyout-menu [data-tool="rectangle"]')).toBe(true);
    // a shape's own tooltip opens above the row: it covers no other shape
    await a.locator('.flyout-menu [data-tool="ellipse"]').hover();
    const tip = a.locator('.flyout-menu [role="tooltip"]');
    await tip.waitFor();
    const tipBox = (await tip.boundingBox())!;
    for (const id of ['rectangle', 'triangle', 'star', 'arrow']) {
      const b = (await a.locator(`.flyout-menu [data-tool="${id}"]`).boundingBox())!;
      const overlaps =
        tipBox.x < b.x + b.width &&
        b.x < tipBox.x + tipBox.width &&
        tipBox.y < b.y + b.height &&
        b.y < tipBox.y + tipBox.height;
      expect([id, overlaps]).toEqual([id, false]);
    }
    await a.screenshot({ path: join(SHOTS, 'chrome-flyout-1440.png') });
    await a.keyboard.press('Escape');

    // #5: a highlighter at width 20, then a rectangle, a line and a connector
    await pickTool(a, 'pen');
    const panel = a.getByTestId('style-panel');
    await panel.getByRole('button', { name: 'Highlighter' }).click();
    await panel.getByRole('slider', { name: 'Width' }).fill('20');
    await panel.getByRole('button', { name: 'Yellow' }).click();
    await drag(a, { x: 300, y: 250 }, { x: 500, y: 300 });
    await until(a, 'the highlighter stroke', (h) => h.shapes().some((s) => s.kind === 'pen'));
    expect(await newest(a, 'pen')).toMatchObject({ strokeWidth: 20, linePattern: 'highlighter' });
    await a.screenshot({ path: join(SHOTS, 'chrome-style-panel-1440.png') });

    await pickTool(a, 'rectangle');
    await drag(a, { x: 300, y: 400 }, { x: 450, y: 500 });
    await until(a, 'the rectangle', (h) => h.shapes().some((s) => s.kind === 'shape'));
    const rect = (await newest(a, 'shape'))!;
    expect(rect.strokeWidth).toBe(3);
    expect(rect.linePattern ?? 'pen').toBe('pen');
    expect(rect.opacity ?? 1).toBe(1);
    for (const tool of ['line', 'connector']) {
      await pickTool(a, tool);
      await drag(a, { x: 600, y: tool === 'line' ? 420 : 520 }, { x: 800, y: tool === 'line' ? 440 : 560 });
      await until(a, `the ${tool}`, (h, k) => h.shapes().some((s) => s.kind === k), tool);
      const s = (await newest(a, tool))!;
      expect([tool, s.strokeWidth, s.linePattern ?? 'pen']).toEqual([tool, 3, 'pen']);
    }
    // the shapes' own width, then the pen is still the highlighter
    await pickTool(a, 'rectangle');
    await panel.getByRole('slider', { name: 'Width' }).fill('6');
    await pickTool(a, 'pen');
    expect(await hook(a, (h) => h.editor!.getState().style.strokeWidth)).toBe(20);

    // #2: nudges of the selected rectangle: 1, Shift 10, Ctrl+Shift 100, ⌘+Shift 100
    await pickTool(a, 'select');
    await a.mouse.click(375, 400);
    await a.locator('.board-surface[data-selected="1"]').waitFor();
    const pos = async () => (await hook(a, (h, id) => h.shapes().find((s) => s.id === id)!, rect.id))!;
    const start = await pos();
    const expectAt = (dx: number, dy: number) =>
      until(
        a,
        `the rectangle at +${dx},+${dy}`,
        (h, w) => h.shapes().some((s) => s.id === w.id && Math.abs(s.x - w.x) < 0.01 && Math.abs(s.y - w.y) < 0.01),
        { id: rect.id, x: start.x + dx, y: start.y + dy },
      );
    await a.keyboard.press('ArrowRight');
    await expectAt(1, 0);
    await a.keyboard.press('Shift+ArrowRight');
    await expectAt(11, 0);
    await a.keyboard.press('Control+Shift+ArrowDown');
    await expectAt(11, 100);
    await a.keyboard.press('Meta+Shift+ArrowLeft');
    await expectAt(-89, 100);
    await a.keyboard.press('Shift+ArrowUp');
    await expectAt(-89, 90);
    await a.keyboard.press('Escape');

    // the pen's style is in the account's settings; a reload keeps every group's
    await until(a, 'saved', (h) => h.state().saveState === 'saved');
    await a.waitForTimeout(1200); // the style is saved 600 ms after its last change
    const settings = await a.evaluate(async () => (await fetch('/api/user/settings')).json());
    expect(settings).toMatchObject({ toolStrokeWidth: 20, toolLinePattern: 'highlighter' });
    await a.reload();
    await live(a);
    await pickTool(a, 'pen');
    expect(await hook(a, (h) => h.editor!.getState().style)).toMatchObject({
      strokeWidth: 20,
      linePattern: 'highlighter',
    });
    await pickTool(a, 'rectangle');
    expect(await hook(a, (h) => h.editor!.getState().style)).toMatchObject({ strokeWidth: 6, linePattern: 'pen' });

    // #6: the graph panel takes the focus: "-" is typed, not a zoom; Escape closes it
    await pickTool(a, 'graph');
    await a.mouse.click(700, 300);
    const graphPanel = a.locator('.graph-panel');
    await graphPanel.waitFor();
    await until(a, 'the graph', (h) => h.shapes().some((s) => s.kind === 'graph'));
    await a.waitForFunction(() => !!document.activeElement?.closest('.graph-panel'));
    const zoom = await hook(a, (h) => h.editor!.getState().camera.zoom);
    await a.keyboard.press('-');
    await a.keyboard.press('Backspace');
    await a.locator('.graph-panel button').first().focus();
    await a.keyboard.press('-');
    expect(await hook(a, (h) => h.editor!.getState().camera.zoom)).toBe(zoom);
    await a.keyboard.press('Escape');
    await graphPanel.waitFor({ state: 'detached' });

    // the board menu opens above the graph panel
    const graph = (await newest(a, 'graph'))!;
    await hook(a, (h, id) => h.editor!.openEditor(id), graph.id);
    await graphPanel.waitFor();
    await a.locator('[data-action="board-menu"]').click();
    await a.locator('.board-menu-items').waitFor();
    await a.screenshot({ path: join(SHOTS, 'chrome-graph-menu-1440.png') });
    // the menu's own buttons (not the popover's visually hidden Dismiss buttons)
    const items = a.locator('.board-menu-items .board-menu-list button');
    for (let i = 0; i < (await items.count()); i++) {
      const inside = await items.nth(i).evaluate((el) => {
        const r = el.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        // items for phones only are not displayed here
        if (r.width === 0) return true;
        return el.contains(top) || `${top?.tagName}.${top?.className}`;
      });
      expect([await items.nth(i).textContent(), inside]).toEqual([await items.nth(i).textContent(), true]);
    }
    await a.screenshot({ path: join(SHOTS, 'chrome-graph-menu-1440.png') });

    // dark theme and 390 px: the same screens
    await a.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await a.waitForTimeout(500); // the plot is drawn again in the dark theme's ink
    await a.screenshot({ path: join(SHOTS, 'chrome-graph-menu-dark.png') });
    await a.keyboard.press('Escape');
    await a.locator('[data-action="board-menu"]').click();
    await a.keyboard.press('Escape');
    await hook(a, (h) => h.editor!.closeEditor());
    await flyoutButton.click();
    await a.locator('.flyout-menu').waitFor();
    await a.screenshot({ path: join(SHOTS, 'chrome-flyout-dark.png') });
    await a.keyboard.press('Escape');
    await pickTool(a, 'pen');
    await a.screenshot({ path: join(SHOTS, 'chrome-style-panel-dark.png') });

    await a.setViewportSize({ width: 390, height: 844 });
    await a.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    await a.waitForTimeout(300);
    await a.screenshot({ path: join(SHOTS, 'chrome-style-panel-390.png') });
    if (!(await flyoutButton.isVisible())) await a.locator('[data-action="toggleToolbar"]').click();
    await flyoutButton.click();
    await a.locator('.flyout-menu').waitFor();
    expect(await uncovered(a, '.flyout-menu [data-tool="rectangle"]')).toBe(true);
    await a.screenshot({ path: join(SHOTS, 'chrome-flyout-390.png') });
    await a.keyboard.press('Escape');
    await hook(a, (h, id) => h.editor!.openEditor(id), graph.id);
    await graphPanel.waitFor();
    await a.locator('[data-action="board-menu"]').click();
    await a.locator('.board-menu-items').waitFor();
    expect(await uncovered(a, '.board-menu-items .board-menu-list button')).toBe(true);
    await a.screenshot({ path: join(SHOTS, 'chrome-graph-menu-390.png') });
  }, 180_000);
});
