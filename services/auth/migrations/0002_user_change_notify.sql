-- Every change to a user row tells the auth replicas' user caches, at commit (NOTIFY is
-- transactional), which user to forget. Payload: the user id.
CREATE FUNCTION notify_user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('auth_user_changed', OLD.id::text);
  RETURN NULL;
END
$$;

CREATE TRIGGER users_changed AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION notify_user_changed();
