-- A user can be disabled (issue 28): their personal access tokens and OAuth
-- tokens stop working, and they cannot sign in, until `fourd user create`
-- sets them up again. Token lookups join the user's row, so what a token may
-- do follows the user's role and state now; a change of either notifies the
-- token caches of every replica (see 00060).

-- +goose Up
ALTER TABLE users ADD COLUMN disabled_at timestamptz;
DROP TRIGGER users_notify_update ON users;
CREATE TRIGGER users_notify_update AFTER UPDATE ON users
    FOR EACH ROW WHEN (OLD.role IS DISTINCT FROM NEW.role OR OLD.disabled_at IS DISTINCT FROM NEW.disabled_at)
    EXECUTE FUNCTION fourd_notify_change('tokens');

-- +goose Down
DROP TRIGGER users_notify_update ON users;
CREATE TRIGGER users_notify_update AFTER UPDATE ON users
    FOR EACH ROW WHEN (OLD.role IS DISTINCT FROM NEW.role)
    EXECUTE FUNCTION fourd_notify_change('tokens');
ALTER TABLE users DROP COLUMN disabled_at;
