package engine

import (
	"context"
	"time"
)

// PrefixMuteRule starts the id of a mute rule.
const PrefixMuteRule = "mut"

// Limits on a mute rule.
const (
	// MaxMuteReason bounds a mute rule's reason, in bytes.
	MaxMuteReason = 2000
	// MaxMuteRuleLifetime is how far ahead expires_at may be.
	MaxMuteRuleLifetime = 366 * 24 * time.Hour
	// MaxActiveMuteRules bounds a tenant's enabled, unexpired rules: every
	// read of a list or count carries them.
	MaxActiveMuteRules = 100
)

// StatusMuted is the status of an open finding that an active mute rule
// matches: it leaves status=open lists and counts and names the rule in
// MuteRuleID. It is never stored in a snapshot.
const StatusMuted FindingStatus = "muted"

// MuteRule silences the open findings its CEL expression matches, with a
// reason, an owner and an expiry, without a new audit (see
// docs/design/mute-rules.md). The expression sees `finding` and `resource`
// as severity policies do.
type MuteRule struct {
	ID         string    `json:"id"`
	TenantID   string    `json:"-"`
	Expression string    `json:"expression"`
	Reason     string    `json:"reason"`
	Owner      string    `json:"owner"` // a user id of the tenant (usr_…)
	ExpiresAt  time.Time `json:"expires_at"`
	Enabled    bool      `json:"enabled"`
	Version    int       `json:"version"`
	CreatedBy  string    `json:"created_by"`
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at"`
	// Active is Enabled and not expired, at the time of the answer.
	Active bool `json:"active"`
	// Applied is the rule's latest evaluation over a snapshot at its
	// current version; nil until one finished.
	Applied *MuteApplication `json:"applied"`
}

// MuteApplication records that a version of a rule was evaluated over an
// audit's snapshot and its matches stored: from then on reads of that
// snapshot honour it while the rule is active.
type MuteApplication struct {
	TenantID  string    `json:"-"`
	RuleID    string    `json:"-"`
	Version   int       `json:"version"`
	AuditID   string    `json:"audit_id"`
	Matched   int64     `json:"matched"`
	AppliedAt time.Time `json:"applied_at"`
}

// MuteRef names one version of a mute rule whose matches a read honours.
type MuteRef struct {
	RuleID  string
	Version int
}

// ActiveMute is an enabled, unexpired rule applied to a snapshot.
type ActiveMute struct {
	MuteRef
	AuditID   string
	ExpiresAt time.Time
}

// MuteRuleInput is a mute rule as a caller writes it. On update, nil
// fields are left as they are.
type MuteRuleInput struct {
	Expression *string    `json:"expression"`
	Reason     *string    `json:"reason"`
	Owner      *string    `json:"owner"`
	ExpiresAt  *time.Time `json:"expires_at"`
	Enabled    *bool      `json:"enabled"`
}

// MuteRuleChange is one recorded change of a mute rule: who made it, when,
// and the rule before and after (nil before its creation, after its
// deletion).
type MuteRuleChange struct {
	ID       int64     `json:"id"`
	TenantID string    `json:"-"`
	RuleID   string    `json:"rule_id"`
	Action   string    `json:"action"` // created, updated or deleted
	Actor    string    `json:"actor"`  // the user id, or the token id of a machine client
	At       time.Time `json:"at"`
	Before   *MuteRule `json:"before"`
	After    *MuteRule `json:"after"`
}

// Mute rule change actions.
const (
	MuteRuleCreated = "created"
	MuteRuleUpdated = "updated"
	MuteRuleDeleted = "deleted"
)

// MuteRuleQuery is one page of a tenant's mute rules, newest first.
type MuteRuleQuery struct {
	TenantID string
	BeforeID string
	Limit    int
}

// MuteMatcher is a compiled mute rule expression.
type MuteMatcher interface {
	// NeedsResource reports whether the expression reads a resource field
	// that findings do not carry (name, native_id, tags, attributes).
	NeedsResource() bool
	// Match evaluates the expression on a finding and its resource (nil:
	// built from the finding's denormalized fields). An evaluation error
	// does not mute.
	Match(ctx context.Context, f *Finding, r *Resource) (bool, error)
}

// MuteCompiler compiles mute rule expressions; Config.Evaluators
// implements it when mute rules are available.
type MuteCompiler interface {
	// CompileMute type-checks expr in the environment of severity
	// policies: validation_failed with the CEL error position.
	CompileMute(expr string) (MuteMatcher, error)
}
