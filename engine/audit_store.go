package engine

import (
	"context"
	"errors"
	"iter"
	"time"
)

// The interfaces the audit engine needs beyond the read stores.

// SnapshotStore writes and compares finding snapshots (ClickHouse).
type SnapshotStore interface {
	// AppendSnapshot writes findings into an audit's snapshot in large
	// batches; it may be called more than once for the same audit. Counts
	// are not maintained until FinalizeSnapshot.
	AppendSnapshot(ctx context.Context, tenantID, auditID string, findings iter.Seq2[Finding, error]) (int64, error)
	// CarryForward copies into auditID's snapshot the findings of prevID's
	// snapshot that auditID does not have: open ones become resolved (fixed)
	// at resolvedAt; resolved ones are kept when resolved after keepSince.
	// (DiffSnapshots reports which were resolved now.)
	CarryForward(ctx context.Context, tenantID, prevID, auditID string, resolvedAt, keepSince time.Time) error
	// FinalizeSnapshot computes the snapshot's per-group counts once all
	// its rows are written.
	FinalizeSnapshot(ctx context.Context, tenantID, auditID string) error
	// DropSnapshot removes an audit's rows (a failed or retried audit).
	DropSnapshot(ctx context.Context, tenantID, auditID string) error
	// GetFindings returns the findings of a snapshot with the given ids that
	// exist, in any order.
	GetFindings(ctx context.Context, tenantID, auditID string, ids []string) ([]Finding, error)
	// FindingSightings returns finding id as each of the given completed
	// audits' snapshots holds it (AuditID, Severity, Status, Resolution,
	// LastSeenAt set), for the snapshots that hold it, in any order.
	FindingSightings(ctx context.Context, tenantID string, auditIDs []string, id string) ([]Finding, error)
	// FirstSeen calls fn with the id and first sighting of every finding of
	// a snapshot that is open or an accepted risk (what a later audit keeps
	// the age of): two narrow columns, not the findings.
	FirstSeen(ctx context.Context, tenantID, auditID string, fn func(id string, at time.Time) error) error
	// StreamFindings calls fn with every finding of a snapshot in id order
	// and stops at fn's first error, which it returns.
	StreamFindings(ctx context.Context, tenantID, auditID string, fn func(Finding) error) error
	// DiffSnapshots yields what changed from prevID (empty: nothing before)
	// to auditID: findings created (open in auditID and not open in prevID),
	// resolved now (open in prevID, resolved in auditID) and open in both with
	// another severity. A change whose finding mutes matches where it counts
	// (a resolved finding in prevID, any other in auditID) is left out.
	DiffSnapshots(ctx context.Context, tenantID, prevID, auditID string, mutes DiffMutes) iter.Seq2[FindingChange, error]
	// DiffChanges yields what DiffSnapshots yields, each finding with only
	// what its event carries (findingPayload) and, on a severity change,
	// its evidence: an audit's events read no more (a first audit has
	// millions).
	DiffChanges(ctx context.Context, tenantID, prevID, auditID string) iter.Seq2[FindingChange, error]
}

// DiffMutes are the mute rules applied to each side of a snapshot diff
// (overrideSet.muteRefs of each audit): a muted finding is not open, so
// its appearing, resolving or changing severity is no change to report.
type DiffMutes struct {
	Prev, Cur []MuteRef
}

// FindingChange is one difference between two snapshots.
type FindingChange struct {
	Kind     string  // an event type: finding.created, finding.resolved, finding.severity_changed
	Finding  Finding // as in the newer snapshot
	Previous Severity
}

// InventoryReader streams a tenant's inventory for an audit.
type InventoryReader interface {
	// StreamResources calls fn with the latest observation of every
	// resource of the tenant, in id order, and stops at fn's first error,
	// which it returns. (Observations are folded by the store's
	// merges, so past states are not kept: a reanalysis evaluates the
	// current inventory with the current rules and policies.)
	StreamResources(ctx context.Context, tenantID string, fn func(Resource) error) error
}

// FindingOverride is a person's decision on a finding: accepted as a known
// risk (held across audits until it expires or is reopened) or reopened.
type FindingOverride struct {
	TenantID  string `json:"-"`
	FindingID string `json:"finding_id"`
	// Resolution is accepted_risk or false_positive, or empty for an open
	// finding (reopened by hand, which undoes a decision the latest snapshot
	// already holds, or just assigned or in progress).
	Resolution Resolution `json:"resolution"`
	// State is in_progress for an open finding someone works on, else empty.
	State WorkflowStatus `json:"state"`
	// Assignee is the id of the user the finding is assigned to, or empty.
	Assignee  string     `json:"assignee"`
	Note      string     `json:"note"`
	CreatedBy string     `json:"created_by"`
	CreatedAt time.Time  `json:"created_at"`
	ExpiresAt *time.Time `json:"expires_at"`
}

// Evaluators builds the evaluator of one audit: the built-in rule pack plus
// the tenant's compiled policies. Implemented outside engine (engine/audit
// wires engine/rules and engine/policy), so that engine imports neither.
type Evaluators interface {
	// NewEvaluator compiles policies for one audit.
	NewEvaluator(tenantID string, policies []Policy, now time.Time) (Evaluator, error)
	// NormalizePolicy fills a policy's defaults (effect raise, trimmed name).
	NormalizePolicy(p Policy) Policy
	// ValidatePolicy checks a policy being written: validation_failed, with
	// the CEL error position when its expression does not compile.
	ValidatePolicy(p Policy) error
	// DryRunPolicy evaluates a raise policy over resources without writing
	// anything: validation_failed, invalid_limit, or the iterator's error.
	DryRunPolicy(ctx context.Context, p Policy, resources iter.Seq2[Resource, error], limit int) (PolicyDryRun, error)
}

// PolicyDryRun is what a policy would raise on the current inventory.
type PolicyDryRun struct {
	Matches []PolicyMatch `json:"matches"`
	// Matched counts all matching resources, also those past the limit.
	Matched    int `json:"matched"`
	Scanned    int `json:"scanned"`
	OutOfScope int `json:"out_of_scope"`
	// Errors counts resources on which evaluation failed (no match).
	Errors       int      `json:"errors"`
	ErrorSamples []string `json:"error_samples"`
}

// PolicyMatch is one resource a dry run matched.
type PolicyMatch struct {
	ResourceID string `json:"resource_id"`
	Name       string `json:"name"`
	Type       string `json:"type"`
}

// Evaluator turns one resource into the findings raised on it. Findings come
// with ID, rule, dimension, severity, texts, evidence and the denormalized
// resource fields set; the audit fills in the audit, status and times.
// Errors of one policy on one resource are counted, not fatal. Evaluate is
// safe for concurrent use; Finish is called once, after every Evaluate.
type Evaluator interface {
	Evaluate(r Resource) (findings []Finding, evalErrors int)
	// Finish returns, once every resource was evaluated, the findings of
	// account-wide rules and of checks that needed facts of a whole
	// account, and the resources they attach to that the inventory lacks
	// (the runner adds those to the inventory).
	Finish() (findings []Finding, missing []Resource)
	// NotEvaluated counts, after Finish, per rule id, the resources (or
	// accounts) the rule could not judge because the input lacked the
	// attributes it reads: "not evaluated", neither passed nor failed.
	NotEvaluated() map[string]int64
	// Evaluated counts, after Finish, per rule id, the resources (or
	// accounts) the rule judged, passed or failed: the checks that ran.
	Evaluated() map[string]int64
	// PolicyErrors lists, after Finish, the policies whose evaluation
	// failed on some resources, by policy id; nil when none did.
	PolicyErrors() []PolicyErrors
}

// errStopStream ends a callback stream early when its consumer is done.
var errStopStream = errors.New("stream stopped by its consumer")

// StreamSeq adapts a callback stream (a store's Stream* method) into an
// iterator.
func StreamSeq[T any](stream func(fn func(T) error) error) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		err := stream(func(v T) error {
			if !yield(v, nil) {
				return errStopStream
			}
			return nil
		})
		if err != nil && !errors.Is(err, errStopStream) {
			var zero T
			yield(zero, err)
		}
	}
}
