package engine

// MuteDryRun is what a mute rule would do to the latest snapshot now.
type MuteDryRun struct {
	AuditID string `json:"audit_id"`
	// Matched counts the open findings (as lists show them) the expression
	// matches: those the rule would mute.
	Matched int64 `json:"matched"`
	// Scanned counts the open findings evaluated.
	Scanned int64 `json:"scanned"`
	// Errors counts findings on which the evaluation failed (not muted).
	Errors int64 `json:"errors"`
	// Sample is the first matched findings, in list order, up to the limit.
	Sample []Finding `json:"sample"`
}

// Limits of a dry run's sample.
const (
	DefaultMuteSample = 20
	MaxMuteSample     = 200
)
