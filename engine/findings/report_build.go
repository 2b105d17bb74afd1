package findings

import (
	"context"
	"slices"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// reportTrendAudits is how many completed audits, the report's included,
// an executive summary's trend shows.
const reportTrendAudits = 8

// reportBuilder builds one report's document from the analytic queries.
type reportBuilder struct {
	svc     *Service
	job     engine.ReportJob
	audit   engine.Audit
	prev    []engine.Audit // completed audits before audit, newest first
	filters engine.ReportFilters
	scope   engine.ReportScope
	counts  []engine.ReportCount // open findings with people's decisions and mutes applied
	muted   int64                // open findings in scope that active mute rules silence
	timings engine.ReportTimings
}

func (s *Service) newReportBuilder(ctx context.Context, job engine.ReportJob, audit engine.Audit, filters engine.ReportFilters) (*reportBuilder, error) {
	start := time.Now()
	b := &reportBuilder{svc: s, job: job, audit: audit, filters: filters,
		scope: engine.ReportScope{TenantID: audit.TenantID, AuditID: audit.ID, Filters: filters}}
	if b.scope.TenantID == "" {
		b.scope.TenantID = job.Report.TenantID
	}
	prev, err := s.cfg.Audits.ListAudits(ctx, engine.AuditQuery{TenantID: b.scope.TenantID, Status: engine.AuditCompleted,
		BeforeID: audit.ID, Limit: reportTrendAudits - 1})
	if err != nil {
		return nil, err
	}
	b.prev = prev
	ov, err := s.overrides(ctx, b.scope.TenantID)
	if err != nil {
		return nil, err
	}
	b.scope.ForceResolved, b.scope.ForceOpen = forcedStatuses(ov)
	counts, err := s.cfg.Reporting.Analytics.OpenCounts(ctx, b.scope)
	if err != nil {
		return nil, err
	}
	if b.counts, err = s.adjustReportCounts(ctx, b.scope, ov, counts); err != nil {
		return nil, err
	}
	if err := b.applyMutes(ctx); err != nil {
		return nil, err
	}
	b.timings.Queries += time.Since(start)
	return b, nil
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
		if after.Status == before.Status || !filtersMatch(scope.Filters, before) {
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

// applyMutes leaves the findings the tenant's active mute rules match in
// the report's snapshot out of the report (subtractMutes). b.muted is what
// was left out, within the report's filters.
func (b *reportBuilder) applyMutes(ctx context.Context) (err error) {
	b.counts, b.muted, err = b.svc.subtractMutes(ctx, &b.scope, b.counts)
	return err
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
		if !filtersMatch(filters, engine.Finding{Severity: k.Severity, Dimension: k.Dimension, Account: k.Account}) {
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

// filtersMatch reports whether a finding passes the report's filters.
func filtersMatch(f engine.ReportFilters, x engine.Finding) bool {
	return (len(f.Dimensions) == 0 || slices.Contains(f.Dimensions, x.Dimension)) &&
		(len(f.Severities) == 0 || slices.Contains(f.Severities, x.Severity)) &&
		(len(f.Accounts) == 0 || slices.Contains(f.Accounts, x.Account))
}

// document is the report's document without its body.
func (b *reportBuilder) document() engine.ReportDocument {
	h := engine.ReportHeader{ReportID: b.job.Report.ID, Kind: b.job.Report.Kind, TenantID: b.scope.TenantID,
		TenantName: b.job.TenantName, AuditID: b.audit.ID, AuditCompletedAt: b.audit.CompletedAt.UTC(),
		GeneratedAt: b.svc.now().UTC(), Filters: b.filters, MutedFindings: b.muted}
	if len(b.prev) > 0 {
		h.PreviousAuditID = b.prev[0].ID
	}
	for _, l := range []*[]string{&h.Filters.Accounts, &h.Filters.Frameworks} {
		if *l == nil {
			*l = []string{}
		}
	}
	if h.Filters.Dimensions == nil {
		h.Filters.Dimensions = []engine.Dimension{}
	}
	if h.Filters.Severities == nil {
		h.Filters.Severities = []engine.Severity{}
	}
	return engine.ReportDocument{SchemaVersion: engine.ReportSchemaVersion, Header: h}
}

// severityMatrix folds counts into one row per severity, critical first.
func severityMatrix(counts []engine.ReportCount) []engine.SeverityRow {
	rows := make([]engine.SeverityRow, 0, len(engine.Severities))
	for i := len(engine.Severities) - 1; i >= 0; i-- {
		rows = append(rows, engine.SeverityRow{Severity: engine.Severities[i]})
	}
	for _, c := range counts {
		for i := range rows {
			if rows[i].Severity == c.Severity {
				rows[i].Add(c.Dimension, c.Count)
			}
		}
	}
	return rows
}

// ruleTitle is a rule's title from the catalog, else from its findings.
func (b *reportBuilder) ruleTitle(id, fromRows string) string {
	if r, ok := b.svc.cfg.Reporting.Catalog.Rule(id); ok {
		return r.Title
	}
	if fromRows != "" {
		return fromRows
	}
	return id
}
