-- Dashboard previews: the version (the board's realtime journal seq) of the preview WebP its
-- realtime node stored last (realtime.board.previewed.v1); NULL until the board's first one.
-- The board list carries it, so the list caches of the owner and of everyone who joined the
-- board are bumped when it changes, as for a rename.
ALTER TABLE boards ADD COLUMN preview_version bigint;

DROP TRIGGER boards_touch_lists ON boards;
CREATE TRIGGER boards_touch_lists
  AFTER INSERT OR DELETE OR UPDATE OF user_id, title, folder_id, trashed_at, default_permission, preview_version ON boards
  FOR EACH ROW EXECUTE FUNCTION boards_touch_lists();
