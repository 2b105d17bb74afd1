package findings

import (
	"context"

	"github.com/fourd-dev/fourd/engine"
)

// AuditReads is the read path's side of an audit, what engine/audit's
// Service needs from this one (its Reads interface): overrides, the mute
// rules applied to a new snapshot, and the caches a completed audit
// changes. cmd/fourd wires it; the API adapters never see it.
type AuditReads struct{ s *Service }

// AuditReads returns the read path's side of audits.
func (s *Service) AuditReads() AuditReads { return AuditReads{s: s} }

// Overrides returns the tenant's live finding overrides by finding id.
func (r AuditReads) Overrides(ctx context.Context, tenantID string) (map[string]engine.FindingOverride, error) {
	return r.s.overrides(ctx, tenantID)
}

// AuditMutes applies the tenant's active mute rules to an audit's snapshot
// and returns the ids of the findings they mute.
func (r AuditReads) AuditMutes(ctx context.Context, tenantID, auditID string) (map[string]struct{}, error) {
	return r.s.auditMutes(ctx, tenantID, auditID)
}

// SettleMuteSet builds the snapshot's mute set.
func (r AuditReads) SettleMuteSet(ctx context.Context, tenantID, auditID string) error {
	return r.s.settleMuteSet(ctx, tenantID, auditID)
}

// Invalidate forgets the tenant's cached latest audit and overrides.
func (r AuditReads) Invalidate(tenantID string) { r.s.reads.invalidate(tenantID) }
