-- OAuth 2.0 client credentials grant (issue 32): a confidential client may
-- be registered with scopes, and then get access tokens for its tenant
-- with grant_type=client_credentials. Such tokens act for no user:
-- oauth_tokens.user_id is NULL for them (the composite foreign key to users
-- is not checked for a NULL column). A client for machine-to-machine use
-- only needs no redirect URI.

-- +goose Up
ALTER TABLE oauth_clients ADD COLUMN scopes text[] NOT NULL DEFAULT '{}';
ALTER TABLE oauth_clients DROP CONSTRAINT oauth_clients_redirect_uris_check;
ALTER TABLE oauth_clients ADD CONSTRAINT oauth_clients_redirect_uris_or_scopes
    CHECK (cardinality(redirect_uris) > 0 OR cardinality(scopes) > 0);
ALTER TABLE oauth_tokens ALTER COLUMN user_id DROP NOT NULL;

-- +goose Down
DELETE FROM oauth_tokens WHERE user_id IS NULL;
ALTER TABLE oauth_tokens ALTER COLUMN user_id SET NOT NULL;
DELETE FROM oauth_clients WHERE cardinality(redirect_uris) = 0;
ALTER TABLE oauth_clients DROP CONSTRAINT oauth_clients_redirect_uris_or_scopes;
ALTER TABLE oauth_clients ADD CONSTRAINT oauth_clients_redirect_uris_check CHECK (cardinality(redirect_uris) > 0);
ALTER TABLE oauth_clients DROP COLUMN scopes;
