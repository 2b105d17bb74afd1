package findings

import (
	"context"

	"github.com/fourd-dev/fourd/engine"
)

// MuteReads is the read path's side of mute rules, what engine/mutes'
// Service needs from this one (its Reads interface): applying a written
// rule to the latest snapshot, rebuilding that snapshot's mute set,
// forgetting the cached rules, and reading the open findings a dry run
// evaluates. cmd/fourd wires it; the API adapters never see it.
type MuteReads struct{ s *Service }

// MuteReads returns the read path's side of mute rules.
func (s *Service) MuteReads() MuteReads { return MuteReads{s: s} }

// Invalidate forgets the tenant's cached latest audit, decisions and rules.
func (r MuteReads) Invalidate(tenantID string) { r.s.reads.invalidate(tenantID) }

// ApplyToLatest applies one rule to the tenant's latest snapshot, when the
// tenant has one.
func (r MuteReads) ApplyToLatest(ctx context.Context, tenantID string, rule engine.MuteRule) error {
	return r.s.applyToLatest(ctx, tenantID, rule)
}

// SettleLatestMuteSet builds the mute set of the tenant's latest snapshot,
// if any; a failure is logged (reads stay correct, on the matches).
func (r MuteReads) SettleLatestMuteSet(ctx context.Context, tenantID string) {
	r.s.settleLatestMuteSet(ctx, tenantID)
}

// ScanOpenLatest calls visit with each open finding of the tenant's latest
// snapshot, people's decisions applied and what active rules mute left
// out, a store page at a time; with resources, each with its resource (nil
// when the inventory no longer holds it). It stops at visit's first error
// and returns it. auditID is the snapshot's, empty when the tenant has
// none.
func (r MuteReads) ScanOpenLatest(ctx context.Context, tenantID string, resources bool, visit func(f *engine.Finding, res *engine.Resource) error) (auditID string, err error) {
	s := r.s
	if auditID, err = s.latestSnapshot(ctx, tenantID); err != nil {
		if engine.IsNotFound(err) {
			return "", nil
		}
		return "", err
	}
	ov, err := s.cachedOverrides(ctx, tenantID)
	if err != nil {
		return "", err
	}
	q := engine.FindingQuery{TenantID: tenantID, Filter: engine.FindingFilter{AuditID: auditID, Status: engine.StatusOpen},
		Limit: s.cfg.ExportPageSize, ForceResolved: ov.resolved, ForceOpen: ov.open, Mutes: ov.muteRefs(auditID)}
	for {
		rows, err := s.cfg.Findings.ListFindings(ctx, q)
		if err != nil {
			return "", err
		}
		var res map[string]*engine.Resource
		if resources && len(rows) > 0 {
			if res, err = s.pageResources(ctx, tenantID, rows); err != nil {
				return "", err
			}
		}
		now := s.now()
		for i := range rows {
			f := &rows[i]
			*f = decide(*f, ov.byID, now)
			var rs *engine.Resource
			if resources {
				rs = res[f.ResourceID]
			}
			if err := visit(f, rs); err != nil {
				return "", err
			}
		}
		if len(rows) < q.Limit {
			return auditID, nil
		}
		last := rows[len(rows)-1]
		q.After = &engine.FindingKey{SeverityRank: last.Severity.Rank(), ID: last.ID}
	}
}
