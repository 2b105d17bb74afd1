package rest

import (
	"net/http"

	"github.com/fourd-dev/fourd/engine"
)

// oauthIntrospect serves POST /oauth/introspect (RFC 7662): for an
// authenticated client, whether a token is active and what it grants.
func (a *api) oauthIntrospect(w http.ResponseWriter, r *http.Request) error {
	form, err := parseForm(r)
	if err != nil {
		return err
	}
	cc, err := clientCredentials(r, form)
	if err != nil {
		return err
	}
	// token_type_hint is not needed: the token's prefix tells its kind.
	in, err := a.ids.IntrospectToken(r.Context(), cc, form.Get("token"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, in)
	return nil
}

// authServerMetadata is RFC 8414's authorization server metadata.
type authServerMetadata struct {
	Issuer                           string   `json:"issuer"`
	AuthorizationEndpoint            string   `json:"authorization_endpoint"`
	TokenEndpoint                    string   `json:"token_endpoint"`
	RevocationEndpoint               string   `json:"revocation_endpoint"`
	IntrospectionEndpoint            string   `json:"introspection_endpoint"`
	ScopesSupported                  []string `json:"scopes_supported"`
	ResponseTypesSupported           []string `json:"response_types_supported"`
	ResponseModesSupported           []string `json:"response_modes_supported"`
	GrantTypesSupported              []string `json:"grant_types_supported"`
	TokenEndpointAuthMethods         []string `json:"token_endpoint_auth_methods_supported"`
	RevocationEndpointAuthMethods    []string `json:"revocation_endpoint_auth_methods_supported"`
	IntrospectionEndpointAuthMethods []string `json:"introspection_endpoint_auth_methods_supported"`
	CodeChallengeMethodsSupported    []string `json:"code_challenge_methods_supported"`
	ServiceDocumentation             string   `json:"service_documentation"`
}

// oauthMetadata serves GET /.well-known/oauth-authorization-server
// (RFC 8414). The issuer is the URL the request reached (its scheme from
// TLS, or X-Forwarded-Proto when FOURD_TRUST_PROXY is set), so every
// endpoint is named as the client sees the server.
func (a *api) oauthMetadata(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	scheme := "http"
	if r.TLS != nil || r.URL.Scheme == "https" {
		scheme = "https"
	}
	issuer := scheme + "://" + r.Host
	scopes := make([]string, len(engine.AllScopes))
	for i, s := range engine.AllScopes {
		scopes[i] = string(s)
	}
	auth := []string{"client_secret_basic", "client_secret_post"}
	w.Header().Set("Cache-Control", "public, max-age=300")
	writeJSON(w, http.StatusOK, authServerMetadata{
		Issuer:                           issuer,
		AuthorizationEndpoint:            issuer + "/oauth/authorize",
		TokenEndpoint:                    issuer + "/oauth/token",
		RevocationEndpoint:               issuer + "/oauth/revoke",
		IntrospectionEndpoint:            issuer + "/oauth/introspect",
		ScopesSupported:                  scopes,
		ResponseTypesSupported:           []string{"code"},
		ResponseModesSupported:           []string{"query"},
		GrantTypesSupported:              []string{"authorization_code", "refresh_token", "client_credentials"},
		TokenEndpointAuthMethods:         auth,
		RevocationEndpointAuthMethods:    auth,
		IntrospectionEndpointAuthMethods: auth,
		CodeChallengeMethodsSupported:    []string{"S256"},
		ServiceDocumentation:             issuer + "/v1/openapi.json",
	})
	return nil
}
