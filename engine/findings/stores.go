package findings

import (
	"context"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// The stores the read path calls, each only the methods it needs;
// store/clickhouse and store/postgres implement them (cmd/fourd asserts
// it at compile time).

// Analytics answers the open counts CountReads adjusts (store/clickhouse).
// It reads only scope's snapshot; an audit whose snapshot is missing
// simply has no rows.
type Analytics interface {
	// OpenCounts counts open findings by severity, dimension, account and
	// rule, from the per-snapshot counts; ForceResolved, ForceOpen and
	// Mutes are not applied (the engine moves them between groups itself).
	OpenCounts(ctx context.Context, scope engine.ReportScope) ([]engine.ReportCount, error)
}

// OverrideStore holds people's decisions on findings (PostgreSQL; written
// by engine/triage).
type OverrideStore interface {
	// ListOverrides returns the tenant's overrides that have not expired at
	// now (at most a few thousand: they are people's decisions).
	ListOverrides(ctx context.Context, tenantID string, now time.Time) ([]engine.FindingOverride, error)
}

// MuteMatchStore keeps which findings of a snapshot each rule version
// matched (ClickHouse), and answers reads with them.
type MuteMatchStore interface {
	// PutMuteMatches stores findings of the snapshot of auditID as matched
	// by ref.
	PutMuteMatches(ctx context.Context, tenantID, auditID string, ref engine.MuteRef, matched []engine.Finding) error
	// ScanOpenFindings calls fn with every open finding of a snapshot, in
	// no particular order, without evidence, description or remediation.
	ScanOpenFindings(ctx context.Context, tenantID, auditID string, fn func(engine.Finding) error) error
	// MutedAmong returns, of the findings with the given keys, those that
	// refs match in the snapshot, each with the first of refs (in their
	// order) that matches it; set, when not empty, is the build of refs'
	// materialised set, read instead of the matches.
	MutedAmong(ctx context.Context, tenantID, auditID string, refs []engine.MuteRef, set string, keys []engine.FindingKey) (map[string]string, error)
	// CountMuted counts the snapshot's findings that refs match, filtered
	// by q.Filter (its status ignored) and grouped by q.GroupBy, leaving out
	// the ids in exclude (findings people resolved since): from the counts
	// of the materialised set q.MuteSet when it is given.
	CountMuted(ctx context.Context, q engine.FindingCountQuery, refs []engine.MuteRef, exclude []string) ([]engine.FindingCount, error)
}

// MuteSetStore records which build of each mute set is complete
// (PostgreSQL); Config.MuteRules implements it when sets are kept.
type MuteSetStore interface {
	// ClaimMuteSet claims b's set for building under b.Build at now; it
	// reports false when the set is built, or claimed since staleBefore by
	// another build.
	ClaimMuteSet(ctx context.Context, b engine.MuteSetBuild, now, staleBefore time.Time) (bool, error)
	// FinishMuteSet records the claimed build b complete with b.Muted
	// findings; readers use it from then on.
	FinishMuteSet(ctx context.Context, b engine.MuteSetBuild, now time.Time) error
	// BuiltMuteSets returns the complete builds of the tenant's sets over
	// the given snapshots.
	BuiltMuteSets(ctx context.Context, tenantID string, auditIDs []string) ([]engine.MuteSetBuild, error)
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
	DeleteSupersededMuteSets(ctx context.Context, before time.Time, limit int) ([]engine.MuteSetBuild, error)
}

// MuteSetWriter materialises mute sets (ClickHouse); Config.MuteMatches
// implements it when sets are kept.
type MuteSetWriter interface {
	// PutMuteSet writes, under build, each open finding of the snapshot
	// that any of refs matched (once, with the first rule of refs that
	// matches it) and their counts, and returns how many.
	PutMuteSet(ctx context.Context, tenantID, auditID, build string, refs []engine.MuteRef) (int64, error)
	// DeleteMuteSets deletes the rows of the builds.
	DeleteMuteSets(ctx context.Context, builds []engine.MuteSetBuild) error
}

// MuteMatchWriter is implemented by a MuteMatchStore that evaluates a
// MuteCond itself.
type MuteMatchWriter interface {
	// PutMuteMatchesWhere stores, as matched by ref, the open findings of
	// the snapshot of auditID that cond matches (in the store, with no
	// transfer), and returns how many.
	PutMuteMatchesWhere(ctx context.Context, tenantID, auditID string, ref engine.MuteRef, cond engine.MuteCond) (int64, error)
}

// TrendStore counts findings of several snapshots at once (ClickHouse, from
// the per-snapshot counts).
type TrendStore interface {
	// CountsByAudit counts, for each audit id, that snapshot's findings
	// matching filter (AuditID ignored), grouped by groupBy; an audit with
	// no matching finding is absent from the map. Groups are ordered by
	// their key values as in FindingStore.CountFindings. validation_failed
	// for an unknown group-by field.
	CountsByAudit(ctx context.Context, tenantID string, auditIDs []string, filter engine.FindingFilter, groupBy []engine.GroupBy) (map[string][]engine.FindingCount, error)
}

// ExpiredSweeper deletes expired records (Config.Sweeper).
type ExpiredSweeper interface {
	PurgeExpired(ctx context.Context, c engine.SweepCutoffs) (deleted int64, err error)
}

// MuteRuleStore is what the read path needs of the mute rules
// (store/postgres): the rules to apply and honour, and their applications.
type MuteRuleStore interface {
	// EnabledMuteRules returns the live, enabled rules unexpired at now,
	// oldest first.
	EnabledMuteRules(ctx context.Context, tenantID string, now time.Time) ([]engine.MuteRule, error)
	// ActiveMutes returns the enabled rules unexpired at now with every
	// snapshot their current version was applied to, oldest rule first.
	ActiveMutes(ctx context.Context, tenantID string, now time.Time) ([]engine.ActiveMute, error)
	// PutMuteApplication records an application when the rule is still at
	// a.Version; it reports whether it did.
	PutMuteApplication(ctx context.Context, a engine.MuteApplication) (bool, error)
}
