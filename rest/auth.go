package rest

import (
	"net/http"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/gate"
)

// newGate is the REST side of the one gate both APIs share (internal/gate):
// tokens checked by Identity, timed into the authentication histogram,
// requests counted by Limiter.
func (a *api) newGate() *gate.Gate {
	return &gate.Gate{Identity: a.ids, Limiter: a.cfg.Limiter, Observe: a.metrics.observeAuth, Now: a.cfg.Now}
}

// authenticated wraps h so that it runs only for a caller the gate admits:
// the Principal goes into the request context (engine's key, which an
// earlier authentication layer may already have set), the token id into
// the access log, and the Limiter (when configured) has had its say.
func (a *api) authenticated(h handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		ctx, p, err := a.gate.Admit(r, w.Header())
		if err != nil {
			return err
		}
		r = r.WithContext(ctx)
		infoFrom(ctx).tokenID = p.TokenID
		return a.withIdempotency(w, r, p, h)
	}
}

// principal returns the request's caller; handlers behind authenticated
// always have one, and the Service rejects the zero Principal anyway.
func principal(r *http.Request) engine.Principal {
	return engine.PrincipalFromContext(r.Context())
}
