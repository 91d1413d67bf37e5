-- Realtime schema: board content. The committed-change journal (appended by the board's owner
-- node), snapshot pointers (bytes live in object storage) and the fencing token of each board's
-- current owner. PostgreSQL itself refuses writes carrying a stale token (SPEC F1–F3).

CREATE TABLE board_leases (
  board_id    text PRIMARY KEY,
  -- highest fencing token that claimed the board (Redis INCR); only ever grows
  token       bigint NOT NULL,
  node_id     text NOT NULL,
  claimed_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE journal (
  seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  board_id    text NOT NULL,
  token       bigint NOT NULL,
  hash        text NOT NULL,
  bytes       bytea NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (board_id, hash)
);
CREATE INDEX journal_board_seq_idx ON journal (board_id, seq);

CREATE TABLE snapshots (
  board_id    text NOT NULL,
  -- every journal row of the board with seq <= up_to_seq is inside the snapshot
  up_to_seq   bigint NOT NULL,
  token       bigint NOT NULL,
  storage_key text NOT NULL,
  size        integer NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (board_id, up_to_seq)
);

-- Fencing: a row may only be written with the board's current token. FOR SHARE locks the lease
-- row, so a takeover (UPDATE of the lease) waits for in-flight writes of the old owner to commit
-- and every write after the takeover sees the new token: a paused ex-owner that wakes up fails.
CREATE FUNCTION check_fencing_token() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  current_token bigint;
BEGIN
  SELECT token INTO current_token FROM board_leases WHERE board_id = NEW.board_id FOR SHARE;
  IF current_token IS NULL OR current_token <> NEW.token THEN
    RAISE EXCEPTION 'stale fencing token % for board % (current %)', NEW.token, NEW.board_id, current_token
      USING ERRCODE = 'WBF01';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER journal_fencing BEFORE INSERT ON journal FOR EACH ROW EXECUTE FUNCTION check_fencing_token();
CREATE TRIGGER snapshots_fencing BEFORE INSERT ON snapshots FOR EACH ROW EXECUTE FUNCTION check_fencing_token();
