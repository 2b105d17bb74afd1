package graph_test

import "testing"

// TestMutedConnectionsAgreeWithCounts: with a mute rule over some findings
// and a muted finding someone accepted, a findings connection (no status,
// each status, with and without other filters, row filters included)
// pages through exactly totalCount findings, findingStats with the same
// filter counts as many, and the muted ones show where the status says
// (issue 33 §1). Resource.findings agrees too.
func TestMutedConnectionsAgreeWithCounts(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 60, findingsB: 20})
	ruleID, matched := createMute(t, e, e.tokA, `resource.type == "aws_s3_bucket"`)
	if matched == 0 || matched >= len(e.a.Findings) {
		t.Fatalf("seed: the rule mutes %d of %d", matched, len(e.a.Findings))
	}
	type node struct {
		ID         string
		Status     string // the enum: OPEN, RESOLVED, MUTED
		MuteRuleID *string
		Resource   struct{ ID string }
	}
	type conn struct {
		TotalCount int
		PageInfo   struct {
			HasNextPage bool
			EndCursor   *string
		}
		Nodes []node
	}
	walk := func(t *testing.T, filter map[string]any) ([]node, int) {
		t.Helper()
		var out []node
		total := -1
		var after *string
		for {
			c := data[struct{ Findings conn }](t, e.gql(t, e.tokA, `query($f: FindingFilter, $a: String) {
			  findings(first: 25, after: $a, filter: $f) { totalCount pageInfo { hasNextPage endCursor } nodes { id status muteRuleId resource { id } } } }`,
				map[string]any{"f": filter, "a": after})).Findings
			if total >= 0 && c.TotalCount != total {
				t.Errorf("%v: totalCount %d on one page, %d on the next", filter, total, c.TotalCount)
			}
			total = c.TotalCount
			out = append(out, c.Nodes...)
			if !c.PageInfo.HasNextPage {
				return out, total
			}
			after = c.PageInfo.EndCursor
		}
	}
	all, _ := walk(t, map[string]any{})
	var mutedOne, mutedResource string
	for _, n := range all {
		if n.Status == "MUTED" {
			mutedOne, mutedResource = n.ID, n.Resource.ID
			break
		}
	}
	if mutedOne == "" {
		t.Fatal("nothing muted")
	}
	data[map[string]any](t, e.gql(t, e.tokA, `mutation($id: ID!) { updateFinding(input: {id: $id, status: ACCEPTED_RISK}) { id } }`,
		map[string]any{"id": mutedOne}))
	seen := map[string]int{}
	for _, filter := range []map[string]any{{}, {"severity": "HIGH"}, {"resourceType": "aws_s3_bucket"}, {"q": "bucket"}, {"firstSeenAfter": "2000-01-01T00:00:00Z"}} {
		for _, status := range []string{"", "OPEN", "RESOLVED", "MUTED"} {
			f := map[string]any{}
			for k, v := range filter {
				f[k] = v
			}
			if status != "" {
				f["status"] = status
			}
			nodes, total := walk(t, f)
			if total != len(nodes) {
				t.Errorf("%v: the connection pages through %d findings, totalCount is %d", f, len(nodes), total)
			}
			stats := data[struct{ FindingStats struct{ Total int } }](t, e.gql(t, e.tokA,
				`query($f: FindingFilter) { findingStats(groupBy: [], filter: $f) { total } }`, map[string]any{"f": f})).FindingStats
			if stats.Total != len(nodes) {
				t.Errorf("%v: the connection pages through %d findings, findingStats counts %d", f, len(nodes), stats.Total)
			}
			for _, n := range nodes {
				if status != "" && n.Status != status {
					t.Errorf("%v lists %s as %s", f, n.ID, n.Status)
				}
				if (n.Status == "MUTED") != (n.MuteRuleID != nil && *n.MuteRuleID == ruleID) {
					t.Errorf("%v lists %s as %s, muted by %v", f, n.ID, n.Status, n.MuteRuleID)
				}
				if len(filter) == 0 {
					seen[n.Status]++
				}
			}
		}
	}
	if seen["MUTED"] == 0 || seen["OPEN"] == 0 || seen["RESOLVED"] == 0 {
		t.Errorf("seed: statuses seen %v", seen)
	}
	// A resource's findings: the muted resource's connection counts what it lists.
	r := data[struct {
		Resource struct{ Findings conn }
	}](t, e.gql(t, e.tokA, `query($id: ID!) { resource(id: $id) { findings(first: 100) { totalCount nodes { id status muteRuleId } } } }`,
		map[string]any{"id": mutedResource})).Resource.Findings
	if r.TotalCount != len(r.Nodes) || len(r.Nodes) == 0 {
		t.Errorf("resource %s: %d findings listed, totalCount %d", mutedResource, len(r.Nodes), r.TotalCount)
	}
}
