package rest

import (
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
)

// oauthError is how an engine error code is answered on /oauth/*: the
// RFC 6749 code (§5.2, and §4.1.2.1's server_error and
// temporarily_unavailable for what §5.2 has no code for) and the HTTP
// status. Codes missing here are internal: 500 server_error.
var oauthError = map[string]struct {
	code   string
	status int
}{
	engine.CodeInvalidRequest:       {engine.CodeInvalidRequest, http.StatusBadRequest},
	engine.CodeInvalidClient:        {engine.CodeInvalidClient, http.StatusUnauthorized},
	engine.CodeInvalidGrant:         {engine.CodeInvalidGrant, http.StatusBadRequest},
	engine.CodeUnauthorizedClient:   {engine.CodeUnauthorizedClient, http.StatusBadRequest},
	engine.CodeUnsupportedGrantType: {engine.CodeUnsupportedGrantType, http.StatusBadRequest},
	engine.CodeInvalidScope:         {engine.CodeInvalidScope, http.StatusBadRequest},
	engine.CodeValidationFailed:     {engine.CodeInvalidRequest, http.StatusBadRequest},
	engine.CodeNotFound:             {engine.CodeInvalidRequest, http.StatusNotFound},
	engine.CodeMethodNotAllowed:     {engine.CodeInvalidRequest, http.StatusMethodNotAllowed},
	engine.CodePayloadTooLarge:      {engine.CodeInvalidRequest, http.StatusRequestEntityTooLarge},
	engine.CodeUnauthorized:         {engine.CodeInvalidClient, http.StatusUnauthorized},
	engine.CodeRateLimited:          {engine.CodeTemporarilyUnavailable, http.StatusTooManyRequests},
	engine.CodeUnavailable:          {engine.CodeTemporarilyUnavailable, http.StatusServiceUnavailable},
}

// oauthErrorBody is an error answer of the OAuth endpoints: RFC 6749 §5.2's
// members, which OAuth libraries parse, and the request id.
type oauthErrorBody struct {
	Error            string `json:"error"`
	ErrorDescription string `json:"error_description"`
	RequestID        string `json:"request_id"`
}

// isOAuthPath reports whether a request path belongs to the OAuth
// endpoints, whose JSON errors are RFC 6749 bodies rather than the /v1
// envelope.
func isOAuthPath(p string) bool { return strings.HasPrefix(p, "/oauth/") }

// oauthEndpoint adapts the token, revocation and introspection endpoints:
// limited per client address, never cached; serveError answers their
// errors as RFC 6749 bodies.
func (a *api) oauthEndpoint(h handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Pragma", "no-cache")
		return a.anonymous(h)(w, r)
	}
}

// serveOAuthError answers an error of an /oauth/* endpoint with an RFC 6749
// §5.2 body. invalid_client is 401 with WWW-Authenticate: Basic (§5.2: the
// scheme the client may use); internal errors are logged with the request
// id and answered with a generic description.
func (a *api) serveOAuthError(w http.ResponseWriter, r *http.Request, err error) {
	code := engine.ErrorCode(err)
	msg := engine.ErrorMessage(err)
	info := infoFrom(r.Context())
	oe, ok := oauthError[code]
	if !ok {
		code, oe = engine.CodeInternal, struct {
			code   string
			status int
		}{engine.CodeServerError, http.StatusInternalServerError}
	}
	if oe.status >= 500 {
		a.log.ErrorContext(r.Context(), "request failed", "request_id", info.requestID,
			"method", r.Method, "path", r.URL.Path, "code", code, "err", err)
		if code == engine.CodeInternal {
			msg = "internal error; quote the request id to support"
		}
	}
	if oe.code == engine.CodeInvalidClient {
		w.Header().Set("WWW-Authenticate", `Basic realm="fourd"`)
	}
	w.Header().Set("Cache-Control", "no-store")
	info.errCode = code
	writeJSON(w, oe.status, oauthErrorBody{Error: oe.code, ErrorDescription: msg, RequestID: info.requestID})
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
func clientCredentials(r *http.Request, form url.Values) (identity.ClientCredentials, error) {
	id, secret, basic := r.BasicAuth()
	if basic {
		if form.Has("client_secret") {
			return identity.ClientCredentials{}, engine.Errorf(engine.CodeInvalidRequest,
				"authenticate the client one way: HTTP Basic or client_secret, not both")
		}
		uid, err1 := url.QueryUnescape(id)
		usecret, err2 := url.QueryUnescape(secret)
		if err1 != nil || err2 != nil {
			return identity.ClientCredentials{}, engine.Errorf(engine.CodeInvalidClient, "client authentication failed")
		}
		if fid := form.Get("client_id"); fid != "" && fid != uid {
			return identity.ClientCredentials{}, engine.Errorf(engine.CodeInvalidRequest, "client_id differs from the HTTP Basic user")
		}
		return identity.ClientCredentials{ID: uid, Secret: usecret}, nil
	}
	if form.Get("client_id") == "" || form.Get("client_secret") == "" {
		return identity.ClientCredentials{}, engine.Errorf(engine.CodeInvalidClient,
			"client authentication failed: send client_id and client_secret, or HTTP Basic")
	}
	return identity.ClientCredentials{ID: form.Get("client_id"), Secret: form.Get("client_secret")}, nil
}

// oauthToken serves POST /oauth/token: grant_type authorization_code,
// refresh_token or client_credentials; the answer is RFC 6749 §5.1's.
func (a *api) oauthToken(w http.ResponseWriter, r *http.Request) error {
	form, err := parseForm(r)
	if err != nil {
		return err
	}
	grant := form.Get("grant_type")
	if grant == "" {
		return engine.Errorf(engine.CodeInvalidRequest, "grant_type is required")
	}
	if grant != "authorization_code" && grant != "refresh_token" && grant != "client_credentials" {
		return engine.Errorf(engine.CodeUnsupportedGrantType,
			"grant_type must be authorization_code, refresh_token or client_credentials")
	}
	cc, err := clientCredentials(r, form)
	if err != nil {
		return err
	}
	var resp identity.TokenResponse
	switch grant {
	case "authorization_code":
		resp, err = a.ids.ExchangeAuthorizationCode(r.Context(), identity.ExchangeCodeInput{Client: cc,
			Code: form.Get("code"), RedirectURI: form.Get("redirect_uri"), CodeVerifier: form.Get("code_verifier")})
	case "refresh_token":
		resp, err = a.ids.RefreshAccessToken(r.Context(), identity.RefreshInput{Client: cc,
			RefreshToken: form.Get("refresh_token"), Scope: form.Get("scope")})
	default:
		resp, err = a.ids.IssueClientCredentialsToken(r.Context(), identity.ClientCredentialsInput{Client: cc,
			Scope: form.Get("scope")})
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
	if err := a.ids.RevokeOAuthCredential(r.Context(), cc, form.Get("token")); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, struct{}{})
	return nil
}
