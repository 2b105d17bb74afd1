package identity

import (
	"context"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Secret prefixes of the OAuth 2.0 credentials, so that secret scanners and
// people recognize them (personal access tokens use TokenPrefix, fdp_).
const (
	OAuthAccessPrefix  = "fdo_" // access tokens
	OAuthRefreshPrefix = "fdr_" // refresh tokens
	OAuthCodePrefix    = "fdc_" // authorization codes
	OAuthSecretPrefix  = "fds_" // client secrets
)

// Lifetimes of OAuth credentials.
const (
	OAuthCodeTTL    = 5 * time.Minute
	OAuthAccessTTL  = time.Hour
	OAuthRefreshTTL = 30 * 24 * time.Hour
)

// OAuthClient is a third-party application registered in a tenant. Only
// the hash of its secret is stored.
type OAuthClient struct {
	ID           string   `json:"id"`
	TenantID     string   `json:"-"`
	Name         string   `json:"name"`
	RedirectURIs []string `json:"redirect_uris"`
	// Scopes are what the client may get with grant_type=client_credentials,
	// acting for its tenant and no user; empty: that grant is refused
	// (unauthorized_client).
	Scopes     []engine.Scope `json:"scopes"`
	SecretHash string         `json:"-"`
	// RateLimit is requests per minute for the client's access tokens; 0
	// means the default.
	RateLimit int        `json:"rate_limit,omitempty"`
	CreatedAt time.Time  `json:"created_at"`
	RevokedAt *time.Time `json:"revoked_at,omitempty"`
}

// OAuthCode is an authorization code, stored by the hash of its secret.
// GrantID ties it to the tokens exchanged for it, so that a replayed code
// can revoke them.
type OAuthCode struct {
	Hash          string
	GrantID       string
	TenantID      string
	ClientID      string
	UserID        string
	RedirectURI   string
	Scopes        []engine.Scope
	CodeChallenge string // S256 challenge; empty without PKCE
	CreatedAt     time.Time
	ExpiresAt     time.Time
	UsedAt        *time.Time
}

// OAuthTokenKind says what an OAuthToken is.
type OAuthTokenKind string

// OAuth token kinds.
const (
	OAuthAccess  OAuthTokenKind = "access"
	OAuthRefresh OAuthTokenKind = "refresh"
)

// OAuthToken is an access or refresh token issued to a client for a user,
// or an access token of the client credentials grant (UserID "": it acts
// for the client's tenant with the client's registered scopes, and no role
// applies).
// Tokens of one grant share GrantID (a refresh token family): reuse of a
// rotated refresh token, or replay of the code, revokes the whole grant.
type OAuthToken struct {
	ID        string
	Kind      OAuthTokenKind
	Hash      string
	GrantID   string
	TenantID  string
	ClientID  string
	UserID    string
	Scopes    []engine.Scope
	RateLimit int
	CreatedAt time.Time
	ExpiresAt time.Time
	// UsedAt is when a refresh token was rotated (spent).
	UsedAt    *time.Time
	RevokedAt *time.Time
	// UserRole is the role the token's user has now, read with the token
	// by GetOAuthTokenByHash; empty when the user is disabled or gone.
	UserRole engine.Role
}

// Store holds users' credentials and the OAuth 2.0 records. Unless
// a method says otherwise it returns not_found for a missing record (also
// another tenant's), conflict for a uniqueness violation, and wraps
// anything else as an internal error.
type Store interface {
	SignInThrottle
	// UpsertUser creates the user (by tenant and email, case-insensitive)
	// or updates its role and password hash and enables it; it returns the
	// stored user.
	UpsertUser(ctx context.Context, u engine.User) (engine.User, error)
	// GetUser returns a user of the tenant by id.
	GetUser(ctx context.Context, tenantID, id string) (engine.User, error)
	// GetUserByEmail returns a user of the tenant by email.
	GetUserByEmail(ctx context.Context, tenantID, email string) (engine.User, error)
	// DisableUser marks the user of the tenant with the email disabled at
	// the given time (a user disabled before keeps that time) and returns
	// it; UpsertUser enables it again.
	DisableUser(ctx context.Context, tenantID, email string, at time.Time) (engine.User, error)
	// CreateOAuthClient stores a client; conflict when the id exists.
	CreateOAuthClient(ctx context.Context, c OAuthClient) error
	// GetOAuthClient returns a client by id, whatever its tenant (client
	// ids are global, as OAuth requires); revoked ones too.
	GetOAuthClient(ctx context.Context, id string) (OAuthClient, error)
	// ListOAuthClients returns the tenant's live clients, newest first.
	ListOAuthClients(ctx context.Context, tenantID string) ([]OAuthClient, error)
	// RevokeOAuthClient marks a live client of the tenant revoked and
	// revokes every token issued to it.
	RevokeOAuthClient(ctx context.Context, tenantID, id string, at time.Time) error
	// CreateOAuthCode stores an authorization code.
	CreateOAuthCode(ctx context.Context, c OAuthCode) error
	// UseOAuthCode marks the code with the hash used at the given time and
	// returns it. first is false when it had been used before (a replay);
	// the code then keeps its first use time.
	UseOAuthCode(ctx context.Context, hash string, at time.Time) (c OAuthCode, first bool, err error)
	// CreateOAuthTokens stores tokens together (an access token and its
	// refresh token).
	CreateOAuthTokens(ctx context.Context, ts ...OAuthToken) error
	// GetOAuthTokenByHash returns a token by the hash of its secret, spent,
	// revoked or expired alike (the caller checks), with its user's current
	// role in UserRole.
	GetOAuthTokenByHash(ctx context.Context, hash string) (OAuthToken, error)
	// UseRefreshToken marks the refresh token with the hash spent at the
	// given time and returns it; first is false when it was spent before
	// (a reuse).
	UseRefreshToken(ctx context.Context, hash string, at time.Time) (t OAuthToken, first bool, err error)
	// RevokeOAuthGrant revokes every live token of a grant.
	RevokeOAuthGrant(ctx context.Context, grantID string, at time.Time) error
	// RevokeOAuthToken revokes one token by id.
	RevokeOAuthToken(ctx context.Context, id string, at time.Time) error
}
