package identity

import (
	"context"
	"crypto/subtle"
	"net"
	"net/url"
	"slices"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// CreateOAuthClientInput registers a third-party application.
type CreateOAuthClientInput struct {
	Name         string   `json:"name"`
	RedirectURIs []string `json:"redirect_uris"`
	// Scopes, optional, let the client use grant_type=client_credentials
	// with them (machine-to-machine, no user). tokens:write is never
	// allowed: managing credentials takes a user.
	Scopes []engine.Scope `json:"scopes"`
	// RateLimit is requests a minute for the client's access tokens; 0 is
	// the default.
	RateLimit int `json:"rate_limit"`
}

// IssuedOAuthClient is a registered client with its secret, shown this once.
type IssuedOAuthClient struct {
	Client OAuthClient
	Secret string
}

// Validate reports validation_failed for a missing name, a redirect URI
// that is not absolute https (or http on a loopback address, RFC 8252),
// that has a fragment or that holds a wildcard (checkRedirectURI), neither redirect URIs nor scopes (a client that could
// use no grant), or an unknown scope or tokens:write.
func (in CreateOAuthClientInput) Validate() error {
	if n := strings.TrimSpace(in.Name); n == "" || len(n) > 100 {
		return engine.FieldErrorf("name", "name is required, at most 100 characters")
	}
	if len(in.RedirectURIs) > 10 || (len(in.RedirectURIs) == 0 && len(in.Scopes) == 0) {
		return engine.FieldErrorf("redirect_uris", "give from 1 to 10 redirect URIs (none only for a client credentials client, with scopes)")
	}
	for _, sc := range in.Scopes {
		switch {
		case !slices.Contains(engine.AllScopes, sc):
			return engine.FieldErrorf("scopes", "unknown scope %s", quote(string(sc)))
		case sc == engine.ScopeTokensWrite:
			return engine.FieldErrorf("scopes", "tokens:write cannot be given to a client: managing credentials takes a user")
		}
	}
	for _, u := range in.RedirectURIs {
		if err := checkRedirectURI(u); err != nil {
			return err
		}
	}
	if in.RateLimit < 0 || in.RateLimit > 1_000_000 {
		return engine.FieldErrorf("rate_limit", "rate_limit must be from 0 to 1000000 requests a minute")
	}
	return nil
}

// checkRedirectURI refuses what a client must not register: relative or
// non-https URLs (http only on loopback, RFC 8252), fragments, credentials,
// and wildcards or host spellings that are patterns rather than names (the
// authorization endpoint matches redirect URIs exactly, as the OAuth 2.0
// Security BCP requires).
func checkRedirectURI(s string) error {
	u, err := url.Parse(s)
	bad := func(why string) error {
		return engine.FieldErrorf("redirect_uris", "redirect URI %s %s", quote(s), why)
	}
	switch {
	case err != nil || !u.IsAbs() || u.Host == "" || len(s) > 500:
		return bad("must be an absolute URL")
	case u.Fragment != "" || strings.Contains(s, "#"):
		return bad("must not have a fragment")
	case u.User != nil:
		return bad("must not carry credentials")
	case strings.ContainsAny(s, "*"):
		return bad("must not contain a wildcard: redirect URIs are matched exactly, so register each one")
	case !validRedirectHost(u.Hostname()):
		return bad("must name its host as an IP address or a DNS name of letters, digits and hyphens (xn-- for international names)")
	case u.Scheme == "https":
		return nil
	case u.Scheme == "http":
		host := u.Hostname()
		if ip := net.ParseIP(host); host == "localhost" || (ip != nil && ip.IsLoopback()) {
			return nil
		}
		return bad("must use https (http only on a loopback address)")
	}
	return bad("must use https")
}

// CreateOAuthClient registers a client in the caller's tenant. Needs
// tokens:write (held by admins only); the client's scopes must be held by
// the caller, so a client never gets more than the admin who registered
// it: unauthorized, insufficient_scope, validation_failed.
func (s *Service) CreateOAuthClient(ctx context.Context, p engine.Principal, in CreateOAuthClientInput) (IssuedOAuthClient, error) {
	if err := p.Require(engine.ScopeTokensWrite); err != nil {
		return IssuedOAuthClient{}, err
	}
	for _, sc := range in.Scopes {
		if slices.Contains(engine.AllScopes, sc) && !slices.Contains(p.Scopes, sc) {
			return IssuedOAuthClient{}, engine.FieldErrorf("scopes", "scope %s is not held by the token registering the client", sc)
		}
	}
	return s.createOAuthClient(ctx, p.TenantID, in)
}

// RegisterOAuthClient registers a client in a tenant (by slug, created
// when missing) for the command line, which has no Principal.
func (o *Operator) RegisterOAuthClient(ctx context.Context, tenantSlug string, in CreateOAuthClientInput) (IssuedOAuthClient, error) {
	s := o.s
	if tenantSlug == "" {
		return IssuedOAuthClient{}, engine.FieldErrorf("tenant", "tenant is required")
	}
	if err := in.Validate(); err != nil {
		return IssuedOAuthClient{}, err
	}
	ten, err := s.cfg.Tenants.EnsureTenant(ctx, tenantSlug, tenantSlug)
	if err != nil {
		return IssuedOAuthClient{}, err
	}
	return s.createOAuthClient(ctx, ten.ID, in)
}

func (s *Service) createOAuthClient(ctx context.Context, tenantID string, in CreateOAuthClientInput) (IssuedOAuthClient, error) {
	ids, err := s.identity()
	if err != nil {
		return IssuedOAuthClient{}, err
	}
	if err := in.Validate(); err != nil {
		return IssuedOAuthClient{}, err
	}
	now := s.now()
	secret := OAuthSecretPrefix + engine.RandomToken(30)
	c := OAuthClient{ID: engine.NewID(engine.PrefixOAuthClient, now), TenantID: tenantID, Name: strings.TrimSpace(in.Name),
		RedirectURIs: append([]string{}, in.RedirectURIs...), Scopes: append([]engine.Scope{}, in.Scopes...), SecretHash: HashToken(secret), RateLimit: in.RateLimit, CreatedAt: now}
	if err := ids.CreateOAuthClient(ctx, c); err != nil {
		return IssuedOAuthClient{}, err
	}
	return IssuedOAuthClient{Client: c, Secret: secret}, nil
}

// ListOAuthClients returns the live clients of the caller's tenant, newest
// first, in one page. unauthorized, insufficient_scope.
func (s *Service) ListOAuthClients(ctx context.Context, p engine.Principal) (engine.Page[OAuthClient], error) {
	if err := p.Require(engine.ScopeTokensWrite); err != nil {
		return engine.Page[OAuthClient]{}, err
	}
	ids, err := s.identity()
	if err != nil {
		return engine.Page[OAuthClient]{}, err
	}
	cs, err := ids.ListOAuthClients(ctx, p.TenantID)
	return engine.Page[OAuthClient]{Items: cs}, err
}

// RevokeOAuthClient revokes a client of the caller's tenant and every
// token issued to it. unauthorized, insufficient_scope, not_found.
func (s *Service) RevokeOAuthClient(ctx context.Context, p engine.Principal, id string) error {
	if err := p.Require(engine.ScopeTokensWrite); err != nil {
		return err
	}
	ids, err := s.identity()
	if err != nil {
		return err
	}
	if !engine.ValidID(engine.PrefixOAuthClient, id) {
		return engine.ErrNotFound("oauth client", id)
	}
	if err := ids.RevokeOAuthClient(ctx, p.TenantID, id, s.now()); err != nil {
		return err
	}
	s.tokens.purge()
	return nil
}

// ClientCredentials are how a client authenticates at the token and
// revocation endpoints (form fields or HTTP Basic).
type ClientCredentials struct {
	ID     string
	Secret string
}

// authenticateClient returns the live client with the id and secret;
// invalid_client for anything else, with one message.
func (s *Service) authenticateClient(ctx context.Context, ids Store, cc ClientCredentials) (OAuthClient, error) {
	bad := engine.Errorf(engine.CodeInvalidClient, "client authentication failed")
	if !engine.ValidID(engine.PrefixOAuthClient, cc.ID) || cc.Secret == "" || len(cc.Secret) > 200 {
		return OAuthClient{}, bad
	}
	c, err := ids.GetOAuthClient(ctx, cc.ID)
	if err != nil {
		if engine.IsNotFound(err) {
			return OAuthClient{}, bad
		}
		return OAuthClient{}, err
	}
	if c.RevokedAt != nil || subtle.ConstantTimeCompare([]byte(HashToken(cc.Secret)), []byte(c.SecretHash)) != 1 {
		return OAuthClient{}, bad
	}
	return c, nil
}

// validRedirectHost reports whether host is an IP address or a DNS name
// of ASCII letters, digits and hyphens (RFC 1123 labels), so that no
// pattern, escape or look-alike spelling reaches the exact-match list.
func validRedirectHost(host string) bool {
	if net.ParseIP(host) != nil {
		return true
	}
	if host == "" || len(host) > 253 {
		return false
	}
	for _, label := range strings.Split(host, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}
