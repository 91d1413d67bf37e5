import { decodeJson, helloSchema, MSG } from '@wb/proto';
import { EARLY_SOCKET_ABANDON_MS, openBoardSocketEarly, WebSocketTransport } from './transport';

/** Just enough of a browser WebSocket to watch what the early socket does with it. */
class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static made: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  binaryType = 'blob';
  sent: Uint8Array[] = [];
  closed = false;
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: ((e: { code: number; reason: string }) => void) | null = null;
  private openListeners: (() => void)[] = [];
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }
  addEventListener(type: string, fn: () => void) {
    if (type === 'open') this.openListeners.push(fn);
  }
  send(frame: Uint8Array) {
    this.sent.push(frame);
  }
  close() {
    this.closed = true;
    this.readyState = FakeSocket.CLOSED;
  }
  open() {
    this.readyState = FakeSocket.OPEN;
    for (const fn of this.openListeners.splice(0)) fn();
    this.onopen?.();
  }
  receive(bytes: number[]) {
    this.onmessage?.({ data: new Uint8Array(bytes).buffer });
  }
}

const URL_A = 'ws://localhost/rt/boards/a';
const handlers = () => ({ onOpen: jest.fn(), onFrame: jest.fn(), onClose: jest.fn() });
const flush = () =>
  new Promise<void>((resolve) => jest.requireActual<typeof globalThis>('timers').setImmediate(resolve));

beforeEach(() => {
  FakeSocket.made = [];
  (globalThis as { WebSocket: unknown }).WebSocket = FakeSocket;
  jest.useFakeTimers({ doNotFake: ['setImmediate', 'queueMicrotask'] });
});
afterEach(() => jest.useRealTimers());

test('a signed-in early socket says HELLO (fresh, render) once it opens', async () => {
  openBoardSocketEarly(URL_A, Promise.resolve(true));
  await flush();
  const ws = FakeSocket.made[0]!;
  expect(ws.sent).toHaveLength(0);
  ws.open();
  expect(ws.sent).toHaveLength(1);
  const frame = ws.sent[0]!;
  expect(frame[0]).toBe(MSG.HELLO);
  expect(decodeJson(frame.subarray(1), helloSchema)).toMatchObject({ fresh: true, render: true });
  new WebSocketTransport(URL_A).connect(handlers()).close();
});

test('a guest’s early socket is closed: guests name themselves in HELLO, on the page', async () => {
  openBoardSocketEarly(URL_A, Promise.resolve(false));
  await flush();
  expect(FakeSocket.made[0]!.closed).toBe(true);
});

test('the page adopts the socket with the frames that came before it', async () => {
  openBoardSocketEarly(URL_A, Promise.resolve(true));
  await flush();
  const ws = FakeSocket.made[0]!;
  ws.open();
  ws.receive([MSG.WELCOME, 1, 2]);
  const h = handlers();
  new WebSocketTransport(URL_A).connect(h);
  await flush();
  expect(FakeSocket.made).toHaveLength(1);
  expect(h.onOpen).toHaveBeenCalledWith({ greeted: true });
  expect(h.onFrame).toHaveBeenCalledWith(new Uint8Array([MSG.WELCOME, 1, 2]));
  jest.advanceTimersByTime(EARLY_SOCKET_ABANDON_MS + 1);
  expect(ws.closed).toBe(false); // adopted: the abandon timer leaves it alone
});

test('an early socket no page adopts is closed after the abandon time', async () => {
  openBoardSocketEarly(URL_A, Promise.resolve(true));
  await flush();
  const ws = FakeSocket.made[0]!;
  ws.open();
  jest.advanceTimersByTime(EARLY_SOCKET_ABANDON_MS - 1);
  expect(ws.closed).toBe(false);
  jest.advanceTimersByTime(1);
  expect(ws.closed).toBe(true);
  // the page, if it still wants the board later, gets a new socket
  new WebSocketTransport(URL_A).connect(handlers()).close();
  expect(FakeSocket.made).toHaveLength(2);
});

test('an early socket for another board is closed and replaced when the page connects', async () => {
  openBoardSocketEarly(URL_A, Promise.resolve(true));
  await flush();
  new WebSocketTransport('ws://localhost/rt/boards/b').connect(handlers()).close();
  expect(FakeSocket.made[0]!.closed).toBe(true);
  expect(FakeSocket.made[1]!.url).toBe('ws://localhost/rt/boards/b');
});
