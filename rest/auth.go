package rest

import (
	"net/http"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// errUnauthorized is the answer for a missing or malformed Authorization
// header; the Service answers the same for unknown and revoked tokens.
var errUnauthorized = engine.Errorf(engine.CodeUnauthorized,
	"send Authorization: Bearer <token> with a valid personal access token")

// bearer returns the token of an "Authorization: Bearer <token>" header
// (the scheme is case-insensitive, RFC 7235), and false when the header is
// missing, repeated or not a bearer credential.
func bearer(r *http.Request) (string, bool) {
	hs := r.Header.Values("Authorization")
	if len(hs) != 1 {
		return "", false
	}
	scheme, token, ok := strings.Cut(hs[0], " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimLeft(token, " ")
	if token == "" || strings.ContainsAny(token, " \t") {
		return "", false
	}
	return token, true
}

// authenticated wraps h so that it runs only for a caller with a valid
// token: the Principal goes into the request context, the token id into the
// access log, and then the Limiter (when configured) has its say. A request
// that already carries a Principal (set by an earlier authentication layer)
// is not authenticated again.
func (a *api) authenticated(h handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		p, ok := PrincipalFrom(r.Context())
		if !ok {
			token, ok := bearer(r)
			if !ok {
				return a.anonymous(rejected(errUnauthorized))(w, r)
			}
			var err error
			start := a.cfg.Now()
			p, err = a.ids.Authenticate(r.Context(), token)
			a.metrics.observeAuth(a.cfg.Now().Sub(start), err)
			if err != nil {
				if engine.ErrorCode(err) == engine.CodeUnauthorized {
					// Bad tokens count against the address's budget.
					return a.anonymous(rejected(err))(w, r)
				}
				return err
			}
			r = r.WithContext(WithPrincipal(r.Context(), p))
		}
		infoFrom(r.Context()).tokenID = p.TokenID
		if a.cfg.Limiter != nil {
			if err := a.cfg.Limiter.Allow(r, p, w.Header()); err != nil {
				return err
			}
		}
		return a.withIdempotency(w, r, p, h)
	}
}

// principal returns the request's caller; handlers behind authenticated
// always have one, and the Service rejects the zero Principal anyway.
func principal(r *http.Request) engine.Principal {
	p, _ := PrincipalFrom(r.Context())
	return p
}

// rejected is a handler that answers err (after anonymous has counted it).
func rejected(err error) handlerFunc {
	return func(http.ResponseWriter, *http.Request) error { return err }
}
