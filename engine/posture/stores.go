package posture

import (
	"context"

	"github.com/fourd-dev/fourd/engine"
)

// The stores the judge calls, each only the methods it needs;
// store/clickhouse and store/postgres implement them (cmd/fourd asserts
// it at compile time).

// Store keeps the postures recorded for the trend
// (store/postgres).
type Store interface {
	// PutCompliancePostures records the posture of each framework for one
	// completed audit (AuditID and AuditCompletedAt set), replacing what
	// was recorded for that audit. A posture of an audit the store does
	// not hold (deleted meanwhile) is not recorded.
	PutCompliancePostures(ctx context.Context, tenantID string, postures []engine.CompliancePosture) error
	// ListCompliancePostures returns the recorded postures of one
	// framework, newest audit first (by completion time, then audit id),
	// after q.After when set, at most q.Limit.
	ListCompliancePostures(ctx context.Context, q engine.CompliancePostureQuery) ([]engine.CompliancePosture, error)
}
