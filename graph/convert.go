package graph

import (
	"context"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// caller returns the request's authenticated caller, set by the gate.
func caller(ctx context.Context) engine.Principal { return engine.PrincipalFromContext(ctx) }

// pageRequest turns a connection's arguments into an engine page request.
// Connections page forward only: last/before are invalid_request. first
// must be 1–200 (invalid_limit, as REST's limit); omitted it is 50.
func pageRequest(first *int, after *string, last *int, before *string) (engine.PageRequest, error) {
	if last != nil || before != nil {
		return engine.PageRequest{}, &engine.Error{Code: engine.CodeInvalidRequest, Field: "last",
			Message: "connections page forward only: use first and after (last and before are not supported)"}
	}
	var pr engine.PageRequest
	if first != nil {
		if *first < 1 || *first > engine.MaxLimit {
			return pr, &engine.Error{Code: engine.CodeInvalidLimit, Field: "first",
				Message: "first must be an integer from 1 to 200"}
		}
		pr.Limit = *first
	}
	if after != nil {
		if *after == "" {
			return pr, &engine.Error{Code: engine.CodeInvalidCursor, Field: "after",
				Message: "after must be a cursor from a previous page; omit it for the first page"}
		}
		pr.Cursor = *after
	}
	return pr, nil
}

// findingFilter validates a findings filter as REST validates its query
// parameters (ids of the right kind); enums are already checked by the
// schema. nil is no filter.
func findingFilter(f *engine.FindingFilter) (engine.FindingFilter, error) {
	if f == nil {
		return engine.FindingFilter{}, nil
	}
	var tags []string
	if f.Tags != "" { // checked by the input's resolver; checked again
		tags = strings.Split(f.Tags, "\n")
	}
	timeText := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.Format(time.RFC3339Nano)
	}
	return engine.FindingFilterInput{
		AuditID: f.AuditID, Severity: string(f.Severity), Dimension: string(f.Dimension), Status: string(f.Status),
		ResourceID: f.ResourceID, RuleID: f.RuleID, ResourceType: f.ResourceType, Account: f.Account, Region: f.Region,
		Tags: tags, Compliance: f.Compliance, Assignee: f.Assignee, Q: f.Q,
		FirstSeenAfter: timeText(f.FirstSeenAfter), FirstSeenBefore: timeText(f.FirstSeenBefore),
	}.Parse()
}

// groupByOrDefault is the grouping of findingStats: REST's default (severity) when
// omitted, none for an empty list.
func groupByOrDefault(gs []engine.GroupBy) []engine.GroupBy {
	if gs == nil {
		return []engine.GroupBy{engine.GroupBySeverity}
	}
	return gs
}

// dryRunLimit validates the limit of a policy dry run.
func dryRunLimit(limit *int) (int, error) {
	if limit == nil {
		return engine.DefaultDryRunLimit, nil
	}
	if *limit < 1 || *limit > engine.MaxLimit {
		return 0, &engine.Error{Code: engine.CodeInvalidLimit, Field: "limit", Message: "limit must be an integer from 1 to 200"}
	}
	return *limit, nil
}

// nonEmpty returns a pointer to s, or nil when s is empty.
func nonEmpty[T ~string](s T) *T {
	if s == "" {
		return nil
	}
	return &s
}

// orNil returns &v, or nil with the error.
func orNil[T any](v T, err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// dashboardQuery is a dashboard ranking's arguments as engine takes them.
func dashboardQuery(first *int, auditID *string, dimension *engine.Dimension) engine.DashboardQuery {
	q := engine.DashboardQuery{}
	if first != nil {
		q.Limit = *first
		if q.Limit == 0 {
			q.Limit = -1 // first: 0 is out of range, not the default
		}
	}
	if auditID != nil {
		q.AuditID = *auditID
	}
	if dimension != nil {
		q.Dimension = *dimension
	}
	return q
}
