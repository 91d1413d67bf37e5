-- Board chat (SPEC C*): every message of a board, paged by id. Guests have author_id 0 and their
-- guest name; deleted messages keep their row (deleted_at) so a page never shifts under a reader,
-- and are never sent again. The rows go when the board is purged (H3).
CREATE TABLE chat_messages (
  id          bigserial PRIMARY KEY,
  board_id    text NOT NULL,
  author_id   integer NOT NULL,
  author_name text NOT NULL,
  text        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz
);
-- history pages (WHERE board_id = $1 AND id < $2 AND deleted_at IS NULL ORDER BY id DESC LIMIT n)
-- and the purge (WHERE board_id = $1) both use it
CREATE INDEX chat_messages_board_id_idx ON chat_messages (board_id, id);
