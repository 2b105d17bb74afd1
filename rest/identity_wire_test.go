package rest

import (
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
)

// wireIdentity builds the identity service and its operator surface as
// cmd/fourd does: over ecfg's tenant store (instrumented when ecfg is) and
// store, with ecfg's secret, logger and clock, and listening to ecfg's change
// feed. store may be nil (no sign-in or OAuth); ttl 0 is the default cache.
func wireIdentity(t testing.TB, ecfg *engine.Config, store identity.Store, ttl time.Duration) (*identity.Service, *identity.Operator) {
	t.Helper()
	ids, ops, err := identity.New(identity.Config{Tenants: ecfg.Tenants, Store: store, Secret: ecfg.Secret,
		TokenCacheTTL: ttl, Logger: ecfg.Logger, Now: ecfg.Now})
	if err != nil {
		t.Fatal(err)
	}
	ecfg.ChangeListeners = append(ecfg.ChangeListeners, ids)
	return ids, ops
}
