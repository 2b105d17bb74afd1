package rest

import (
	"net/http"
	"slices"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
)

// identityRoutes registers issue 4's endpoints: personal access tokens and
// OAuth clients under /v1 (bearer auth, tokens:write), and the OAuth 2.0
// endpoints under /oauth (no version prefix, no bearer token).
func (a *api) identityRoutes() {
	a.get("/v1/tokens", a.authenticated(a.listTokens))
	a.identityRoute(http.MethodPost, "/v1/tokens", a.authenticated(a.createToken))
	a.identityRoute(http.MethodDelete, "/v1/tokens/{id}", a.authenticated(a.revokeToken))
	a.get("/v1/oauth_clients", a.authenticated(a.listOAuthClients))
	a.identityRoute(http.MethodPost, "/v1/oauth_clients", a.authenticated(a.createOAuthClient))
	a.identityRoute(http.MethodDelete, "/v1/oauth_clients/{id}", a.authenticated(a.revokeOAuthClient))
	a.get("/oauth/authorize", a.anonymous(a.authorizePage))
	a.identityRoute(http.MethodPost, "/oauth/authorize", a.anonymous(a.authorizeDecision))
	a.identityRoute(http.MethodPost, "/oauth/token", a.oauthEndpoint(a.oauthToken))
	a.identityRoute(http.MethodPost, "/oauth/revoke", a.oauthEndpoint(a.oauthRevoke))
	a.identityRoute(http.MethodPost, "/oauth/introspect", a.oauthEndpoint(a.oauthIntrospect))
	a.get("/.well-known/oauth-authorization-server", a.anonymous(a.oauthMetadata))
}

// identityRoute registers a handler for a method other than GET; the path
// joins the documented patterns once, whatever methods it serves.
func (a *api) identityRoute(method, pattern string, h handlerFunc) {
	if !slices.Contains(a.patterns, pattern) {
		a.patterns = append(a.patterns, pattern)
	}
	a.mux.Handle(method+" "+pattern, a.handle(h))
}

// anonymous wraps a handler that needs no token: the Limiter counts the
// request against the client address's budget (the zero Principal).
func (a *api) anonymous(h handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		if err := a.gate.Anonymous(r, w.Header(), nil); err != nil {
			return err
		}
		return h(w, r)
	}
}

// createdToken is a new personal access token with its secret, shown once.
type createdToken struct {
	engine.Token
	Secret string `json:"secret"`
}

// listTokens serves GET /v1/tokens: the tenant's tokens, without secrets.
func (a *api) listTokens(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	page, err := a.ids.ListTokens(r.Context(), principal(r))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, newListBody(page))
	return nil
}

// createToken serves POST /v1/tokens: 201 with the token and its secret.
func (a *api) createToken(w http.ResponseWriter, r *http.Request) error {
	var in identity.CreateTokenInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	it, err := a.ids.CreateToken(r.Context(), principal(r), in)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusCreated, createdToken{Token: it.Token, Secret: it.Secret})
	return nil
}

// revokeToken serves DELETE /v1/tokens/{id}: 204.
func (a *api) revokeToken(w http.ResponseWriter, r *http.Request) error {
	if err := a.ids.RevokeToken(r.Context(), principal(r), r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// createdClient is a new OAuth client with its secret, shown once.
type createdClient struct {
	identity.OAuthClient
	ClientSecret string `json:"client_secret"`
}

// listOAuthClients serves GET /v1/oauth_clients: the tenant's live clients.
func (a *api) listOAuthClients(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	page, err := a.ids.ListOAuthClients(r.Context(), principal(r))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, newListBody(page))
	return nil
}

// createOAuthClient serves POST /v1/oauth_clients: 201 with the client and
// its secret.
func (a *api) createOAuthClient(w http.ResponseWriter, r *http.Request) error {
	var in identity.CreateOAuthClientInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	ic, err := a.ids.CreateOAuthClient(r.Context(), principal(r), in)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusCreated, createdClient{OAuthClient: ic.Client, ClientSecret: ic.Secret})
	return nil
}

// revokeOAuthClient serves DELETE /v1/oauth_clients/{id}: 204; the
// client's tokens stop working too.
func (a *api) revokeOAuthClient(w http.ResponseWriter, r *http.Request) error {
	if err := a.ids.RevokeOAuthClient(r.Context(), principal(r), r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
