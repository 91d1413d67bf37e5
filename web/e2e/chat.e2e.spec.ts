/// <reference types="jest" />
/// <reference types="node" />
/**
 * The board chat end to end in Debian's Chromium (issue 16, SPEC C*): two people on one board
 * (boardStack's twoOnNewBoard). Ada opens the chat and sends a message with a link and markup;
 * Bob sees the unread badge, opens the chat, sees the link as a new-tab anchor and the markup as
 * text, answers; Ada sees the answer; Bob reloads and the history is still there; Ada deletes
 * her message and it goes from Bob's panel. Screenshots: desktop (light and dark) and 390 px dark.
 */
import type { Page } from 'playwright-core';
import { join } from 'node:path';
import { e2eReady, SHOTS } from './chromium';
import { live, startBoardStack, twoOnNewBoard, type BoardStack } from './boardStack';

const maybe = e2eReady ? describe : describe.skip;

const LINK = 'https://example.com/lesson?page=2';
const FIRST = `Homework is here: ${LINK} and this is <b>not bold</b>`;
const ANSWER = 'Thanks Ada, got it!';

const panel = (p: Page) => p.locator('[data-chat-panel]');
/** a stored message (not the pending copy) whose text contains `text` */
const message = (p: Page, text: string) => panel(p).locator('.chat-msg[data-message-id]', { hasText: text });

async function send(p: Page, text: string): Promise<void> {
  const box = panel(p).locator('.chat-form textarea');
  await box.fill(text);
  await box.press('Enter'); // Enter sends (Shift+Enter would be a new line)
  await message(p, text.slice(0, 20)).waitFor();
  expect(await box.inputValue()).toBe('');
}

maybe('board chat end to end', () => {
  let stack: BoardStack;
  beforeAll(async () => {
    stack = await startBoardStack();
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  test('two people chat: unread badge, links and markup, answer, history after reload, delete', async () => {
    const { a, b } = await twoOnNewBoard(stack, 'Chat lesson');

    // Ada opens the chat: empty, then her message
    await a.locator('[data-action="chat"]').click();
    expect(await a.locator('[data-action="chat"]').getAttribute('aria-pressed')).toBe('true');
    await panel(a).getByText('No messages yet. Say hello!').waitFor();
    await send(a, FIRST);
    expect(await panel(a).locator('.chat-pending').count()).toBe(0);

    // Bob, panel closed: the unread badge counts it
    const bobButton = b.locator('[data-action="chat"]');
    await bobButton.locator('[data-unread="1"]').waitFor();
    expect(await bobButton.getAttribute('aria-label')).toBe('Chat, 1 unread');
    await bobButton.click();
    const first = message(b, 'Homework is here');
    await first.waitFor();
    expect(await bobButton.locator('[data-unread]').count()).toBe(0); // opening clears it
    expect(await first.locator('.chat-author').textContent()).toBe('Ada');
    // the link is an anchor opening a new tab without a referrer; the markup is plain text
    const anchor = first.locator('a');
    expect(await anchor.count()).toBe(1);
    expect(await anchor.getAttribute('href')).toBe(LINK);
    expect(await anchor.getAttribute('target')).toBe('_blank');
    expect(await anchor.getAttribute('rel')).toContain('noopener');
    expect(await anchor.textContent()).toBe(LINK);
    expect(await first.locator('.chat-text').textContent()).toBe(FIRST);
    expect(await panel(b).locator('b, script').count()).toBe(0);
    // Bob (not the owner) may not delete Ada's message
    expect(await first.getByRole('button', { name: 'Delete message' }).count()).toBe(0);

    // Bob answers; Ada, panel open, sees it without a badge
    await send(b, ANSWER);
    const answer = message(a, ANSWER);
    await answer.waitFor();
    expect(await answer.locator('.chat-author').textContent()).toBe('Bob');
    expect(await a.locator('[data-action="chat"] [data-unread]').count()).toBe(0);
    await a.screenshot({ path: join(SHOTS, 'chat-desktop.png') });

    // Bob reloads: the history comes back from the node (persisted), in order
    await b.reload();
    await live(b);
    await b.locator('[data-action="chat"]').click();
    await message(b, ANSWER).waitFor();
    expect(await panel(b).locator('.chat-msg[data-message-id] .chat-text').allTextContents()).toEqual([FIRST, ANSWER]);
    // his own message has a delete button, Ada's none
    expect(await message(b, ANSWER).getByRole('button', { name: 'Delete message' }).count()).toBe(1);
    expect(await message(b, 'Homework is here').getByRole('button', { name: 'Delete message' }).count()).toBe(0);

    // Ada deletes her own message: it goes on both pages
    await message(a, 'Homework is here').getByRole('button', { name: 'Delete message' }).click();
    await message(b, 'Homework is here').waitFor({ state: 'detached' });
    await message(a, 'Homework is here').waitFor({ state: 'detached' });
    expect(await panel(b).locator('.chat-msg[data-message-id]').count()).toBe(1);
    expect(await panel(b).locator('.chat-error').count()).toBe(0);
    expect(await panel(a).locator('.chat-error').count()).toBe(0);

    // dark theme, desktop (Ada) and a 390 px phone (Bob): the panel after a reload
    for (const [p, viewport, shot] of [
      [a, { width: 1100, height: 760 }, 'chat-desktop-dark.png'],
      [b, { width: 390, height: 844 }, 'chat-390-dark.png'],
    ] as const) {
      await p.evaluate(() => localStorage.setItem('wb.theme', 'dark'));
      await p.setViewportSize(viewport);
      await p.reload();
      await live(p);
      await p.locator('[data-action="chat"]').click();
      await message(p, ANSWER).waitFor();
      expect(await p.evaluate(() => document.documentElement.dataset.theme ?? '')).toBe('dark');
      // the panel stays inside the viewport (full width on a phone)
      const box = (await panel(p).boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width + 0.5);
      await p.screenshot({ path: join(SHOTS, shot) });
    }
  }, 120_000);
});
