package rest

import (
	"net/http"
	"slices"

	"github.com/fourd-dev/fourd/engine"
)

// findingFilterParams are the filters of the findings list and summary.
var findingFilterParams = []string{"severity", "dimension", "status", "resource_id", "audit_id",
	"rule_id", "resource_type", "account", "region", "tag", "compliance", "assignee", "q", "first_seen_after", "first_seen_before"}

// findingListParams are the parameters of the findings list.
var findingListParams = params(pageParams, findingFilterParams)

// findingFilter parses the filters of the findings list and summary. An
// empty value counts as absent, except severity= (empty), which is 422
// invalid_severity_filter like any value outside the five: a severity
// filter that lost its value must not widen the list to every severity.
func (q query) findingFilter(r *http.Request) (engine.FindingFilter, error) {
	all := r.URL.Query()
	vs := all["severity"]
	return q.findingFilterOf(len(vs) == 1 && vs[0] == "", all["tag"])
}

// findingFilterOf parses the filters in q and the tag filters (tag is the
// one repeatable filter: every tag given must hold); emptySeverity says
// severity was given empty (refused, see findingFilter).
func (q query) findingFilterOf(emptySeverity bool, tags []string) (engine.FindingFilter, error) {
	if emptySeverity {
		if _, err := engine.ParseSeverity(""); err != nil {
			return engine.FindingFilter{}, err
		}
	}
	return engine.FindingFilterInput{
		AuditID: q["audit_id"], Severity: q["severity"], Dimension: q["dimension"], Status: q["status"],
		ResourceID: q["resource_id"], RuleID: q["rule_id"], ResourceType: q["resource_type"],
		Account: q["account"], Region: q["region"], Tags: tags, Compliance: q["compliance"], Assignee: q["assignee"],
		Q: q["q"], FirstSeenAfter: q["first_seen_after"], FirstSeenBefore: q["first_seen_before"],
	}.Parse()
}

// isFindingFilterParam reports whether name is a filter of the findings list.
func isFindingFilterParam(name string) bool { return slices.Contains(findingFilterParams, name) }

// listFindings serves GET /v1/findings: most severe first, then by id.
func (a *api) listFindings(w http.ResponseWriter, r *http.Request) error {
	q, err := parseQuery(r, findingListParams...)
	if err != nil {
		return err
	}
	f, err := q.findingFilter(r)
	if err != nil {
		return err
	}
	pr, err := q.page()
	if err != nil {
		return err
	}
	pr.Shared = true // only encoded
	p := principal(r)
	page, err := a.svc.ListFindings(r.Context(), p, f, pr)
	if err != nil {
		return err
	}
	writeList(a, w, r, p.TenantID, page)
	return nil
}

// summarizeFindings serves GET /v1/findings/summary: counts of the findings
// matching the list's filters, grouped by group_by (comma-separated; default
// severity).
func (a *api) summarizeFindings(w http.ResponseWriter, r *http.Request) error {
	q, err := parseQuery(r, params([]string{"group_by"}, findingFilterParams)...)
	if err != nil {
		return err
	}
	f, err := q.findingFilter(r)
	if err != nil {
		return err
	}
	groupBy := []engine.GroupBy{engine.GroupBySeverity}
	if s, ok := q["group_by"]; ok {
		if groupBy, err = engine.ParseGroupBy(s); err != nil {
			return err
		}
	}
	sum, err := a.svc.SummarizeFindings(r.Context(), principal(r), f, groupBy)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, sum)
	return nil
}
