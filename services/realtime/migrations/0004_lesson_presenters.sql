-- Live lesson (SPEC LS12): who was presenting on a board, so a presentation survives a node
-- failover: the next node gives it back to that person when they reconnect within
-- LESSON_PRESENTER_RESUME_MS, then forgets it. Written when a presentation starts and ends (rare).
CREATE TABLE lesson_presenters (
  board_id   text PRIMARY KEY,
  user_id    integer NOT NULL,
  name       text NOT NULL,
  since      bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
