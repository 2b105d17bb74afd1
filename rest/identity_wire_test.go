package rest

import (
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
	"github.com/fourd-dev/fourd/engine/ingest"
)

// wireIdentity builds the identity service and its operator surface as
// cmd/fourd does: over ecfg's tenant store and
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

// wireIngest builds the ingest service as cmd/fourd does: over ecfg's
// resource store (instrumented when ecfg is), outbox and event log, with
// ecfg's logger and clock.
func wireIngest(t testing.TB, ecfg engine.Config) *ingest.Service {
	t.Helper()
	s, err := ingest.New(ingest.Config{Resources: ecfg.Resources, Events: ecfg.Events, EventLog: ecfg.EventLog,
		Logger: ecfg.Logger, Now: ecfg.Now})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
