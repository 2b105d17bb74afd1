package findings

import (
	"context"
	"slices"

	"github.com/fourd-dev/fourd/engine"
)

// CountReads is the read path's open counts as reports and the compliance
// posture read them: the precomputed counts of a snapshot with the
// decisions people made since applied and what active mute rules match
// left out, so that both agree with the findings API. engine/reporting
// and engine/posture take it (their Reads); cmd/fourd wires it.
type CountReads struct{ s *Service }

// CountReads returns the read path's open counts.
func (s *Service) CountReads() CountReads { return CountReads{s: s} }

// OpenCounts returns the open findings of scope's snapshot within its
// filters, grouped by severity, dimension, account and rule, with people's
// decisions applied and the findings active mute rules match left out
// (muted is how many, within the filters). It sets scope's forced statuses
// and mute selection so that the analytic queries made with it read the
// same findings. unavailable when the server has no analytics store.
func (r CountReads) OpenCounts(ctx context.Context, scope *engine.ReportScope) (counts []engine.ReportCount, muted int64, err error) {
	s := r.s
	if s.cfg.Analytics == nil {
		return nil, 0, engine.Errorf(engine.CodeUnavailable, "finding analytics are not configured on this server")
	}
	ov, err := s.overrides(ctx, scope.TenantID)
	if err != nil {
		return nil, 0, err
	}
	scope.ForceResolved, scope.ForceOpen = forcedStatuses(ov)
	if counts, err = s.cfg.Analytics.OpenCounts(ctx, *scope); err != nil {
		return nil, 0, err
	}
	if counts, err = s.adjustReportCounts(ctx, *scope, ov, counts); err != nil {
		return nil, 0, err
	}
	return s.subtractMutes(ctx, scope, counts)
}

// Snapshot returns the completed audit a read of auditID sees: the
// tenant's latest when auditID is empty (not_found when it has none), else
// that audit, conflict while it has not completed.
func (r CountReads) Snapshot(ctx context.Context, tenantID, auditID string) (string, error) {
	return r.s.snapshotFor(ctx, tenantID, auditID)
}

// Decide sets scope's forced statuses (people's decisions) and mute
// selection (the active mute rules), so that the analytic queries made
// with it read the open findings OpenCounts counts.
func (r CountReads) Decide(ctx context.Context, scope *engine.ReportScope) error {
	s := r.s
	ov, err := s.overrides(ctx, scope.TenantID)
	if err != nil {
		return err
	}
	scope.ForceResolved, scope.ForceOpen = forcedStatuses(ov)
	set, err := s.cachedOverrides(ctx, scope.TenantID)
	if err != nil {
		return err
	}
	scope.Mutes, scope.MuteSet = s.muteSel(scope.TenantID, set, scope.AuditID) // muted findings are not open
	return nil
}

// MuteTrend moves, in each snapshot's counts (by audit id, as
// TrendStore.CountsByAudit returns them), the findings the active mute
// rules match out, as the findings trend counts them.
func (r CountReads) MuteTrend(ctx context.Context, tenantID string, auditIDs []string, q engine.TrendQuery, counts map[string][]engine.FindingCount) error {
	return r.s.muteTrend(ctx, tenantID, auditIDs, q, counts)
}

// DiffMutes are the active mute rules applied to two snapshots of the
// tenant, for SnapshotStore.DiffSnapshots: what they mute changed for
// nobody who reads counts of open findings.
func (r CountReads) DiffMutes(ctx context.Context, tenantID, prevAuditID, auditID string) (engine.DiffMutes, error) {
	if r.s.cfg.MuteMatches == nil {
		return engine.DiffMutes{}, nil
	}
	set, err := r.s.cachedOverrides(ctx, tenantID)
	if err != nil {
		return engine.DiffMutes{}, err
	}
	return engine.DiffMutes{Prev: set.muteRefs(prevAuditID), Cur: set.muteRefs(auditID)}, nil
}

// LatestAudit returns the id of the tenant's latest completed audit (from
// the read cache); not_found when it has none.
func (r CountReads) LatestAudit(ctx context.Context, tenantID string) (string, error) {
	return r.s.latestSnapshot(ctx, tenantID)
}

// adjustReportCounts moves the findings people decided on since the
// snapshot was written in or out of the open counts, as SummarizeFindings
// does, so a report agrees with the findings API.
func (s *Service) adjustReportCounts(ctx context.Context, scope engine.ReportScope, ov map[string]engine.FindingOverride, counts []engine.ReportCount) ([]engine.ReportCount, error) {
	if len(ov) == 0 || s.cfg.Snapshots == nil {
		return counts, nil
	}
	ids := make([]string, 0, len(ov))
	for id := range ov {
		ids = append(ids, id)
	}
	found, err := s.cfg.Snapshots.GetFindings(ctx, scope.TenantID, scope.AuditID, ids)
	if err != nil {
		return nil, err
	}
	index := map[engine.ReportCount]int{}
	for i, c := range counts {
		c.Count = 0
		index[c] = i
	}
	for _, before := range found {
		after := applyOverride(before, ov[before.ID])
		if after.Status == before.Status || !scope.Filters.Match(before) {
			continue
		}
		n := int64(1)
		if after.Status != engine.StatusOpen {
			n = -1
		}
		k := engine.ReportCount{Severity: before.Severity, Dimension: before.Dimension, Account: before.Account, RuleID: before.RuleID}
		i, ok := index[k]
		if !ok {
			counts = append(counts, k)
			i = len(counts) - 1
			index[k] = i
		}
		counts[i].Count += n
	}
	return slices.DeleteFunc(counts, func(c engine.ReportCount) bool { return c.Count <= 0 }), nil
}

// subtractMutes leaves the findings the tenant's active mute rules match in
// scope's snapshot out: the analytic queries through scope.Mutes, the open
// counts by subtracting one count over the matches (grouped as the counts
// are). muted is what was left out, within scope's filters. Reports and the
// compliance posture both read open findings so.
func (s *Service) subtractMutes(ctx context.Context, scope *engine.ReportScope, counts []engine.ReportCount) (_ []engine.ReportCount, muted int64, err error) {
	if s.cfg.MuteMatches == nil {
		return counts, 0, nil
	}
	set, err := s.cachedOverrides(ctx, scope.TenantID)
	if err != nil {
		return nil, 0, err
	}
	refs, build := s.muteSel(scope.TenantID, set, scope.AuditID)
	if len(refs) == 0 {
		return counts, 0, nil
	}
	scope.Mutes, scope.MuteSet = refs, build
	got, err := s.countMuted(ctx, set, engine.FindingCountQuery{TenantID: scope.TenantID, Filter: engine.FindingFilter{AuditID: scope.AuditID},
		GroupBy: []engine.GroupBy{engine.GroupBySeverity, engine.GroupByDimension, engine.GroupByAccount, engine.GroupByRule}, MuteSet: build}, refs)
	if err != nil {
		return nil, 0, err
	}
	counts, muted = subtractMuted(counts, got, scope.Filters)
	return counts, muted, nil
}

// subtractMuted takes the muted counts (grouped by severity, dimension,
// account and rule) that pass filters out of counts, and returns what is
// left with the number taken.
func subtractMuted(counts []engine.ReportCount, muted []engine.FindingCount, filters engine.ReportFilters) ([]engine.ReportCount, int64) {
	index := make(map[engine.ReportCount]int, len(counts))
	for i, c := range counts {
		c.Count = 0
		index[c] = i
	}
	var total int64
	for _, m := range muted {
		k := engine.ReportCount{Severity: engine.Severity(m.Key[engine.GroupBySeverity]), Dimension: engine.Dimension(m.Key[engine.GroupByDimension]),
			Account: m.Key[engine.GroupByAccount], RuleID: m.Key[engine.GroupByRule]}
		if !filters.Match(engine.Finding{Severity: k.Severity, Dimension: k.Dimension, Account: k.Account}) {
			continue
		}
		i, ok := index[k]
		if !ok {
			continue // none of them is open in the report's counts
		}
		n := min(m.Count, counts[i].Count)
		counts[i].Count -= n
		total += n
	}
	return slices.DeleteFunc(counts, func(c engine.ReportCount) bool { return c.Count <= 0 }), total
}
