/// <reference types="jest" />
/**
 * The chat panel against a fake board client: links become anchors (http/https only, new tab,
 * no referrer), markup stays text, the unread count, Enter sends / Shift+Enter does not, delete
 * buttons follow C6, history on each connection and "load earlier".
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { z } from 'zod';
import { decodeJson, encodeJsonFrame, MSG, splitFrame } from '@wb/proto';
import type { ChatMessage, RtError, Welcome } from '@wb/proto';
import { i18n, loadNamespace } from '../../../i18n/i18n';
import { ChatButton } from './ChatButton';
import { ChatModel, type ChatTransport } from './chatModel';
import { ChatPanel } from './ChatPanel';

class FakeClient implements ChatTransport {
  sent: { type: number; body: unknown }[] = [];
  private frames = new Set<(f: { type: number; payload: Uint8Array }) => void>();
  private snaps = new Set<(s: { welcome: Welcome | null }) => void>();
  private errs = new Set<(e: RtError) => void>();
  snapshot: { welcome: Welcome | null } = { welcome: null };
  onFrame(fn: (f: { type: number; payload: Uint8Array }) => void) {
    this.frames.add(fn);
    return () => this.frames.delete(fn);
  }
  onError(fn: (e: RtError) => void) {
    this.errs.add(fn);
    return () => this.errs.delete(fn);
  }
  subscribe(fn: (s: { welcome: Welcome | null }) => void) {
    this.snaps.add(fn);
    return () => this.snaps.delete(fn);
  }
  getSnapshot() {
    return this.snapshot;
  }
  sendFrame(frame: Uint8Array) {
    const { type, payload } = splitFrame(frame);
    this.sent.push({ type, body: decodeJson(payload, z.unknown()) });
    return true;
  }
  connect() {
    this.snapshot = { welcome: { peerId: 1 } as Welcome };
    for (const fn of this.snaps) fn(this.snapshot);
  }
  server(type: number, body: unknown) {
    const { payload } = splitFrame(encodeJsonFrame(type as never, body));
    act(() => {
      for (const fn of this.frames) fn({ type, payload });
    });
  }
  error(e: RtError) {
    act(() => {
      for (const fn of this.errs) fn(e);
    });
  }
}

let nextId = 1;
const msg = (text: string, authorId = 2, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  id: nextId++,
  authorId,
  authorName: authorId === 0 ? 'Gina' : `User ${authorId}`,
  guest: authorId === 0,
  text,
  createdAt: '2025-03-01T10:00:00.000Z',
  ...extra,
});

beforeAll(async () => {
  await loadNamespace('board', 'en');
});

function setup(opts: { userId?: number; owner?: boolean; guest?: boolean } = {}) {
  const client = new FakeClient();
  const model = new ChatModel(client);
  model.attach();
  client.connect();
  model.setOpen(true);
  render(
    <I18nextProvider i18n={i18n}>
      <ChatPanel
        model={model}
        userId={opts.userId ?? 7}
        guest={opts.guest ?? false}
        owner={opts.owner ?? false}
        onClose={() => model.setOpen(false)}
      />
    </I18nextProvider>,
  );
  return { client, model };
}

describe('chat panel', () => {
  it('asks for history on connection and renders links as anchors, markup as text', () => {
    const { client } = setup();
    expect(client.sent[0]).toEqual({ type: MSG.CHAT_HISTORY, body: {} });
    client.server(MSG.CHAT_HISTORY_S, {
      messages: [
        msg('see https://example.com/a?b=1. and javascript:alert(1) or ftp://x.y'),
        msg('<script>alert("x")</script><b>bold</b>'),
      ],
      more: false,
    });
    const link = screen.getByRole('link', { name: 'https://example.com/a?b=1' });
    expect(link.getAttribute('href')).toBe('https://example.com/a?b=1');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.getAllByRole('link')).toHaveLength(1); // javascript: and ftp: stay text
    expect(screen.getByText('<script>alert("x")</script><b>bold</b>')).toBeTruthy();
    expect(document.querySelector('.chat-panel script, .chat-panel b')).toBeNull();
  });

  it('Enter sends (trimmed), Shift+Enter does not; the echo replaces the pending message', () => {
    const { client } = setup();
    const box = screen.getByRole('textbox');
    fireEvent.change(box, { target: { value: '  hello\nthere ' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(client.sent.filter((s) => s.type === MSG.CHAT_SEND)).toHaveLength(0);
    fireEvent.keyDown(box, { key: 'Enter' });
    const send = client.sent.find((s) => s.type === MSG.CHAT_SEND)!.body as { text: string; clientId: string };
    expect(send.text).toBe('hello\nthere');
    expect(document.querySelectorAll('.chat-pending')).toHaveLength(1);
    client.server(MSG.CHAT, { ...msg('hello\nthere', 7), clientId: send.clientId });
    expect(document.querySelectorAll('.chat-pending')).toHaveLength(0);
    expect(document.querySelectorAll('.chat-msg')).toHaveLength(1);
  });

  it('delete buttons: own messages for a user, any for the owner, only this page’s for a guest', () => {
    const { client } = setup({ userId: 7 });
    client.server(MSG.CHAT_HISTORY_S, { messages: [msg('mine', 7), msg('theirs', 8)], more: false });
    expect(screen.getAllByRole('button', { name: 'Delete message' })).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Delete message' }));
    expect(client.sent.at(-1)!.type).toBe(MSG.CHAT_DELETE);
    client.server(MSG.CHAT_DELETED, { id: (client.sent.at(-1)!.body as { id: number }).id });
    expect(screen.queryByText('mine')).toBeNull();
  });

  it('shows the node’s errors and "load earlier" pages older messages', () => {
    const { client } = setup({ owner: true });
    const older = msg('older');
    const newer = msg('newer');
    client.server(MSG.CHAT_HISTORY_S, { messages: [newer], more: true });
    expect(screen.getAllByRole('button', { name: 'Delete message' })).toHaveLength(1); // owner: any
    fireEvent.click(screen.getByRole('button', { name: 'Load earlier messages' }));
    expect(client.sent.at(-1)).toEqual({ type: MSG.CHAT_HISTORY, body: { before: newer.id } });
    client.server(MSG.CHAT_HISTORY_S, { messages: [older], more: false, before: newer.id });
    expect([...document.querySelectorAll('.chat-text')].map((e) => e.textContent)).toEqual(['older', 'newer']);
    expect(screen.queryByRole('button', { name: 'Load earlier messages' })).toBeNull();
    client.error({ code: 'chat_rate_limited', message: 'C4: at most 5 messages per 5 s' });
    expect(screen.getByRole('alert').textContent).toMatch(/too quickly/);
  });
});

describe('unread count', () => {
  it('counts others’ messages while the panel is closed and clears when opened', () => {
    const client = new FakeClient();
    const model = new ChatModel(client);
    model.attach();
    client.connect();
    const view = () => (
      <I18nextProvider i18n={i18n}>
        <ChatButton
          open={model.getState().open}
          unread={model.getState().unread}
          onToggle={() => model.setOpen(true)}
        />
      </I18nextProvider>
    );
    const { rerender } = render(view());
    client.server(MSG.CHAT, msg('one'));
    client.server(MSG.CHAT, msg('two'));
    rerender(view());
    expect(document.querySelector('[data-action="chat"] [data-unread]')?.textContent).toBe('2');
    expect(screen.getByRole('button', { name: 'Chat, 2 unread' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button'));
    rerender(view());
    expect(document.querySelector('[data-unread]')).toBeNull();
  });
});
