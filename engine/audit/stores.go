package audit

import (
	"context"
	"iter"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// The stores only audits call; store/postgres implements them (cmd/fourd
// asserts it at compile time). The stores the read path shares with audits
// (engine.SnapshotStore, engine.InventoryReader, …) are the root's.

// Queue is the durable work queue of audits (PostgreSQL).
type Queue interface {
	// ClaimAudit takes the oldest queued audit, or a running one whose lease
	// expired, for worker; not_found when there is none.
	ClaimAudit(ctx context.Context, worker string, lease time.Duration) (engine.Audit, error)
	// CompleteAudit appends the events to the outbox and then writes the
	// audit returned by final (completed, failed or canceled, as its Status
	// says), in one transaction: either both are stored or neither. final is
	// called after events is exhausted, so it may report what they counted.
	CompleteAudit(ctx context.Context, events iter.Seq2[engine.Event, error], final func() engine.Audit) error
	// engine/policies' Store pages policies; AllPolicies returns every live
	// policy of a tenant (enabled or not).
	AllPolicies(ctx context.Context, tenantID string) ([]engine.Policy, error)
}
