/**
 * SQL of the board chat (migrations/0002_chat_messages). No rules here: who may send or delete is
 * decided by the room (src/room/chat.ts, SPEC C*). Deleted rows stay (deleted_at) and are never
 * read again; a purge removes every row of the board.
 */
import type { Pool, PoolClient } from '@wb/platform';
import type { ChatMessage } from '@wb/proto';

interface Row {
  id: string;
  author_id: number;
  author_name: string;
  text: string;
  created_at: Date;
}
const toMessage = (r: Row): ChatMessage => ({
  id: Number(r.id),
  authorId: r.author_id,
  authorName: r.author_name,
  guest: r.author_id === 0,
  text: r.text,
  createdAt: r.created_at.toISOString(),
});

/** What a room needs from storage (tests and benches use the PostgreSQL one, like the journal). */
export interface ChatStore {
  insert(boardId: string, authorId: number, authorName: string, text: string): Promise<ChatMessage>;
  /** newest `limit` messages older than `before` (all when absent), oldest first; more: older exist */
  page(boardId: string, before: number | undefined, limit: number): Promise<{ messages: ChatMessage[]; more: boolean }>;
  /** a live (not deleted) message's author, or null */
  author(boardId: string, id: number): Promise<{ authorId: number } | null>;
  /** false when it was already deleted or is not on this board */
  markDeleted(boardId: string, id: number): Promise<boolean>;
}

export class PgChatStore implements ChatStore {
  constructor(private readonly pool: Pool) {}

  async insert(boardId: string, authorId: number, authorName: string, text: string): Promise<ChatMessage> {
    const { rows } = await this.pool.query<Row>(
      `INSERT INTO chat_messages (board_id, author_id, author_name, text) VALUES ($1, $2, $3, $4)
       RETURNING id, author_id, author_name, text, created_at`,
      [boardId, authorId, authorName, text],
    );
    return toMessage(rows[0]!);
  }

  async page(
    boardId: string,
    before: number | undefined,
    limit: number,
  ): Promise<{ messages: ChatMessage[]; more: boolean }> {
    // one row past the page says whether older messages exist; (board_id, id) index, backwards
    const { rows } = await this.pool.query<Row>(
      `SELECT id, author_id, author_name, text, created_at FROM chat_messages
       WHERE board_id = $1 AND deleted_at IS NULL AND ($2::bigint IS NULL OR id < $2)
       ORDER BY id DESC LIMIT $3`,
      [boardId, before ?? null, limit + 1],
    );
    const more = rows.length > limit;
    return { messages: rows.slice(0, limit).reverse().map(toMessage), more };
  }

  async author(boardId: string, id: number): Promise<{ authorId: number } | null> {
    const { rows } = await this.pool.query<{ author_id: number }>(
      `SELECT author_id FROM chat_messages WHERE id = $1 AND board_id = $2 AND deleted_at IS NULL`,
      [id, boardId],
    );
    return rows[0] ? { authorId: rows[0].author_id } : null;
  }

  async markDeleted(boardId: string, id: number): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE chat_messages SET deleted_at = now() WHERE id = $1 AND board_id = $2 AND deleted_at IS NULL`,
      [id, boardId],
    );
    return rowCount === 1;
  }
}

/** H3: a purged board's chat goes with it (in the purge consumer's transaction). */
export async function purgeChat(client: PoolClient, boardId: string): Promise<number> {
  const { rowCount } = await client.query(`DELETE FROM chat_messages WHERE board_id = $1`, [boardId]);
  return rowCount ?? 0;
}
