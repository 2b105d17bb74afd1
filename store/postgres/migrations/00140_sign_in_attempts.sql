-- Password sign-in attempts per account (issue 28): the consent page
-- refuses an account's sign-in after engine.MaxSignInFailures attempts that
-- did not succeed within engine.SignInWindow, whatever addresses they came
-- from. An account is the hex SHA-256 of the tenant id and the lower-cased
-- email, so unknown addresses are throttled alike and no email an attacker
-- typed is kept. A row lives until its window ends (expires_at), then the
-- sweep deletes it; a successful sign-in deletes it at once.

-- +goose Up
CREATE TABLE sign_in_attempts (
    tenant_id  text COLLATE "C" NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    account    text NOT NULL,
    attempts   integer NOT NULL CHECK (attempts > 0),
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, account)
);
CREATE INDEX sign_in_attempts_expires_idx ON sign_in_attempts (expires_at);

-- +goose Down
DROP TABLE sign_in_attempts;
