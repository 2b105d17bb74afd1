package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

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
	"github.com/fourd-dev/fourd/reports"
	chstore "github.com/fourd-dev/fourd/store/clickhouse"
	pgstore "github.com/fourd-dev/fourd/store/postgres"
	"github.com/fourd-dev/fourd/store/storemetrics"
	"github.com/prometheus/client_golang/prometheus"
)

// stores holds both open stores; close releases them.
type stores struct {
	ch *chstore.Store
	pg *pgstore.Store
}

func (s *stores) close() {
	if s.ch != nil {
		_ = s.ch.Close()
	}
	if s.pg != nil {
		s.pg.Close()
	}
}

// openStores connects to both stores and, when migrate is set, applies
// their migrations.
func openStores(ctx context.Context, cfg config, log *slog.Logger, migrate bool) (*stores, error) {
	var s stores
	var err error
	openCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if s.ch, err = chstore.Open(openCtx, chstore.Config{URL: cfg.ClickHouseURL, Cluster: cfg.ClickHouseCluster, Logger: log}); err != nil {
		if errors.Is(err, chstore.ErrUnknownCluster) {
			return nil, fmt.Errorf("FOURD_CLICKHOUSE_CLUSTER=%q does not name a cluster of the ClickHouse server at FOURD_CLICKHOUSE_URL: %w", cfg.ClickHouseCluster, err)
		}
		return nil, fmt.Errorf("ClickHouse at FOURD_CLICKHOUSE_URL: %w", err)
	}
	if s.pg, err = pgstore.Open(openCtx, pgstore.Config{URL: cfg.PostgresURL, Logger: log}); err != nil {
		s.close()
		return nil, fmt.Errorf("PostgreSQL at FOURD_POSTGRES_URL: %w", err)
	}
	if migrate {
		// Every command migrates: processes started at once take turns
		// (ClickHouse's migrations have no lock of their own, and some
		// copy data).
		release, err := s.pg.SessionLock(ctx, "clickhouse migrations")
		if err != nil {
			s.close()
			return nil, fmt.Errorf("migrating ClickHouse: %w", err)
		}
		err = s.ch.Migrate(ctx)
		release()
		if err != nil {
			s.close()
			return nil, fmt.Errorf("migrating ClickHouse: %w", err)
		}
		if err := s.pg.Migrate(ctx); err != nil {
			s.close()
			return nil, fmt.Errorf("migrating PostgreSQL: %w", err)
		}
	}
	return &s, nil
}

// newService builds the read path over the stores, for a command that
// runs no upkeep (its Operator is dropped).
func newService(cfg config, log *slog.Logger, s *stores, secret []byte) (*findings.Service, error) {
	svc, _, err := findings.New(engineConfig(log, s, secret))
	return svc, err
}

// engineConfig wires the stores into the engine's interfaces.
func engineConfig(log *slog.Logger, s *stores, secret []byte) findings.Config {
	return findings.Config{
		Findings: s.ch, Resources: s.ch,
		Tenants: s.pg, Audits: s.pg,
		Snapshots: s.ch, Trends: s.ch, Evaluators: audit.New(nil), Overrides: s.pg, MuteRules: s.pg, MuteMatches: s.ch,
		Events: s.pg, EventLog: s.ch, Changes: s.pg, // Changes: serve runs Operator.FollowChanges
		Sweeper: s.pg, Analytics: s.ch, Catalog: audit.NewCatalog(),
		Secret: secret, Logger: log,
	}
}

// newReporting builds the report service over the stores and svc's read
// path, with report generation, and its workers' Operator.
func newReporting(log *slog.Logger, s *stores, svc *findings.Service, secret []byte) (*reporting.Service, *reporting.Operator, error) {
	return reporting.New(reporting.Config{Reports: s.pg, Audits: s.pg, Reads: svc.CountReads(), Jobs: s.pg, Queue: s.pg,
		Renderer: reports.Renderer{}, Analytics: s.ch, Catalog: audit.NewCatalog(), Resources: s.ch, Snapshots: s.ch, Trends: s.ch,
		Explainer: audit.New(nil), Secret: secret, Logger: log})
}

// newPosture builds the compliance judge over the stores and svc's read
// path, and its Operator, which records each completed audit's posture.
func newPosture(log *slog.Logger, s *stores, svc *findings.Service, secret []byte) (*posture.Service, *posture.Operator, error) {
	return posture.New(posture.Config{Audits: s.pg, Reads: svc.CountReads(), Types: s.ch, Catalog: audit.NewCatalog(),
		Postures: s.pg, Secret: secret, Logger: log})
}

// newAudits builds the audit service over the stores and svc's read path,
// and its workers' Operator; recorder records each completed audit's
// compliance posture.
func newAudits(log *slog.Logger, s *stores, svc *findings.Service, recorder *posture.Operator) (*audit.Service, *audit.Operator, error) {
	return audit.NewService(audit.Config{Audits: s.pg, Snapshots: s.ch, Inventory: s.ch, Queue: s.pg,
		Evaluators: audit.New(nil), Findings: s.ch, Resources: s.ch, Reads: svc.AuditReads(), Postures: recorder,
		Events: s.pg, EventLog: s.ch, Logger: log})
}

// newAuditing builds the read path, the compliance judge and the audit
// service over the stores, for the commands that run audits.
func newAuditing(cfg config, log *slog.Logger, s *stores) (*findings.Service, *audit.Service, error) {
	secret := cfg.secretOrEphemeral()
	svc, err := newService(cfg, log, s, secret)
	if err != nil {
		return nil, nil, err
	}
	_, recorder, err := newPosture(log, s, svc, secret)
	if err != nil {
		return nil, nil, err
	}
	audits, _, err := newAudits(log, s, svc, recorder)
	return svc, audits, err
}

func migrate(ctx context.Context, cfg config, log *slog.Logger, stdout io.Writer) error {
	s, err := openStores(ctx, cfg, log, true)
	if err != nil {
		return err
	}
	defer s.close()
	fmt.Fprintln(stdout, "migrations applied to ClickHouse and PostgreSQL")
	return nil
}

// newIngest builds the inventory intake over the stores.
func newIngest(log *slog.Logger, s *stores) (*ingest.Service, error) {
	return ingest.New(ingest.Config{Resources: s.ch, Events: s.pg, EventLog: s.ch, Logger: log})
}

// apiServices are the services the API adapters take, and the operators
// serve's workers run and no adapter takes: the read path's upkeep, the
// audit and report runners.
type apiServices struct {
	engine       *findings.Service
	upkeep       *findings.Operator
	auditRunner  *audit.Operator
	reportRunner *reporting.Operator
	audits       *audit.Service
	reporting    *reporting.Service
	posture      *posture.Service
	dashboard    *dashboard.Service
	policies     *policies.Service
	exports      *exports.Service
	triage       *triage.Service
	idem         *idempotency.Service
	mutes        *mutes.Service
	identity     *identity.Service
	webhooks     *webhooks.Service
	ingest       *ingest.Service
}

// newAPIServices builds the engine, audit, identity, webhook and ingest services
// with the stores timing their calls into reg; the identity service hears
// the engine's change feed through its Operator (token revocations by other
// processes).
func newAPIServices(cfg config, log *slog.Logger, s *stores, reg *prometheus.Registry) (apiServices, error) {
	metrics := storemetrics.New(reg)
	s.ch.SetMetrics(metrics)
	s.pg.SetMetrics(metrics)
	ec := engineConfig(log, s, cfg.Secret)
	ids, idOps, err := newIdentity(log, s, cfg.Secret)
	if err != nil {
		return apiServices{}, err
	}
	ec.ChangeListeners = []engine.ChangeListener{idOps}
	svc, upkeep, err := findings.New(ec)
	if err != nil {
		return apiServices{}, err
	}
	reps, reportRunner, err := newReporting(log, s, svc, cfg.Secret)
	if err != nil {
		return apiServices{}, err
	}
	judge, recorder, err := newPosture(log, s, svc, cfg.Secret)
	if err != nil {
		return apiServices{}, err
	}
	ranks, err := dashboard.New(dashboard.Config{Reads: svc.CountReads(), Analytics: s.ch, Catalog: audit.NewCatalog()})
	if err != nil {
		return apiServices{}, err
	}
	pols, err := policies.New(policies.Config{Store: s.pg, Checker: audit.New(nil), Inventory: s.ch, Secret: cfg.Secret})
	if err != nil {
		return apiServices{}, err
	}
	exps, err := exports.New(exports.Config{Reads: svc.ExportReads(), Resources: s.ch})
	if err != nil {
		return apiServices{}, err
	}
	tri, err := triage.New(triage.Config{Reads: svc.TriageReads(), Decisions: s.pg, Users: s.pg, Audits: s.pg, Snapshots: s.ch, Secret: cfg.Secret})
	if err != nil {
		return apiServices{}, err
	}
	idem, err := idempotency.New(idempotency.Config{Store: s.pg, Secret: cfg.Secret})
	if err != nil {
		return apiServices{}, err
	}
	rules, err := mutes.New(mutes.Config{Rules: s.pg, Compiler: audit.New(nil), Reads: svc.MuteReads(), Secret: cfg.Secret, Logger: log})
	if err != nil {
		return apiServices{}, err
	}
	audits, auditRunner, err := newAudits(log, s, svc, recorder)
	if err != nil {
		return apiServices{}, err
	}
	hooks, err := newWebhooks(cfg.Webhooks, s.pg, cfg.Secret)
	if err != nil {
		return apiServices{}, err
	}
	intake, err := newIngest(log, s)
	if err != nil {
		return apiServices{}, err
	}
	return apiServices{engine: svc, upkeep: upkeep, auditRunner: auditRunner, reportRunner: reportRunner, audits: audits, reporting: reps, posture: judge, dashboard: ranks, policies: pols, exports: exps, triage: tri, idem: idem, mutes: rules, identity: ids, webhooks: hooks, ingest: intake}, nil
}

// newIdentity builds the identity service and its operator surface over the
// stores. Only cmd/fourd holds the Operator.
func newIdentity(log *slog.Logger, s *stores, secret []byte) (*identity.Service, *identity.Operator, error) {
	return identity.New(identity.Config{Tenants: s.pg, Store: s.pg, Secret: secret, Logger: log})
}

// newOperator builds the identity operator surface for a command.
func newOperator(log *slog.Logger, s *stores, secret []byte) (*identity.Operator, error) {
	_, ops, err := newIdentity(log, s, secret)
	return ops, err
}

// operatorPrincipal is the principal a command acts as in the tenant with
// the slug (created when missing): identity.Operator's, every scope, as
// the operator of this machine.
func operatorPrincipal(ctx context.Context, cfg config, log *slog.Logger, s *stores, slug string) (engine.Principal, error) {
	ops, err := newOperator(log, s, cfg.secretOrEphemeral())
	if err != nil {
		return engine.Principal{}, err
	}
	return ops.Principal(ctx, slug)
}
