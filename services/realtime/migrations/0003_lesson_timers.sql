-- Live lesson (SPEC LS9): the shared timer of a board, so it survives a node failover. Written on
-- every timer change (rare: a few per lesson); presentation state is not kept (the presenter's
-- socket is gone with the node). ends_at is on the nodes' clock (ms since the epoch).
CREATE TABLE lesson_timers (
  board_id     text PRIMARY KEY,
  state        text NOT NULL CHECK (state IN ('idle', 'running', 'paused')),
  ends_at      bigint,
  remaining_ms integer NOT NULL,
  duration_ms  integer NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now()
);
