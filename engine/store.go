package engine

import (
	"context"
	"iter"
	"time"
)

// The interfaces below are the stores several concerns share (a store only
// one concern calls is declared in that concern: findings.OverrideStore,
// reporting.Queue, posture.Store, …). store/clickhouse implements
// FindingStore and ResourceStore (the analytics side); store/postgres
// implements the rest (what people configure and what must change
// atomically). Unless a method says otherwise it returns not_found
// for a missing record (also for another tenant's id), conflict for a
// uniqueness violation, and wraps anything else as an internal error.

// FindingStore holds finding snapshots, one per completed audit.
type FindingStore interface {
	// ListFindings returns up to q.Limit findings of snapshot
	// q.Filter.AuditID that match q.Filter, strictly after q.After in the
	// order (severity rank descending, id ascending).
	ListFindings(ctx context.Context, q FindingQuery) ([]Finding, error)
	// GetFinding returns one finding of a snapshot; not_found when absent.
	GetFinding(ctx context.Context, tenantID, auditID, id string) (Finding, error)
	// CountFindings counts a snapshot's findings matching q.Filter grouped
	// by q.GroupBy (no groups: one row with the total). Groups come ordered
	// by their key values.
	CountFindings(ctx context.Context, q FindingCountQuery) ([]FindingCount, error)
	// WriteSnapshot streams the whole finding set of an audit into the store
	// in large batches and records its per-snapshot counts. It returns the
	// number of findings written. The snapshot is read only once the audit
	// is marked completed in the AuditStore.
	WriteSnapshot(ctx context.Context, tenantID, auditID string, findings iter.Seq2[Finding, error]) (int64, error)
}

// ResourceStore holds the inventory: observations of cloud resources.
type ResourceStore interface {
	// ListResources returns up to q.Limit resources (latest observation of
	// each) in id order, strictly after q.AfterID.
	ListResources(ctx context.Context, q ResourceQuery) ([]Resource, error)
	// GetResource returns the latest observation of a resource.
	GetResource(ctx context.Context, tenantID, id string) (Resource, error)
	// GetResources returns the resources with the given ids that exist, in
	// any order (for dataloaders and report queries).
	GetResources(ctx context.Context, tenantID string, ids []string) ([]Resource, error)
	// GetResourcesPartial is GetResources filling in only the wide fields
	// that f names (the others are nil), reading only the columns it needs.
	GetResourcesPartial(ctx context.Context, tenantID string, ids []string, f ResourceFields) ([]Resource, error)
	// WriteResources stores observations in large batches. It returns the
	// ids seen for the first time for the tenant (for resource.added).
	WriteResources(ctx context.Context, tenantID string, resources iter.Seq2[Resource, error]) (WriteResourcesResult, error)
}

// WriteResourcesResult reports what WriteResources stored.
type WriteResourcesResult struct {
	Written int64
	NewIDs  []string
}

// TenantStore holds tenants, users and personal access tokens.
type TenantStore interface {
	// EnsureTenant returns the tenant with the slug, creating it if needed.
	EnsureTenant(ctx context.Context, slug, name string) (Tenant, error)
	GetTenantBySlug(ctx context.Context, slug string) (Tenant, error)
	// EnsureUser returns the user with the email in the tenant, creating it
	// with the role if needed.
	EnsureUser(ctx context.Context, tenantID, email string, role Role) (User, error)
	CreateToken(ctx context.Context, t Token) error
	// GetTokenByHash returns a token by the hash of its secret, revoked or
	// not (the caller checks), with its user's current role in UserRole
	// (empty for a disabled user); not_found when no token has that hash.
	GetTokenByHash(ctx context.Context, hash string) (Token, error)
	// TouchToken records that a token was used at t.
	TouchToken(ctx context.Context, id string, t time.Time) error
	ListTokens(ctx context.Context, tenantID, userID string) ([]Token, error)
	RevokeToken(ctx context.Context, tenantID, id string, at time.Time) error
}

// AuditStore holds audits.
type AuditStore interface {
	// CreateAudit stores a new audit; conflict when its id exists or when
	// it is queued or running while the tenant already has an audit queued
	// or running (atomically: of concurrent creations, one wins).
	CreateAudit(ctx context.Context, a Audit) error
	GetAudit(ctx context.Context, tenantID, id string) (Audit, error)
	// LatestCompletedAudit returns the tenant's most recently completed
	// audit; not_found when it has none.
	LatestCompletedAudit(ctx context.Context, tenantID string) (Audit, error)
	// ListAudits returns up to q.Limit audits, newest (highest id) first,
	// strictly before q.BeforeID.
	ListAudits(ctx context.Context, q AuditQuery) ([]Audit, error)
	// UpdateAudit overwrites the mutable fields (status, progress, summary,
	// error, timestamps) of an audit.
	UpdateAudit(ctx context.Context, a Audit) error
}

// Pinger is a dependency whose health /readyz reports.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Degrader is a dependency that can be partly down while it still answers
// (a ClickHouse cluster with a replica or a whole shard down): Degraded
// lists what is down, one sentence each, for /readyz; nothing when all of
// it answers.
type Degrader interface {
	Degraded(ctx context.Context) []string
}

// EventStore is the durable record of events: the PostgreSQL outbox that
// webhook dispatchers drain and the events API reads. Events appended in one
// call are committed together. An event that no live endpoint of its tenant
// subscribes to when it is committed is stored already fanned out (to
// nobody), so that the dispatchers never handle it; the others are fanned
// out by a dispatcher to the endpoints subscribed when it runs. Events of
// one type made as a run (IDRun: consecutive ids, one creation time) may be
// stored together, each keeping its own id; large appends are made so.
// AppendEvents keeps nothing of the events once it returns: the caller may
// reuse their memory (a bulk import reuses its payload buffers).
type EventStore interface {
	AppendEvents(ctx context.Context, events []Event) error
}

// EventLog is the analytic copy of events (ClickHouse), for trends and
// reports. Writing to it is best effort after the outbox committed.
// LogEvents keeps nothing of the events once it returns (as EventStore).
type EventLog interface {
	LogEvents(ctx context.Context, events []Event) error
}

// EventLogStreamer is an EventLog that also takes a long run of appends
// (a bulk import's) as one stream, written in fewer and larger writes.
// Events appended become readable when the stream sends them: before
// Close returns, and on the way as the store sees fit.
type EventLogStreamer interface {
	StreamEvents(ctx context.Context) EventLogStream
}

// EventLogStream is an open stream of appends to the event log. Append
// keeps nothing of the events once it returns (as LogEvents). A failed
// append loses its events and those appended but not yet sent; the stream
// goes on with the next append.
type EventLogStream interface {
	Append(ctx context.Context, events []Event) error
	Close() error
}
