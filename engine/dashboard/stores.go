package dashboard

import (
	"context"

	"github.com/fourd-dev/fourd/engine"
)

// Analytics answers the rankings' aggregates (store/clickhouse). Every
// method reads only scope's snapshot.
type Analytics interface {
	// TopResources returns the limit resources whose open findings weigh
	// most (PostureWeights), heaviest first.
	TopResources(ctx context.Context, scope engine.ReportScope, limit int) ([]engine.ResourceRank, error)
	// ResolutionTimes counts scope's resolved findings by severity with
	// their mean time from first seen to resolved; scope.Filters apply,
	// ForceOpen findings are left out, and so are findings without a
	// resolution time (ForceResolved ones among them).
	ResolutionTimes(ctx context.Context, scope engine.ReportScope) ([]engine.ResolutionTime, error)
}

// Reads is what the rankings need of the read path (engine/findings gives
// it through CountReads).
type Reads interface {
	// Snapshot returns the completed audit whose findings a read of
	// auditID sees (the latest when empty): not_found when there is none,
	// conflict when the audit has not completed.
	Snapshot(ctx context.Context, tenantID, auditID string) (string, error)
	// OpenCounts returns the open findings of scope's snapshot by
	// severity, dimension, account and rule, with the decisions people
	// made applied and what active mute rules match left out.
	OpenCounts(ctx context.Context, scope *engine.ReportScope) (counts []engine.ReportCount, muted int64, err error)
	// Decide sets scope's forced statuses and mute selection, so that the
	// analytic queries made with it read the findings OpenCounts counts.
	Decide(ctx context.Context, scope *engine.ReportScope) error
}
