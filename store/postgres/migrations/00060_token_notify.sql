-- Change notifications for the engine's cache of token lookups: revoking a
-- token, an OAuth grant or client, changing a token's scopes or a user's
-- role through any replica reaches the others at commit instead of after
-- the cache's TTL. Uses (last_used_at, a refresh token's rotation) notify
-- nobody. The payload is "tokens <tenant id>" (see 00040).

-- +goose Up
CREATE TRIGGER tokens_notify_update AFTER UPDATE ON tokens
    FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.scopes IS DISTINCT FROM NEW.scopes OR
        OLD.expires_at IS DISTINCT FROM NEW.expires_at OR OLD.rate_limit IS DISTINCT FROM NEW.rate_limit)
    EXECUTE FUNCTION fourd_notify_change('tokens');
CREATE TRIGGER tokens_notify_delete AFTER DELETE ON tokens
    FOR EACH ROW EXECUTE FUNCTION fourd_notify_change('tokens');
CREATE TRIGGER oauth_tokens_notify_update AFTER UPDATE ON oauth_tokens
    FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at)
    EXECUTE FUNCTION fourd_notify_change('tokens');
CREATE TRIGGER oauth_tokens_notify_delete AFTER DELETE ON oauth_tokens
    FOR EACH ROW EXECUTE FUNCTION fourd_notify_change('tokens');
CREATE TRIGGER oauth_clients_notify_update AFTER UPDATE ON oauth_clients
    FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at)
    EXECUTE FUNCTION fourd_notify_change('tokens');
CREATE TRIGGER users_notify_update AFTER UPDATE ON users
    FOR EACH ROW WHEN (OLD.role IS DISTINCT FROM NEW.role)
    EXECUTE FUNCTION fourd_notify_change('tokens');
CREATE TRIGGER users_notify_delete AFTER DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION fourd_notify_change('tokens');

-- +goose Down
DROP TRIGGER users_notify_delete ON users;
DROP TRIGGER users_notify_update ON users;
DROP TRIGGER oauth_clients_notify_update ON oauth_clients;
DROP TRIGGER oauth_tokens_notify_delete ON oauth_tokens;
DROP TRIGGER oauth_tokens_notify_update ON oauth_tokens;
DROP TRIGGER tokens_notify_delete ON tokens;
DROP TRIGGER tokens_notify_update ON tokens;
