package clickhouse

import (
	"context"

	"github.com/fourd-dev/fourd/engine"
)

// resolutionTimesQuery averages, per severity, the time from first seen to
// resolved of a snapshot's resolved findings. Findings reopened since
// (ForceOpen) are left out; those accepted as a risk after the snapshot
// (ForceResolved) have no resolution time in it and are left out too, as
// are rows whose times are missing or out of order.
type resolutionTimesQuery struct{ scope engine.ReportScope }

func (q resolutionTimesQuery) toSQL() (string, []any) {
	var c conds
	addSnapshot(&c, q.scope.TenantID, q.scope.AuditID)
	addReportFilters(&c, q.scope.Filters)
	addPageFilter(&c, engine.FindingFilter{Status: engine.StatusResolved}, forced{open: q.scope.ForceOpen}, conds{})
	c.add("toUInt32(resolved_at) > 0 AND resolved_at >= first_seen_at")
	return "SELECT toString(severity), count(), avg(toUInt32(resolved_at) - toUInt32(first_seen_at)) FROM snapshot_findings WHERE " +
		c.sql() + " GROUP BY severity ORDER BY severity DESC", c.args
}

// ResolutionTimes implements reporting.Analytics: one aggregation over
// the snapshot's resolved rows.
func (s *Store) ResolutionTimes(ctx context.Context, scope engine.ReportScope) (out []engine.ResolutionTime, err error) {
	defer wrap(&err, "ResolutionTimes(%q, %q)", scope.TenantID, scope.AuditID)
	ctx = s.scoped(ctx, scope.TenantID, "", scope.AuditID)
	ctx, cancel := s.readCtx(ctx)
	defer cancel()
	out = []engine.ResolutionTime{}
	err = s.each(ctx, resolutionTimesQuery{scope: scope}, func(sc scanner) error {
		var r engine.ResolutionTime
		var sev string
		var n uint64
		if err := sc.Scan(&sev, &n, &r.MeanSeconds); err != nil {
			return err
		}
		r.Severity, r.Resolved = engine.Severity(sev), int64(n)
		out = append(out, r)
		return nil
	})
	return out, err
}
