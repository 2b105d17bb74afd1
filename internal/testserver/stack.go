package testserver

import (
	"context"
	"log/slog"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/audit"
	"github.com/fourd-dev/fourd/engine/dashboard"
	"github.com/fourd-dev/fourd/engine/exports"
	"github.com/fourd-dev/fourd/engine/findings"
	"github.com/fourd-dev/fourd/engine/idempotency"
	"github.com/fourd-dev/fourd/engine/identity"
	"github.com/fourd-dev/fourd/engine/ingest"
	"github.com/fourd-dev/fourd/engine/mutes"
	"github.com/fourd-dev/fourd/engine/policies"
	"github.com/fourd-dev/fourd/engine/posture"
	"github.com/fourd-dev/fourd/engine/reporting"
	"github.com/fourd-dev/fourd/engine/triage"
	"github.com/fourd-dev/fourd/engine/webhooks"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
	"github.com/fourd-dev/fourd/store/postgres"
	"github.com/fourd-dev/fourd/store/postgres/pgtest"
	"github.com/fourd-dev/fourd/store/storemetrics"
	"github.com/fourd-dev/fourd/webhook"
)

// Secret is the stacks' FOURD_SECRET (cursors, token hashes, webhook
// list cursors).
var Secret = []byte("fourd test secret, at least thirty-two bytes")

// WebhookMaster is the key the stacks seal webhook signing secrets with.
var WebhookMaster = []byte("fourd webhook test master key, at least 32 bytes")

// Stack is fourd's services over a test's own ClickHouse and PostgreSQL
// databases.
type Stack struct {
	CH     *clickhouse.Store
	PG     *postgres.Store
	Clock  *Clock
	Logger *slog.Logger
	Services
	opts Options
}

// Services are the services one fourd replica holds over a Stack's stores.
type Services struct {
	// Config is the engine configuration Engine was built with.
	Config findings.Config
	Engine *findings.Service
	// Upkeep is Engine's operator surface (its sweeps and change feed), as
	// serve's workers hold it.
	Upkeep *findings.Operator
	// Audits starts and cancels audits over Engine's read path;
	// AuditRunner runs claimed ones, as serve's audit workers do.
	Audits      *audit.Service
	AuditRunner *audit.Operator
	// Reporting lists, generates and serves reports; ReportRunner
	// generates queued ones, as serve's report workers do when the stack
	// has a Renderer. Posture judges compliance (and records each
	// completed audit's posture). Both read open counts through Engine's
	// read path.
	Reporting    *reporting.Service
	ReportRunner *reporting.Operator
	Posture      *posture.Service
	// Dashboard ranks open findings through Engine's read path.
	Dashboard *dashboard.Service
	// Policies keeps custom policies.
	Policies *policies.Service
	// Exports streams exports through Engine's read path.
	Exports *exports.Service
	// Triage changes findings through Engine's read path.
	Triage *triage.Service
	// Idempotency keeps Idempotency-Key records.
	Idempotency *idempotency.Service
	// Mutes keeps mute rules, applied through Engine's read path.
	Mutes    *mutes.Service
	Identity *identity.Service
	// Operator is the identity operator surface, as cmd/fourd holds it.
	Operator *identity.Operator
	Ingest   *ingest.Service
	Webhooks *webhooks.Service
	// StopFollowing stops following the change feed (a no-op when the
	// services do not follow it).
	StopFollowing func()
}

// New opens fresh stores (the test is skipped when they are down, and
// fails under CI=true) and builds the services over them.
func New(t testing.TB, o Options) *Stack {
	t.Helper()
	if o.Clock == nil {
		o.Clock = &Clock{}
	}
	s := &Stack{CH: o.ClickHouse, Clock: o.Clock, Logger: slog.New(slog.DiscardHandler), opts: o}
	if s.CH == nil {
		s.CH = chtest.New(t)
	}
	pcfg := postgres.Config{}
	if o.ClockedPostgres {
		pcfg.Now = o.Clock.Now
	}
	s.PG = pgtest.Open(t, pcfg)
	if o.Registry != nil {
		m := storemetrics.New(o.Registry)
		s.CH.SetMetrics(m)
		s.PG.SetMetrics(m)
	}
	s.Services = s.NewServices(t, Replica{FollowChanges: o.FollowChanges})
	return s
}

// EngineConfig is the engine configuration of `fourd serve` over the
// stack's stores, without the change feed.
func (s *Stack) EngineConfig() findings.Config {
	ch, pg := s.CH, s.PG
	return findings.Config{
		Findings: ch, Resources: ch, Tenants: pg, Audits: pg,
		Snapshots: ch, Trends: ch, Evaluators: audit.New(nil), Overrides: pg,
		MuteRules: pg, MuteMatches: ch,
		Events: pg, EventLog: ch, Sweeper: pg, Analytics: ch, Catalog: audit.NewCatalog(),
		Secret: Secret, Logger: s.Logger, Now: s.Clock.Now,
	}
}

// ReportingConfig is the report configuration of `fourd serve` over the
// stack's stores and the engine configuration ecfg, reading open counts
// through reads; with renderer (reports.Renderer{} in the suites), report
// generation and workers, else reports are listed only.
func (s *Stack) ReportingConfig(ecfg findings.Config, reads reporting.Reads, renderer engine.ReportRenderer) reporting.Config {
	c := reporting.Config{Reports: s.PG, Audits: ecfg.Audits, Reads: reads, Resources: ecfg.Resources,
		Analytics: s.CH, Catalog: ecfg.Catalog, Snapshots: ecfg.Snapshots, Trends: ecfg.Trends,
		Secret: ecfg.Secret, Logger: ecfg.Logger, Now: ecfg.Now}
	if ex, ok := ecfg.Evaluators.(engine.Explainer); ok {
		c.Explainer = ex
	}
	if renderer != nil {
		c.Jobs, c.Queue, c.Renderer, c.Lease = s.PG, s.PG, renderer, s.opts.ReportLease
	}
	return c
}

// NewServices builds another replica's services over the stack's stores,
// as cmd/fourd does: the Options' Engine hook, then r's, change the engine
// configuration, then the Options' Stores hook the other services' stores;
// the identity service hears the engine's change feed through its Operator.
func (s *Stack) NewServices(t testing.TB, r Replica) Services {
	t.Helper()
	ecfg := s.EngineConfig()
	if s.opts.Engine != nil {
		s.opts.Engine(&ecfg)
	}
	if r.Engine != nil {
		r.Engine(&ecfg)
	}
	st := Stores{Policies: s.PG, Inventory: s.CH, Decisions: s.PG, MuteRules: s.PG}
	if s.opts.Stores != nil {
		s.opts.Stores(&st)
	}
	var feed *SignalFeed
	if r.FollowChanges {
		feed = NewSignalFeed(s.PG)
		ecfg.Changes = feed
	}
	ttl := s.opts.TokenCacheTTL
	if r.TokenCacheTTL != 0 {
		ttl = r.TokenCacheTTL
	}
	var store identity.Store = s.PG
	if s.opts.NoUserStore {
		store = nil
	}
	ids, ops, err := identity.New(identity.Config{Tenants: ecfg.Tenants, Store: store, Secret: ecfg.Secret,
		TokenCacheTTL: ttl, Logger: ecfg.Logger, Now: ecfg.Now})
	if err != nil {
		t.Fatal(err)
	}
	ecfg.ChangeListeners = append(ecfg.ChangeListeners, ops)
	svc, upkeep, err := findings.New(ecfg)
	if err != nil {
		t.Fatal(err)
	}
	renderer := s.opts.Renderer
	if r.Renderer != nil {
		renderer = r.Renderer
	}
	rcfg := s.ReportingConfig(ecfg, svc.CountReads(), renderer)
	if s.opts.Reporting != nil {
		s.opts.Reporting(&rcfg)
	}
	reps, reportRunner, err := reporting.New(rcfg)
	if err != nil {
		t.Fatal(err)
	}
	judge, recorder, err := posture.New(posture.Config{Audits: ecfg.Audits, Reads: svc.CountReads(), Types: s.CH,
		Catalog: ecfg.Catalog, Postures: s.PG, Secret: ecfg.Secret, Logger: ecfg.Logger, Now: ecfg.Now})
	if err != nil {
		t.Fatal(err)
	}
	ranks, err := dashboard.New(dashboard.Config{Reads: svc.CountReads(), Analytics: s.CH, Catalog: ecfg.Catalog})
	if err != nil {
		t.Fatal(err)
	}
	mc, _ := ecfg.Evaluators.(engine.MuteCompiler)
	mutesSvc, err := mutes.New(mutes.Config{Rules: st.MuteRules, Compiler: mc, Reads: svc.MuteReads(),
		Secret: ecfg.Secret, Logger: ecfg.Logger, Now: ecfg.Now})
	if err != nil {
		t.Fatal(err)
	}
	checker, _ := ecfg.Evaluators.(policies.Checker)
	pols, err := policies.New(policies.Config{Store: st.Policies, Checker: checker, Inventory: st.Inventory,
		Secret: ecfg.Secret, Now: ecfg.Now})
	if err != nil {
		t.Fatal(err)
	}
	// One page size for both exports: the hook that pages findings exports
	// small pages resource exports alike.
	exps, err := exports.New(exports.Config{Reads: svc.ExportReads(), Resources: ecfg.Resources, PageSize: ecfg.ExportPageSize, Now: ecfg.Now})
	if err != nil {
		t.Fatal(err)
	}
	tri, err := triage.New(triage.Config{Reads: svc.TriageReads(), Decisions: st.Decisions, Users: s.PG,
		Audits: ecfg.Audits, Snapshots: ecfg.Snapshots, Secret: ecfg.Secret, Now: ecfg.Now})
	if err != nil {
		t.Fatal(err)
	}
	idem, err := idempotency.New(idempotency.Config{Store: s.PG, Secret: ecfg.Secret, Now: ecfg.Now})
	if err != nil {
		t.Fatal(err)
	}
	audits, auditRunner, err := audit.NewService(audit.Config{Audits: ecfg.Audits, Snapshots: ecfg.Snapshots, Inventory: st.Inventory,
		Queue: s.PG, Evaluators: ecfg.Evaluators, Findings: ecfg.Findings, Resources: ecfg.Resources,
		Reads: svc.AuditReads(), Postures: recorder, Events: ecfg.Events, EventLog: ecfg.EventLog, Logger: ecfg.Logger, Now: ecfg.Now})
	if err != nil {
		t.Fatal(err)
	}
	ing, err := ingest.New(ingest.Config{Resources: ecfg.Resources, Events: ecfg.Events, EventLog: ecfg.EventLog,
		Logger: ecfg.Logger, Now: ecfg.Now})
	if err != nil {
		t.Fatal(err)
	}
	policy := webhook.AddressPolicy{AllowLoopbackHTTP: true}
	hooks, err := webhooks.New(webhooks.Config{Store: s.PG, CheckURL: policy.ValidateURL, NewSecret: webhook.NewSigningSecret,
		Seal:   func(secret string) (string, error) { return webhook.SealSecret(WebhookMaster, secret) },
		Secret: ecfg.Secret, Now: ecfg.Now})
	if err != nil {
		t.Fatal(err)
	}
	stop := func() {}
	if feed != nil {
		stop = FollowChanges(t, upkeep, feed)
	}
	return Services{Config: ecfg, Engine: svc, Upkeep: upkeep, Audits: audits, AuditRunner: auditRunner, Reporting: reps, ReportRunner: reportRunner, Posture: judge, Dashboard: ranks, Policies: pols, Exports: exps, Triage: tri, Idempotency: idem, Mutes: mutesSvc, Identity: ids, Operator: ops, Ingest: ing, Webhooks: hooks, StopFollowing: stop}
}

// IssueToken issues a token through the operator surface (creating the
// tenant and user when missing).
func (s *Stack) IssueToken(t testing.TB, slug, email string, role engine.Role, scopes ...engine.Scope) identity.IssuedToken {
	t.Helper()
	it, err := s.Operator.IssueToken(context.Background(), identity.IssueTokenInput{TenantSlug: slug, Email: email,
		Role: role, Scopes: scopes, Name: "test"})
	if err != nil {
		t.Fatalf("IssueToken(%s, %s): %v", slug, email, err)
	}
	return it
}
