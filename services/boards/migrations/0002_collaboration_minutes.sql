-- Weekly collaboration minutes per board owner (spec §4 "Board read-only": a board turns
-- read-only for collaborators when its owner's weekly minutes are used up; they reset weekly).
-- Fed by realtime.participant.minutes.v1: one row per realtime session, spanning the first join
-- to the last leave of anyone other than the owner (the lesson). min/max make a redelivered or
-- out-of-order event harmless.
CREATE TABLE collaboration_sessions (
  session_id  text PRIMARY KEY,
  owner_id    integer NOT NULL,
  board_id    text NOT NULL,
  -- Monday 00:00 UTC of the week the session's first collaborator joined
  week_start  date NOT NULL,
  first_join  timestamptz NOT NULL,
  last_leave  timestamptz NOT NULL CHECK (last_leave >= first_join)
);
CREATE INDEX collaboration_sessions_owner_week_idx ON collaboration_sessions (owner_id, week_start);
