package engine

import (
	"encoding/json"
	"time"
)

// Finding is one security, cost, architectural or compliance issue that an
// audit found on a resource. Findings are stored as immutable snapshots,
// one per completed audit; the id is stable across audits (see FindingID).
type Finding struct {
	ID          string        `json:"id"`
	TenantID    string        `json:"-"`
	AuditID     string        `json:"audit_id"`
	ResourceID  string        `json:"resource_id"`
	RuleID      string        `json:"rule_id"` // a built-in rule id or a policy id (pol_…)
	Dimension   Dimension     `json:"dimension"`
	Severity    Severity      `json:"severity"`
	Status      FindingStatus `json:"status"`
	Resolution  Resolution    `json:"resolution,omitempty"`
	Title       string        `json:"title"`
	Description string        `json:"description"`
	Remediation string        `json:"remediation"`
	// Evidence is a JSON object with what the rule saw.
	Evidence json.RawMessage `json:"evidence"`
	// Compliance lists control references, e.g. "CIS-AWS-4.0.1:2.1.1".
	Compliance []string `json:"compliance"`
	// Denormalized from the resource so that aggregations need no join.
	ResourceType string `json:"resource_type"`
	Provider     string `json:"provider"`
	Account      string `json:"account"`
	Region       string `json:"region"`

	FirstSeenAt time.Time  `json:"first_seen_at"`
	LastSeenAt  time.Time  `json:"last_seen_at"`
	ResolvedAt  *time.Time `json:"resolved_at"`
	// MuteRuleID names the mute rule that mutes the finding (status
	// muted); empty otherwise.
	MuteRuleID string `json:"mute_rule_id,omitempty"`

	// WorkflowStatus refines Status: open or in_progress (status open),
	// accepted_risk, false_positive or fixed (status resolved).
	WorkflowStatus WorkflowStatus `json:"workflow_status"`
	// Assignee is the id of the user the finding is assigned to; nil for
	// nobody.
	Assignee *string `json:"assignee"`
	// OpenAgeSeconds is how long the finding has been open: from
	// first_seen_at to the read while open, to resolved_at once resolved.
	OpenAgeSeconds int64 `json:"open_age_seconds"`
}

// FindingFilter selects findings. Empty fields do not filter.
type FindingFilter struct {
	// AuditID selects the snapshot of that audit; empty means the latest
	// completed audit of the tenant.
	AuditID      string
	Severity     Severity
	Dimension    Dimension
	Status       FindingStatus
	ResourceID   string
	RuleID       string
	ResourceType string
	Account      string
	Region       string

	// Row filters (see RowFilters), which the snapshot's precomputed counts
	// cannot answer. Tags holds the resource tag filters as sorted, distinct
	// key=value lines (TagPairs), every one required; Compliance a control
	// (CIS-AWS-4.0.1:2.1.4) or a whole framework (CIS-AWS-4.0.1); Assignee a
	// user id; Q a text searched case-insensitively in the title, the
	// resource's name and its native id; FirstSeenAfter (inclusive) and
	// FirstSeenBefore (exclusive) bound first_seen_at. Tags is a string, not
	// a slice, so that a filter stays comparable (a cache key).
	Tags            string
	Compliance      string
	Assignee        string
	Q               string
	FirstSeenAfter  time.Time
	FirstSeenBefore time.Time
}

// FindingFilterInput is a FindingFilter as callers send it: raw strings,
// validated by Parse.
type FindingFilterInput struct {
	AuditID, Severity, Dimension, Status, ResourceID, RuleID, ResourceType, Account, Region string
	// Tags are key=value resource tag filters (all must hold).
	Tags []string
	// Compliance, Assignee and Q as in FindingFilter; the first-seen
	// bounds are RFC 3339 times.
	Compliance, Assignee, Q, FirstSeenAfter, FirstSeenBefore string
}

// Parse validates the input and returns the filter. Unknown values of the
// closed sets are errors naming the allowed values.
func (in FindingFilterInput) Parse() (FindingFilter, error) {
	f := FindingFilter{ResourceType: in.ResourceType, Account: in.Account, Region: in.Region, RuleID: in.RuleID}
	var err error
	if in.Severity != "" {
		if f.Severity, err = ParseSeverity(in.Severity); err != nil {
			return f, err
		}
	}
	if in.Dimension != "" {
		if f.Dimension, err = OneOf("dimension", in.Dimension, Dimensions); err != nil {
			return f, err
		}
	}
	if in.Status != "" {
		if f.Status, err = OneOf("status", in.Status, []FindingStatus{StatusOpen, StatusResolved, StatusMuted}); err != nil {
			return f, err
		}
	}
	if in.AuditID != "" {
		if !ValidID(PrefixAudit, in.AuditID) {
			return f, FieldErrorf("audit_id", "audit_id must be an audit id (aud_…); got %s", quote(in.AuditID))
		}
		f.AuditID = in.AuditID
	}
	if in.ResourceID != "" {
		if !ValidID(PrefixResource, in.ResourceID) {
			return f, FieldErrorf("resource_id", "resource_id must be a resource id (res_…); got %s", quote(in.ResourceID))
		}
		f.ResourceID = in.ResourceID
	}
	if err := in.parseRowFilters(&f); err != nil {
		return f, err
	}
	return f, nil
}

// FindingKey is a position in the findings order: most severe first, then by
// id ascending.
type FindingKey struct {
	SeverityRank int    `json:"s"`
	ID           string `json:"i"`
}

// FindingQuery is what the analytics store needs to read one page of a
// snapshot: the filter with a resolved AuditID, the position after which to
// start (nil for the first page) and how many rows at most.
type FindingQuery struct {
	TenantID string
	Filter   FindingFilter
	After    *FindingKey
	Limit    int
	// Manual decisions made since the snapshot was written: findings to
	// treat as resolved, or as open, whatever the snapshot says. They only
	// matter to a status filter.
	ForceResolved []string
	ForceOpen     []string
	// Mutes are the active mute rules applied to the snapshot: the open
	// findings they match are muted (status muted, out of status open).
	Mutes []MuteRef
	// MuteSet, when not empty, is the build of the materialised set of
	// Mutes over the snapshot (MuteSetWriter): the store reads it instead
	// of each rule's matches.
	MuteSet string
	// OnlyIDs, when not nil, restricts the read to these findings: an
	// assignee filter, resolved from the decisions (assignedTo).
	OnlyIDs []string
	// OmitEvidence says the reader prints no evidence (the CSV export):
	// the store leaves Finding.Evidence nil instead of reading it.
	OmitEvidence bool
}

// Matches reports whether f passes the filter (AuditID and the row
// filters aside: those need the store, see RowFilters).
func (flt FindingFilter) Matches(f Finding) bool {
	return (flt.Severity == "" || f.Severity == flt.Severity) &&
		(flt.Dimension == "" || f.Dimension == flt.Dimension) &&
		(flt.Status == "" || f.Status == flt.Status) &&
		(flt.ResourceID == "" || f.ResourceID == flt.ResourceID) &&
		(flt.RuleID == "" || f.RuleID == flt.RuleID) &&
		(flt.ResourceType == "" || f.ResourceType == flt.ResourceType) &&
		(flt.Account == "" || f.Account == flt.Account) &&
		(flt.Region == "" || f.Region == flt.Region)
}

// GroupBy names a field findings can be counted by.
type GroupBy string

// Fields findings can be grouped by.
const (
	GroupBySeverity     GroupBy = "severity"
	GroupByDimension    GroupBy = "dimension"
	GroupByResourceType GroupBy = "resource_type"
	GroupByAccount      GroupBy = "account"
	GroupByRegion       GroupBy = "region"
	GroupByRule         GroupBy = "rule"
	GroupByStatus       GroupBy = "status"
	// GroupByAge groups by AgeBuckets.
	GroupByAge GroupBy = "age"
)

// GroupBys lists the fields findings can be grouped by.
var GroupBys = []GroupBy{GroupBySeverity, GroupByDimension, GroupByResourceType, GroupByAccount, GroupByRegion, GroupByRule,
	GroupByStatus, GroupByAge}

// AgeBucket is a group of group_by=age: how long before the read a
// finding was first seen (for an open finding, its open age), youngest
// first; each bucket holds ages from its lower bound (inclusive) to the
// next one's (exclusive).
type AgeBucket struct {
	Name string
	// Min is the bucket's lower bound.
	Min time.Duration
}

// AgeBuckets are the buckets of group_by=age, youngest first: under 7
// days, 7–30 days, 30–90 days, 90–365 days, a year and more.
var AgeBuckets = []AgeBucket{
	{"lt_7d", 0}, {"7d_30d", 7 * 24 * time.Hour}, {"30d_90d", 30 * 24 * time.Hour},
	{"90d_365d", 90 * 24 * time.Hour}, {"gte_365d", 365 * 24 * time.Hour},
}

// AgeBucketRank is the position of an age bucket in AgeBuckets (-1 when
// it is none), the order of group_by=age.
func AgeBucketRank(name string) int {
	for i, b := range AgeBuckets {
		if b.Name == name {
			return i
		}
	}
	return -1
}

// FindingCountQuery asks the analytics store for counts of a snapshot's
// findings grouped by zero or more fields.
type FindingCountQuery struct {
	TenantID string
	Filter   FindingFilter // AuditID resolved
	GroupBy  []GroupBy
	// Rows asks for a count of the snapshot's rows rather than of its
	// precomputed counts (for the row filters and the age grouping): the
	// decisions (ForceResolved, ForceOpen, OnlyIDs) and the mutes are then
	// applied by the store, as a page read applies them, and Now is the
	// time ages are measured to.
	Rows          bool
	ForceResolved []string
	ForceOpen     []string
	Mutes         []MuteRef
	// MuteSet is the build of the materialised set of Mutes, when built
	// (as FindingQuery.MuteSet); CountMuted reads its counts.
	MuteSet string
	OnlyIDs []string
	Now     time.Time
}

// FindingCount is one group of a count: the values of the grouped fields
// (keyed by field name) and how many findings fall in it.
type FindingCount struct {
	Key   map[GroupBy]string `json:"key"`
	Count int64              `json:"count"`
}

// FindingSummary is the answer to a grouped count.
type FindingSummary struct {
	AuditID string         `json:"audit_id"`
	GroupBy []GroupBy      `json:"group_by"`
	Total   int64          `json:"total"`
	Groups  []FindingCount `json:"groups"`
}
