-- One counter for weekly collaboration minutes (spec §4 "Board read-only", §9), replacing the
-- stay-based collaboration_sessions of 0002. A realtime node checkpoints every span during which
-- ≥ 2 people are on a board (realtime.collaboration.span.v1, and boards collaboration.checkpoint)
-- every few seconds; a checkpoint only moves `to_at` forward (GREATEST), so a redelivered or
-- out-of-order checkpoint never counts twice and a node crash loses at most one interval.
-- A span crossing Monday 00:00 UTC is stored as one row per week (the minutes reset then).
CREATE TABLE collaboration_spans (
  span_id     text NOT NULL,
  -- Monday 00:00 UTC of the week this piece of the span falls in
  week_start  date NOT NULL,
  session_id  text NOT NULL,
  owner_id    integer NOT NULL,
  board_id    text NOT NULL,
  from_at     timestamptz NOT NULL,
  to_at       timestamptz NOT NULL CHECK (to_at >= from_at),
  PRIMARY KEY (span_id, week_start)
);
CREATE INDEX collaboration_spans_owner_week_idx ON collaboration_spans (owner_id, week_start);

-- Old rows keep their meaning: each was one stretch of collaboration (first collaborator's join
-- to the last leave) counted in the week it started; it becomes one span of that week.
INSERT INTO collaboration_spans (span_id, week_start, session_id, owner_id, board_id, from_at, to_at)
SELECT 'legacy:' || session_id, week_start, session_id, owner_id, board_id, first_join, last_leave
  FROM collaboration_sessions;
DROP TABLE collaboration_sessions;
