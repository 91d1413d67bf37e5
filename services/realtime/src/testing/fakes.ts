/** In-memory sockets and journal for room tests (no network, no database). */
import type { Logger } from '@wb/platform';
import { createLogger } from '@wb/platform';
import { genesisChange, newHandle } from '../doc/automerge';
import type { Handle } from '../doc/automerge';
import type { JournalEntry, PeerSocket, RoomJournal } from '../room/room';

export class FakeSocket implements PeerSocket {
  sent: Uint8Array[] = [];
  closedWith: { code: number; reason: string } | null = null;
  bufferedAmount = 0;
  /** deliver frames to a client at once instead of collecting them */
  onSend: ((frame: Uint8Array) => void) | null = null;
  send(frame: Uint8Array): void {
    if (this.closedWith) return;
    if (this.onSend) this.onSend(frame);
    else this.sent.push(frame);
  }
  close(code: number, reason: string): void {
    this.closedWith ??= { code, reason };
  }
  take(): Uint8Array[] {
    const out = this.sent;
    this.sent = [];
    return out;
  }
}

export class MemoryJournal implements RoomJournal {
  entries: JournalEntry[] = [];
  fail: Error | null = null;
  calls = 0;
  async append(entries: JournalEntry[]): Promise<void> {
    this.calls++;
    if (this.fail) throw this.fail;
    this.entries.push(...entries);
  }
}

export class FakeClock {
  t = 1_000_000;
  now(): number {
    return this.t;
  }
}

export function silentLogger(): Logger {
  return createLogger({ service: 'realtime-test', level: 'silent' });
}

export function freshBoardHandle(): Handle {
  const h = newHandle();
  h.applyChanges([genesisChange()]);
  return h;
}
