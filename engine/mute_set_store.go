package engine

import (
	"context"
	"time"
)

// A mute set is the muted findings of one snapshot under one set of active
// rule versions (the refs a read honours, in their order), materialised
// when that set changes: when a rule is written, when an audit writes a new
// snapshot, and, for a change no write announces (a rule's expiry), by the
// sweep (SweepMuteSets) or the first read that finds it missing, whichever
// comes first. A set another replaced is deleted by the sweep a grace
// period later. Reads then anti-join one build of the
// set, one row per muted finding, and read its precomputed counts, instead
// of every rule's matches (docs/design/mute-rules.md).

// MuteSetBuild is one build of a mute set.
type MuteSetBuild struct {
	TenantID string
	AuditID  string
	// Key names the set: a hash of its ordered rule versions (muteSetKey).
	Key string
	// Build names this build's rows in the analytics store.
	Build string
	Muted int64
}

// MuteSetStore records which build of each mute set is complete
// (PostgreSQL); Config.MuteRules implements it when sets are kept.
type MuteSetStore interface {
	// ClaimMuteSet claims b's set for building under b.Build at now; it
	// reports false when the set is built, or claimed since staleBefore by
	// another build.
	ClaimMuteSet(ctx context.Context, b MuteSetBuild, now, staleBefore time.Time) (bool, error)
	// FinishMuteSet records the claimed build b complete with b.Muted
	// findings; readers use it from then on.
	FinishMuteSet(ctx context.Context, b MuteSetBuild, now time.Time) error
	// BuiltMuteSets returns the complete builds of the tenant's sets over
	// the given snapshots.
	BuiltMuteSets(ctx context.Context, tenantID string, auditIDs []string) ([]MuteSetBuild, error)
	// SupersedeMuteSets marks the snapshot's built sets other than keep
	// ("": all) superseded at now, and keep current again.
	SupersedeMuteSets(ctx context.Context, tenantID, auditID, keep string, now time.Time) error
	// LiveMuteSetAudits returns the tenant's snapshots with a built set
	// not superseded.
	LiveMuteSetAudits(ctx context.Context, tenantID string) ([]string, error)
	// TenantsWithExpiredMutes returns the tenants with a live, enabled
	// rule that expired in (after, until].
	TenantsWithExpiredMutes(ctx context.Context, after, until time.Time) ([]string, error)
	// DeleteSupersededMuteSets forgets up to limit sets superseded before
	// before and returns them, each to one caller only.
	DeleteSupersededMuteSets(ctx context.Context, before time.Time, limit int) ([]MuteSetBuild, error)
}

// MuteSetWriter materialises mute sets (ClickHouse); Config.MuteMatches
// implements it when sets are kept.
type MuteSetWriter interface {
	// PutMuteSet writes, under build, each open finding of the snapshot
	// that any of refs matched (once, with the first rule of refs that
	// matches it) and their counts, and returns how many.
	PutMuteSet(ctx context.Context, tenantID, auditID, build string, refs []MuteRef) (int64, error)
	// DeleteMuteSets deletes the rows of the builds.
	DeleteMuteSets(ctx context.Context, builds []MuteSetBuild) error
}
