-- OAuth 2.0 (issue 4): registered clients, authorization codes, and the
-- access and refresh tokens issued for them. Secrets are never stored: a
-- client secret, code or token is kept as the hex SHA-256 of its value
-- (they are random, 150 bits, so a fast hash is enough).
--
-- A grant (grant_id, grt_…) is one approved authorization: its code and
-- every access and refresh token issued from it, across refresh rotations.
-- A replayed code or a reused refresh token revokes the whole grant with one
-- UPDATE over oauth_tokens_grant_idx.

-- +goose Up
CREATE TABLE oauth_clients (
    id            text COLLATE "C" PRIMARY KEY,
    tenant_id     text COLLATE "C" NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    name          text NOT NULL CHECK (name <> ''),
    redirect_uris text[] NOT NULL CHECK (cardinality(redirect_uris) > 0),
    secret_hash   text NOT NULL,
    rate_limit    integer NOT NULL DEFAULT 0 CHECK (rate_limit >= 0),
    created_at    timestamptz NOT NULL,
    revoked_at    timestamptz,
    UNIQUE (tenant_id, id)
);
-- ListOAuthClients: a tenant's live clients, newest first.
CREATE INDEX oauth_clients_tenant_idx ON oauth_clients (tenant_id, id DESC) WHERE revoked_at IS NULL;

CREATE TABLE oauth_codes (
    hash           text PRIMARY KEY,
    grant_id       text COLLATE "C" NOT NULL,
    tenant_id      text COLLATE "C" NOT NULL,
    client_id      text COLLATE "C" NOT NULL,
    user_id        text COLLATE "C" NOT NULL,
    redirect_uri   text NOT NULL,
    scopes         text[] NOT NULL,
    code_challenge text NOT NULL DEFAULT '',
    created_at     timestamptz NOT NULL,
    expires_at     timestamptz NOT NULL,
    used_at        timestamptz,
    FOREIGN KEY (tenant_id, client_id) REFERENCES oauth_clients (tenant_id, id) ON DELETE CASCADE,
    FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);
-- Expired codes are deleted by expiry (a retention job or an operator).
CREATE INDEX oauth_codes_expires_idx ON oauth_codes (expires_at);

CREATE TABLE oauth_tokens (
    id         text COLLATE "C" PRIMARY KEY,
    kind       text NOT NULL CHECK (kind IN ('access', 'refresh')),
    hash       text NOT NULL UNIQUE,
    grant_id   text COLLATE "C" NOT NULL,
    tenant_id  text COLLATE "C" NOT NULL,
    client_id  text COLLATE "C" NOT NULL,
    user_id    text COLLATE "C" NOT NULL,
    scopes     text[] NOT NULL,
    rate_limit integer NOT NULL DEFAULT 0 CHECK (rate_limit >= 0),
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at    timestamptz, -- a refresh token's rotation
    revoked_at timestamptz,
    UNIQUE (tenant_id, id),
    FOREIGN KEY (tenant_id, client_id) REFERENCES oauth_clients (tenant_id, id) ON DELETE CASCADE,
    FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);
-- Revoking a grant, and a client's tokens.
CREATE INDEX oauth_tokens_grant_idx ON oauth_tokens (grant_id) WHERE revoked_at IS NULL;
CREATE INDEX oauth_tokens_client_idx ON oauth_tokens (client_id) WHERE revoked_at IS NULL;
CREATE INDEX oauth_tokens_expires_idx ON oauth_tokens (expires_at);

-- +goose Down
DROP TABLE oauth_tokens;
DROP TABLE oauth_codes;
DROP TABLE oauth_clients;
