package rest

import (
	"bytes"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
)

// csrfCookie holds the browser's CSRF nonce; the consent form carries its
// HMAC (csrfToken).
const csrfCookie = "fourd_oauth_csrf"

// sessionCookie holds the consent page's signed session
// (identity.Service.ConsentSession): a browser that signed in is not asked
// for the password again until it expires. HttpOnly, SameSite=Lax (the
// page is reached by a top-level navigation from the client's site, which
// Strict would strip), Secure when served over HTTPS, and limited to
// /oauth/authorize.
const sessionCookie = "fourd_oauth_session"

// authorizeParams are the query parameters of GET /oauth/authorize, carried
// through the consent form as hidden fields.
var authorizeParams = []string{"client_id", "redirect_uri", "response_type", "scope", "state",
	"code_challenge", "code_challenge_method"}

func authorizeRequest(get func(string) string) identity.AuthorizeRequest {
	return identity.AuthorizeRequest{ClientID: get("client_id"), RedirectURI: get("redirect_uri"),
		ResponseType: get("response_type"), Scope: get("scope"), State: get("state"),
		CodeChallenge: get("code_challenge"), CodeChallengeMethod: get("code_challenge_method")}
}

// authorizePage serves GET /oauth/authorize: the sign-in and consent page,
// or, for a bad request, an error page (bad client or redirect URI: never
// redirected) or a redirect with error and state.
func (a *api) authorizePage(w http.ResponseWriter, r *http.Request) error {
	q, err := parseQuery(r, authorizeParams...)
	if err != nil {
		a.renderAuthorizeError(w, r, err)
		return nil
	}
	req := authorizeRequest(func(k string) string { return q[k] })
	g, err := a.ids.CheckAuthorizeRequest(r.Context(), req)
	if err != nil {
		a.authorizeFailed(w, r, req, g.RedirectURI, err)
		return nil
	}
	a.renderConsent(w, r, req, g, a.sessionUser(r, g), "")
	return nil
}

// sessionUser returns the email of the user the request's consent session
// signed in for the client's tenant, or "" (no session, or one that is
// forged, expired, of another tenant or of a disabled user).
func (a *api) sessionUser(r *http.Request, g identity.AuthorizeGrant) string {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return ""
	}
	u, err := a.ids.SessionUser(r.Context(), g.Client.TenantID, c.Value)
	if err != nil {
		return ""
	}
	return u.Email
}

// setSession starts the consent session of a user who signed in.
func (a *api) setSession(w http.ResponseWriter, r *http.Request, u engine.User) {
	value, exp := a.ids.ConsentSession(u)
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: value, Path: "/oauth/authorize", HttpOnly: true,
		Secure: secureRequest(r), SameSite: http.SameSiteLaxMode, Expires: exp, MaxAge: int(identity.ConsentSessionTTL / time.Second)})
}

// secureRequest reports whether the browser reached the server over HTTPS
// (directly, or through a trusted proxy that said so).
func secureRequest(r *http.Request) bool { return r.TLS != nil || r.URL.Scheme == "https" }

// authorizeDecision serves POST /oauth/authorize, the consent form:
// Approve signs the user in and redirects with a code; Deny redirects with
// error=access_denied. A wrong password or an expired form shows the page
// again with the reason.
func (a *api) authorizeDecision(w http.ResponseWriter, r *http.Request) error {
	form, err := parseForm(r)
	if err != nil {
		a.renderAuthorizeError(w, r, err)
		return nil
	}
	req := authorizeRequest(form.Get)
	g, err := a.ids.CheckAuthorizeRequest(r.Context(), req)
	if err != nil {
		a.authorizeFailed(w, r, req, g.RedirectURI, err)
		return nil
	}
	c, cerr := r.Cookie(csrfCookie)
	if cerr != nil || !a.checkCSRF(c.Value, form.Get("csrf_token")) {
		a.renderConsent(w, r, req, g, "", "This form has expired. Please sign in again.")
		return nil
	}
	if form.Get("decision") == "switch" {
		// "Not you?": end the session and ask for an email and password.
		http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/oauth/authorize", HttpOnly: true,
			Secure: secureRequest(r), SameSite: http.SameSiteLaxMode, MaxAge: -1})
		a.renderConsent(w, r, req, g, "", "")
		return nil
	}
	if form.Get("decision") != "approve" {
		a.redirectWith(w, r, g.RedirectURI, url.Values{"error": {engine.CodeAccessDenied},
			"error_description": {"the user denied the request"}, "state": {req.State}})
		return nil
	}
	var auth identity.Authorization
	withPassword := form.Get("email") != "" || form.Get("password") != ""
	if withPassword {
		auth, err = a.ids.ApproveAuthorization(r.Context(), req, form.Get("email"), form.Get("password"))
	} else {
		session := ""
		if sc, err := r.Cookie(sessionCookie); err == nil {
			session = sc.Value
		}
		auth, err = a.ids.ApproveAuthorizationInSession(r.Context(), req, session)
	}
	switch {
	case engine.ErrorCode(err) == engine.CodeUnauthorized && withPassword:
		a.renderConsent(w, r, req, g, "", "The email or password is wrong.")
	case engine.ErrorCode(err) == engine.CodeRateLimited && withPassword: // per account: identity.SignInWindow
		infoFrom(r.Context()).errCode = engine.CodeRateLimited
		msg := engine.ErrorMessage(err)
		a.renderConsentStatus(w, r, http.StatusTooManyRequests, req, g, strings.ToUpper(msg[:1])+msg[1:]+".")
	case engine.ErrorCode(err) == engine.CodeUnauthorized:
		a.renderConsent(w, r, req, g, "", "Your session has ended. Please sign in.")
	case err != nil:
		a.authorizeFailed(w, r, req, auth.RedirectURI, err)
	default:
		if withPassword {
			a.setSession(w, r, auth.User)
		}
		a.redirectWith(w, r, auth.RedirectURI, url.Values{"code": {auth.Code}, "state": {req.State}})
	}
	return nil
}

// authorizeFailed redirects an error to the client when the redirect URI
// is trusted, and shows it otherwise (RFC 6749 §4.1.2.1).
func (a *api) authorizeFailed(w http.ResponseWriter, r *http.Request, req identity.AuthorizeRequest, redirectURI string, err error) {
	code := engine.ErrorCode(err)
	if redirectURI == "" || code == engine.CodeInternal || code == engine.CodeUnavailable {
		a.renderAuthorizeError(w, r, err)
		return
	}
	a.redirectWith(w, r, redirectURI, url.Values{"error": {code},
		"error_description": {engine.ErrorMessage(err)}, "state": {req.State}})
}

// redirectWith sends the browser to a registered redirect URI with params
// added to its query (303: the browser follows with GET).
func (a *api) redirectWith(w http.ResponseWriter, r *http.Request, redirectURI string, params url.Values) {
	u, err := url.Parse(redirectURI)
	if err != nil { // registered URIs parse; this is belt and braces
		a.renderAuthorizeError(w, r, engine.Errorf(engine.CodeInternal, "bad redirect URI"))
		return
	}
	q := u.Query()
	for k, v := range params {
		if len(v) == 1 && v[0] == "" {
			continue // an absent state stays absent
		}
		q[k] = v
	}
	u.RawQuery = q.Encode()
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Location", u.String())
	w.WriteHeader(http.StatusSeeOther)
}

// consentData fills the consent page.
type consentData struct {
	ClientName string
	Scopes     []engine.Scope
	Default    bool // no scope asked: the read scopes of the user's role
	Hidden     map[string]string
	CSRF       string
	Error      string
	// SignedIn is the email of the session's user; empty: the page asks
	// for email and password.
	SignedIn string
}

// renderConsent shows the sign-in and consent page with a fresh CSRF nonce
// in a cookie and its token in the form; signedIn is the session user's
// email, who is not asked for the password.
func (a *api) renderConsent(w http.ResponseWriter, r *http.Request, req identity.AuthorizeRequest, g identity.AuthorizeGrant, signedIn, msg string) {
	a.renderConsentAs(w, r, http.StatusOK, req, g, signedIn, msg)
}

// renderConsentStatus shows the sign-in page (no session) with msg,
// answering status (429 for a throttled account).
func (a *api) renderConsentStatus(w http.ResponseWriter, r *http.Request, status int, req identity.AuthorizeRequest, g identity.AuthorizeGrant, msg string) {
	a.renderConsentAs(w, r, status, req, g, "", msg)
}

func (a *api) renderConsentAs(w http.ResponseWriter, r *http.Request, status int, req identity.AuthorizeRequest, g identity.AuthorizeGrant, signedIn, msg string) {
	nonce := engine.RandomToken(24)
	http.SetCookie(w, &http.Cookie{Name: csrfCookie, Value: nonce, Path: "/oauth/authorize", HttpOnly: true,
		Secure: secureRequest(r), SameSite: http.SameSiteStrictMode, MaxAge: 1800})
	hidden := map[string]string{}
	for _, k := range authorizeParams {
		if v := authorizeRequestField(req, k); v != "" {
			hidden[k] = v
		}
	}
	a.renderHTML(w, r, status, consentTemplate, consentData{ClientName: g.Client.Name, Scopes: g.Scopes,
		Default: len(g.Scopes) == 0, Hidden: hidden, CSRF: a.csrfToken(nonce), Error: msg, SignedIn: signedIn})
}

func authorizeRequestField(req identity.AuthorizeRequest, k string) string {
	return map[string]string{"client_id": req.ClientID, "redirect_uri": req.RedirectURI, "response_type": req.ResponseType,
		"scope": req.Scope, "state": req.State, "code_challenge": req.CodeChallenge,
		"code_challenge_method": req.CodeChallengeMethod}[k]
}

// renderAuthorizeError shows an error the browser cannot be sent back with.
func (a *api) renderAuthorizeError(w http.ResponseWriter, r *http.Request, err error) {
	code := engine.ErrorCode(err)
	status := StatusOf(err)
	msg := engine.ErrorMessage(err)
	if status >= 500 {
		a.log.ErrorContext(r.Context(), "authorize failed", "request_id", infoFrom(r.Context()).requestID, "err", err)
		msg = "Something went wrong on our side. Quote the request id to support."
	}
	infoFrom(r.Context()).errCode = code
	a.renderHTML(w, r, status, errorPageTemplate, map[string]string{"Code": code, "Message": msg,
		"RequestID": infoFrom(r.Context()).requestID})
}

// renderHTML writes a page with headers that keep it out of frames and
// caches and forbid scripts.
func (a *api) renderHTML(w http.ResponseWriter, r *http.Request, status int, t *template.Template, data any) {
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		a.serveError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}
