package rest

import (
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/audit"
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

// wireAudits builds the audit service over ecfg's stores and svc's read
// path, as cmd/fourd does, with PostgreSQL's audit queue.
func wireAudits(t testing.TB, ecfg engine.Config, svc *engine.Service, queue engine.AuditQueue) *audit.Service {
	t.Helper()
	s, err := audit.NewService(audit.Config{Audits: ecfg.Audits, Snapshots: ecfg.Snapshots, Inventory: ecfg.Inventory,
		Queue: queue, Evaluators: ecfg.Evaluators, Findings: ecfg.Findings, Resources: ecfg.Resources,
		Reads: svc.AuditReads(), Events: ecfg.Events, EventLog: ecfg.EventLog, Logger: ecfg.Logger, Now: ecfg.Now})
	if err != nil {
		t.Fatal(err)
	}
	return s
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
