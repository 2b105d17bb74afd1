package engine

import (
	"encoding/json"
	"time"
)

// Passing evidence: an auditor accepts a control as passed on evidence of
// passing too, so the compliance evidence lists, per control, a bounded
// sample of resources its checks passed with what each check read. The
// snapshot keeps failures only, so the sample is explained (ExplainResource's
// checks, those that read the resource alone) on the inventory held when
// the report is built.

// MaxPassingResourcesPerControl bounds the passing resources a control
// lists; ResourcesPassing counts them all and PassingOmitted the rest.
const MaxPassingResourcesPerControl = 5

// PassingResource is a resource a check passed, with what the check read.
type PassingResource struct {
	RuleID     string `json:"rule_id"`
	ResourceID string `json:"resource_id"`
	NativeID   string `json:"native_id"` // the ARN or the provider's id
	Name       string `json:"name"`
	Type       string `json:"type"`
	Account    string `json:"account"`
	Region     string `json:"region"`
	// Evidence is what the check read: the attribute values it judged.
	Evidence json.RawMessage `json:"evidence"`
	// EvaluatedAt is when the check ran on the resource (the report's
	// build, on the inventory then held).
	EvaluatedAt time.Time `json:"evaluated_at"`
	// CapturedAt and ObservedAt are as in AffectedResource: when the
	// source captured the configuration read, when known, and when fourd
	// last imported it.
	CapturedAt *time.Time `json:"captured_at,omitempty"`
	ObservedAt *time.Time `json:"observed_at,omitempty"`
}
