package audit

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Reads is what an audit needs from the read path (engine's Service gives
// it through AuditReads): the tenant's finding overrides, the mute rules it
// applies to a new snapshot, and the read-side state a completed audit
// makes stale.
type Reads interface {
	// Overrides returns the tenant's live finding overrides by finding id.
	Overrides(ctx context.Context, tenantID string) (map[string]engine.FindingOverride, error)
	// AuditMutes applies the tenant's active mute rules to the snapshot
	// of auditID and returns the ids of the findings they mute.
	AuditMutes(ctx context.Context, tenantID, auditID string) (map[string]struct{}, error)
	// SettleMuteSet builds the snapshot's mute set (reads are correct
	// without it, only slower).
	SettleMuteSet(ctx context.Context, tenantID, auditID string) error
	// Invalidate forgets what the read caches hold for the tenant (its
	// latest completed audit changed, or may have).
	Invalidate(tenantID string)
}

// PostureRecorder records a completed audit's compliance posture for the
// trend, best effort: failures are logged (engine/posture's Operator).
type PostureRecorder interface {
	RecordCompliancePosture(ctx context.Context, a engine.Audit)
}

// Config holds what the audit Service needs. Audits, Snapshots, Inventory,
// Queue, Evaluators, Findings, Resources and Reads are required for audits
// to run; without them every audit operation answers unavailable.
type Config struct {
	Audits     engine.AuditStore
	Snapshots  engine.SnapshotStore
	Inventory  engine.InventoryReader
	Queue      Queue
	Evaluators engine.Evaluators
	// Findings counts a completed snapshot for the audit's summary.
	Findings engine.FindingStore
	// Resources takes back the observations an evaluator completes
	// (Evaluator.Finish's missing resources).
	Resources engine.ResourceStore
	// Reads is the read path's side of an audit.
	Reads Reads
	// Postures records each completed audit's compliance posture;
	// optional, audits record none without it.
	Postures PostureRecorder
	// Events is the outbox; EventLog its analytic copy. Both optional.
	Events   engine.EventStore
	EventLog engine.EventLog
	// ResolvedRetention is how long resolved findings are carried forward
	// in later snapshots; default 90 days.
	ResolvedRetention time.Duration
	Logger            *slog.Logger
	Now               func() time.Time
}

// Service runs audits: it queues and cancels them and runs one for the
// command line (AuditNow); its Operator claims and runs queued ones. A run
// evaluates the inventory, writes the snapshot and publishes the events.
// Each method checks its caller's scope itself.
type Service struct {
	cfg       Config
	log       *slog.Logger
	now       func() time.Time
	publisher engine.Publisher
}

// Operator is the audits' principal-less side, for cmd/fourd: the workers
// that claim queued audits and run them (RunAuditWorker), and running one
// claimed audit (RunAudit). Only NewService returns one, so no API adapter
// holding the Service can run an audit past its queue.
type Operator struct{ s *Service }

// NewService returns an audit Service over the configured stores and its
// Operator.
func NewService(cfg Config) (*Service, *Operator, error) {
	if cfg.Audits == nil {
		return nil, nil, errors.New("audit: Audits is required")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.ResolvedRetention == 0 {
		cfg.ResolvedRetention = 90 * 24 * time.Hour
	}
	s := &Service{cfg: cfg, log: cfg.Logger, now: cfg.Now,
		publisher: engine.Publisher{Events: cfg.Events, Log: cfg.EventLog, Logger: cfg.Logger}}
	return s, &Operator{s}, nil
}
