-- Bumped (by the triggers below, in the writing transaction) whenever what a user's
-- GET /api/courses shows may have changed: the list is answered from a process-local cache while
-- the version matches (as boards' list_versions). Triggers rather than calls in every command, so
-- no write path can forget it; statement-level with transition tables, so deleting a course with
-- 400 items bumps each affected user once per statement, not once per row.
CREATE TABLE list_versions (
  user_id  integer PRIMARY KEY,
  version  bigint NOT NULL
);

CREATE FUNCTION bump_list_versions(user_ids integer[]) RETURNS void
LANGUAGE sql SET search_path FROM CURRENT AS $$
  INSERT INTO list_versions AS v (user_id, version)
  SELECT DISTINCT u, 1 FROM unnest(user_ids) AS u WHERE u IS NOT NULL ORDER BY 1
  ON CONFLICT (user_id) DO UPDATE SET version = v.version + 1
$$;

-- everyone whose cards show these courses: their owners and participants
CREATE FUNCTION bump_course_audiences(course_ids integer[]) RETURNS void
LANGUAGE sql SET search_path FROM CURRENT AS $$
  SELECT bump_list_versions(ARRAY(
    SELECT owner_id FROM courses WHERE id = ANY (course_ids)
    UNION SELECT user_id FROM participants WHERE course_id = ANY (course_ids)))
$$;

-- lessons, items (the counts on every card of the course)
CREATE FUNCTION courses_counts_inserted() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM bump_course_audiences(ARRAY(SELECT DISTINCT course_id FROM new_rows));
  RETURN NULL;
END $$;
CREATE FUNCTION courses_counts_deleted() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM bump_course_audiences(ARRAY(SELECT DISTINCT course_id FROM old_rows));
  RETURN NULL;
END $$;
CREATE TRIGGER lessons_inserted_lists AFTER INSERT ON lessons REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION courses_counts_inserted();
CREATE TRIGGER lessons_deleted_lists AFTER DELETE ON lessons REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION courses_counts_deleted();
CREATE TRIGGER items_inserted_lists AFTER INSERT ON items REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION courses_counts_inserted();
CREATE TRIGGER items_deleted_lists AFTER DELETE ON items REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION courses_counts_deleted();

-- participants: the participant's own list and the course's count on everyone's card
CREATE FUNCTION participants_inserted_lists() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM bump_course_audiences(ARRAY(SELECT DISTINCT course_id FROM new_rows));
  RETURN NULL;
END $$;
CREATE FUNCTION participants_deleted_lists() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  -- the ones who left are no longer participants: bumped by name
  PERFORM bump_list_versions(ARRAY(SELECT user_id FROM old_rows));
  PERFORM bump_course_audiences(ARRAY(SELECT DISTINCT course_id FROM old_rows));
  RETURN NULL;
END $$;
CREATE TRIGGER participants_inserted_lists AFTER INSERT ON participants REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION participants_inserted_lists();
CREATE TRIGGER participants_deleted_lists AFTER DELETE ON participants REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION participants_deleted_lists();

-- courses: made (the owner), renamed or touched (everyone on it: the card shows the name and
-- the last change), deleted (the owner; participants through
-- the cascade above)
CREATE FUNCTION courses_inserted_lists() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM bump_list_versions(ARRAY(SELECT owner_id FROM new_rows));
  RETURN NULL;
END $$;
CREATE FUNCTION courses_deleted_lists() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM bump_list_versions(ARRAY(SELECT owner_id FROM old_rows));
  RETURN NULL;
END $$;
CREATE FUNCTION courses_changed_lists() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM bump_course_audiences(ARRAY[NEW.id]);
  RETURN NULL;
END $$;
CREATE TRIGGER courses_inserted_lists AFTER INSERT ON courses REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION courses_inserted_lists();
CREATE TRIGGER courses_deleted_lists AFTER DELETE ON courses REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION courses_deleted_lists();
CREATE TRIGGER courses_changed_lists AFTER UPDATE OF name, updated_at ON courses
  FOR EACH ROW EXECUTE FUNCTION courses_changed_lists();

-- progress: the participant's "done" on their card
CREATE FUNCTION progress_lists() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM bump_list_versions(ARRAY(SELECT user_id FROM new_rows));
  ELSE
    PERFORM bump_list_versions(ARRAY(SELECT user_id FROM old_rows));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER progress_inserted_lists AFTER INSERT ON progress REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION progress_lists();
CREATE TRIGGER progress_deleted_lists AFTER DELETE ON progress REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION progress_lists();
