package rest

import (
	"io"
	"mime"
	"net/http"
	"net/url"

	"github.com/fourd-dev/fourd/engine"
)

// oauthStatus maps the token endpoint's error codes to HTTP statuses
// (RFC 6749 §5.2: 400, and 401 for invalid_client).
var oauthStatus = map[string]int{
	engine.CodeInvalidRequest:       http.StatusBadRequest,
	engine.CodeInvalidClient:        http.StatusUnauthorized,
	engine.CodeInvalidGrant:         http.StatusBadRequest,
	engine.CodeUnsupportedGrantType: http.StatusBadRequest,
	engine.CodeInvalidScope:         http.StatusBadRequest,
	engine.CodePayloadTooLarge:      http.StatusRequestEntityTooLarge,
	engine.CodeRateLimited:          http.StatusTooManyRequests,
	engine.CodeUnavailable:          http.StatusServiceUnavailable,
}

// oauthEndpoint adapts the token and revocation endpoints: limited per
// client address, never cached, and errors in the envelope with the
// RFC 6749 codes.
func (a *api) oauthEndpoint(h handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Pragma", "no-cache")
		err := a.anonymous(h)(w, r)
		if err != nil {
			a.serveOAuthError(w, r, err)
		}
		return nil
	}
}

// serveOAuthError answers an error of the token or revocation endpoint.
func (a *api) serveOAuthError(w http.ResponseWriter, r *http.Request, err error) {
	code := engine.ErrorCode(err)
	status, ok := oauthStatus[code]
	if !ok {
		a.serveError(w, r, err) // internal errors: logged, generic message
		return
	}
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="fourd"`)
	}
	info := infoFrom(r.Context())
	info.errCode = code
	writeJSON(w, status, errorBody{Error: errorDetail{Code: code, Message: engine.ErrorMessage(err), RequestID: info.requestID}})
}

// parseForm reads an application/x-www-form-urlencoded body, as RFC 6749
// requires of the token endpoint. JSON and other types are invalid_request;
// a parameter sent twice is invalid_request (§3.2).
func parseForm(r *http.Request) (url.Values, error) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/x-www-form-urlencoded" {
		return nil, engine.Errorf(engine.CodeInvalidRequest,
			"send the parameters as form fields (Content-Type: application/x-www-form-urlencoded)")
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		if isMaxBytes(err) {
			return nil, errTooLarge(err)
		}
		return nil, engine.Errorf(engine.CodeInvalidRequest, "the request body could not be read")
	}
	vs, err := url.ParseQuery(string(body))
	if err != nil {
		return nil, engine.Errorf(engine.CodeInvalidRequest, "the form body is malformed")
	}
	for name, v := range vs {
		if len(v) > 1 {
			return nil, engine.Errorf(engine.CodeInvalidRequest, "parameter %s is repeated", truncate(name, 40))
		}
	}
	return vs, nil
}

// clientCredentials returns the client's id and secret from HTTP Basic
// (form-encoded parts, RFC 6749 §2.3.1) or from the form fields. Using both
// is invalid_request; neither is invalid_client.
func clientCredentials(r *http.Request, form url.Values) (engine.ClientCredentials, error) {
	id, secret, basic := r.BasicAuth()
	if basic {
		if form.Has("client_secret") {
			return engine.ClientCredentials{}, engine.Errorf(engine.CodeInvalidRequest,
				"authenticate the client one way: HTTP Basic or client_secret, not both")
		}
		uid, err1 := url.QueryUnescape(id)
		usecret, err2 := url.QueryUnescape(secret)
		if err1 != nil || err2 != nil {
			return engine.ClientCredentials{}, engine.Errorf(engine.CodeInvalidClient, "client authentication failed")
		}
		if fid := form.Get("client_id"); fid != "" && fid != uid {
			return engine.ClientCredentials{}, engine.Errorf(engine.CodeInvalidRequest, "client_id differs from the HTTP Basic user")
		}
		return engine.ClientCredentials{ID: uid, Secret: usecret}, nil
	}
	if form.Get("client_id") == "" || form.Get("client_secret") == "" {
		return engine.ClientCredentials{}, engine.Errorf(engine.CodeInvalidClient,
			"client authentication failed: send client_id and client_secret, or HTTP Basic")
	}
	return engine.ClientCredentials{ID: form.Get("client_id"), Secret: form.Get("client_secret")}, nil
}

// oauthToken serves POST /oauth/token: grant_type authorization_code or
// refresh_token; the answer is RFC 6749 §5.1's.
func (a *api) oauthToken(w http.ResponseWriter, r *http.Request) error {
	form, err := parseForm(r)
	if err != nil {
		return err
	}
	grant := form.Get("grant_type")
	if grant == "" {
		return engine.Errorf(engine.CodeInvalidRequest, "grant_type is required")
	}
	if grant != "authorization_code" && grant != "refresh_token" {
		return engine.Errorf(engine.CodeUnsupportedGrantType, "grant_type must be authorization_code or refresh_token")
	}
	cc, err := clientCredentials(r, form)
	if err != nil {
		return err
	}
	var resp engine.TokenResponse
	if grant == "authorization_code" {
		resp, err = a.svc.ExchangeAuthorizationCode(r.Context(), engine.ExchangeCodeInput{Client: cc,
			Code: form.Get("code"), RedirectURI: form.Get("redirect_uri"), CodeVerifier: form.Get("code_verifier")})
	} else {
		resp, err = a.svc.RefreshAccessToken(r.Context(), engine.RefreshInput{Client: cc,
			RefreshToken: form.Get("refresh_token"), Scope: form.Get("scope")})
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, resp)
	return nil
}

// oauthRevoke serves POST /oauth/revoke (RFC 7009): 200 for any token of
// the client, unknown ones included.
func (a *api) oauthRevoke(w http.ResponseWriter, r *http.Request) error {
	form, err := parseForm(r)
	if err != nil {
		return err
	}
	cc, err := clientCredentials(r, form)
	if err != nil {
		return err
	}
	if err := a.svc.RevokeOAuthCredential(r.Context(), cc, form.Get("token")); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, struct{}{})
	return nil
}
