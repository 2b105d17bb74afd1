package main

import (
	"github.com/fourd-dev/fourd/engine/audit"
	"github.com/fourd-dev/fourd/engine/dashboard"
	"github.com/fourd-dev/fourd/engine/findings"
	"github.com/fourd-dev/fourd/engine/idempotency"
	"github.com/fourd-dev/fourd/engine/ingest"
	"github.com/fourd-dev/fourd/engine/mutes"
	"github.com/fourd-dev/fourd/engine/policies"
	"github.com/fourd-dev/fourd/engine/posture"
	"github.com/fourd-dev/fourd/engine/reporting"
	"github.com/fourd-dev/fourd/engine/triage"
	chstore "github.com/fourd-dev/fourd/store/clickhouse"
	pgstore "github.com/fourd-dev/fourd/store/postgres"
)

// Each concern declares the store interfaces it calls (issue 30 §1); these
// assertions make a store method that drifts from one fail the build here.
// The interfaces several concerns share (engine.FindingStore,
// engine.AuditStore, …) are asserted in the stores.
var (
	_ findings.Analytics       = (*chstore.Store)(nil)
	_ findings.TrendStore      = (*chstore.Store)(nil)
	_ findings.MuteMatchStore  = (*chstore.Store)(nil)
	_ findings.MuteMatchWriter = (*chstore.Store)(nil)
	_ findings.MuteSetWriter   = (*chstore.Store)(nil)
	_ findings.OverrideStore   = (*pgstore.Store)(nil)
	_ findings.MuteSetStore    = (*pgstore.Store)(nil)
	_ findings.ExpiredSweeper  = (*pgstore.Store)(nil)
	_ findings.MuteRuleStore   = (*pgstore.Store)(nil)

	_ mutes.Store = (*pgstore.Store)(nil)

	_ idempotency.Store = (*pgstore.Store)(nil)

	_ triage.Decisions   = (*pgstore.Store)(nil)
	_ triage.Users       = (*pgstore.Store)(nil)
	_ triage.AuditLister = (*pgstore.Store)(nil)
	_ triage.Sightings   = (*chstore.Store)(nil)

	_ policies.Store   = (*pgstore.Store)(nil)
	_ policies.Checker = (*audit.Evaluators)(nil)

	_ reporting.Analytics   = (*chstore.Store)(nil)
	_ reporting.Resources   = (*chstore.Store)(nil)
	_ reporting.Differ      = (*chstore.Store)(nil)
	_ reporting.TrendCounts = (*chstore.Store)(nil)
	_ reporting.Store       = (*pgstore.Store)(nil)
	_ reporting.Jobs        = (*pgstore.Store)(nil)
	_ reporting.Queue       = (*pgstore.Store)(nil)
	_ reporting.Audits      = (*pgstore.Store)(nil)

	_ audit.Queue = (*pgstore.Store)(nil)

	_ posture.Store       = (*pgstore.Store)(nil)
	_ posture.Audits      = (*pgstore.Store)(nil)
	_ posture.TypeCounter = (*chstore.Store)(nil)

	_ dashboard.Analytics = (*chstore.Store)(nil)

	_ ingest.Store       = (*chstore.Store)(nil)
	_ ingest.BatchWriter = (*chstore.Store)(nil)
)
