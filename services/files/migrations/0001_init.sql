-- Files schema: stored originals (one row per distinct content, id = SHA-256), who holds them
-- (a person's library, a board's uploads charged to the board's owner) and the profile pictures
-- made from uploads. The bytes are in object storage (originals/<id>, docs/<id>-…, images/<id>-…).

CREATE TABLE objects (
  id          text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{64}$'),
  format      text NOT NULL,
  is_image    boolean NOT NULL,
  mime        text NOT NULL,
  size        bigint NOT NULL CHECK (size >= 0),
  status      text NOT NULL DEFAULT 'processing' CHECK (status IN ('processing', 'ready', 'failed')),
  pages       integer NOT NULL DEFAULT 0,
  pages_done  integer NOT NULL DEFAULT 0,
  error       text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  -- set with status failed: the row is a tombstone the cleanup job removes after an hour
  failed_at   timestamptz,
  CHECK ((status = 'failed') = (failed_at IS NOT NULL))
);
CREATE INDEX objects_failed_idx ON objects (failed_at) WHERE failed_at IS NOT NULL;

-- A person's library (spec §3 Document/file): their own name for the file and when they added it.
CREATE TABLE user_files (
  user_id     integer NOT NULL CHECK (user_id > 0),
  doc_id      text NOT NULL REFERENCES objects (id),
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, doc_id)
);
-- GET /api/docs (newest first)
CREATE INDEX user_files_list_idx ON user_files (user_id, created_at DESC, doc_id);
-- "does anybody still hold it" and the failure path
CREATE INDEX user_files_doc_idx ON user_files (doc_id);

-- Uploads for a board (spec §5 "unless the upload is for a board"), charged to the board's owner.
CREATE TABLE board_files (
  board_id    text NOT NULL,
  doc_id      text NOT NULL REFERENCES objects (id),
  owner_id    integer NOT NULL CHECK (owner_id > 0),
  added_by    integer NOT NULL CHECK (added_by > 0),
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (board_id, doc_id)
);
-- the owner's usage sum
CREATE INDEX board_files_owner_idx ON board_files (owner_id, doc_id);
CREATE INDEX board_files_doc_idx ON board_files (doc_id);

-- Profile pictures (POST /display-image): made once per content, never in a library or a quota.
CREATE TABLE display_images (
  id          text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{64}$'),
  created_at  timestamptz NOT NULL DEFAULT now()
);
