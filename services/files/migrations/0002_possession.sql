-- Issue 25 §4 proof of possession: doc.get answers someone who has not shown they hold a stored
-- file with a random challenge (a nonce and byte ranges); doc.add takes its answer once, before
-- it expires. Expired rows are removed by the files-tombstones job.
CREATE TABLE possession_challenges (
  nonce       text PRIMARY KEY CHECK (nonce ~ '^[0-9a-f]{32}$'),
  user_id     integer NOT NULL CHECK (user_id > 0),
  doc_id      text NOT NULL CHECK (doc_id ~ '^[0-9a-f]{64}$'),
  ranges      jsonb NOT NULL,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX possession_challenges_expiry_idx ON possession_challenges (expires_at);

-- The orphan sweep (issue 25 §5): stored objects no record points at (an original with no object
-- or picture row, a staged upload nobody finished, a picture with no row), and when the sweep first
-- saw them; one still unrecorded a grace period later is deleted.
CREATE TABLE orphan_candidates (
  key         text PRIMARY KEY,
  first_seen  timestamptz NOT NULL
);
