package graph

import (
	"log/slog"

	"github.com/fourd-dev/fourd/engine/audit"
	"github.com/fourd-dev/fourd/engine/dashboard"
	"github.com/fourd-dev/fourd/engine/findings"
	"github.com/fourd-dev/fourd/engine/mutes"
	"github.com/fourd-dev/fourd/engine/policies"
	"github.com/fourd-dev/fourd/engine/posture"
	"github.com/fourd-dev/fourd/engine/reporting"
	"github.com/fourd-dev/fourd/engine/triage"
)

// Resolver is the root of gqlgen's resolvers and their one dependency
// injection point: every resolver is a call into the Service (audit
// writes into the audit Service, nil when the server runs no audits).
type Resolver struct {
	svc    *findings.Service
	audits *audit.Service
	// reports and posture serve reports and the compliance posture (nil:
	// those answer unavailable).
	reports *reporting.Service
	posture *posture.Service
	mutes   *mutes.Service
	// policies keeps custom policies (nil: those fields answer unavailable).
	policies *policies.Service
	// triage changes findings and reads their activity (nil: those fields
	// answer unavailable).
	triage *triage.Service
	// dashboard ranks open findings (nil: the rankings answer unavailable).
	dashboard *dashboard.Service
	log       *slog.Logger
}
