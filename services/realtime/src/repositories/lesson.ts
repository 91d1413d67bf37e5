/**
 * SQL of the lesson state kept across a failover: the timer (migrations/0003_lesson_timers, SPEC
 * LS9) and who was presenting (0004_lesson_presenters, LS12). No rules here: who may change them is
 * decided by the room (src/room/lesson.ts).
 */
import type { Pool, PoolClient } from '@wb/platform';
import type { LessonTimerState } from '@wb/proto';

/** who was presenting, and since when (the nodes' clock, ms since the epoch) */
export interface SavedPresenter {
  userId: number;
  name: string;
  since: number;
}

/** What a room needs to keep its timer and its presenter across a node failover. */
export interface LessonStore {
  load(boardId: string): Promise<LessonTimerState | null>;
  save(boardId: string, timer: LessonTimerState): Promise<void>;
  loadPresenter(boardId: string): Promise<SavedPresenter | null>;
  /** null: nobody presents */
  savePresenter(boardId: string, presenter: SavedPresenter | null): Promise<void>;
}

interface Row {
  state: LessonTimerState['state'];
  ends_at: string | null;
  remaining_ms: number;
  duration_ms: number;
}

export class PgLessonStore implements LessonStore {
  constructor(private readonly pool: Pool) {}

  async load(boardId: string): Promise<LessonTimerState | null> {
    const { rows } = await this.pool.query<Row>(
      'SELECT state, ends_at, remaining_ms, duration_ms FROM lesson_timers WHERE board_id = $1',
      [boardId],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      state: r.state,
      ...(r.ends_at !== null ? { endsAt: Number(r.ends_at) } : {}),
      remainingMs: r.remaining_ms,
      durationMs: r.duration_ms,
    };
  }

  async save(boardId: string, t: LessonTimerState): Promise<void> {
    await this.pool.query(
      `INSERT INTO lesson_timers (board_id, state, ends_at, remaining_ms, duration_ms, updated_at)
       VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (board_id) DO UPDATE SET state = $2, ends_at = $3, remaining_ms = $4, duration_ms = $5,
         updated_at = now()`,
      [boardId, t.state, t.endsAt ?? null, Math.round(t.remainingMs), Math.round(t.durationMs)],
    );
  }

  async loadPresenter(boardId: string): Promise<SavedPresenter | null> {
    const { rows } = await this.pool.query<{ user_id: number; name: string; since: string }>(
      'SELECT user_id, name, since FROM lesson_presenters WHERE board_id = $1',
      [boardId],
    );
    const r = rows[0];
    return r ? { userId: r.user_id, name: r.name, since: Number(r.since) } : null;
  }

  async savePresenter(boardId: string, p: SavedPresenter | null): Promise<void> {
    if (!p) {
      await this.pool.query('DELETE FROM lesson_presenters WHERE board_id = $1', [boardId]);
      return;
    }
    await this.pool.query(
      `INSERT INTO lesson_presenters (board_id, user_id, name, since, updated_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (board_id) DO UPDATE SET user_id = $2, name = $3, since = $4, updated_at = now()`,
      [boardId, p.userId, p.name, p.since],
    );
  }
}

/** a purged board's lesson state goes with it (in the purge's transaction) */
export async function purgeLessonState(client: PoolClient, boardId: string): Promise<void> {
  await client.query('DELETE FROM lesson_timers WHERE board_id = $1', [boardId]);
  await client.query('DELETE FROM lesson_presenters WHERE board_id = $1', [boardId]);
}
