package graph_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// TestFindingWorkflowGraphQL: updateFinding and bulkUpdateFindings set the
// workflow as REST does, Finding.activity tells it, and tenant B can
// neither read nor change A's findings (issue 33 §2).
func TestFindingWorkflowGraphQL(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 20, findingsB: 5})
	admin, err := e.pg.GetUserByEmail(context.Background(), e.a.ID, "admin@acme.test")
	if err != nil {
		t.Fatal(err)
	}
	var open []string
	for _, f := range e.a.Findings {
		if f.Status == engine.StatusOpen {
			open = append(open, f.ID)
		}
	}
	type fnd struct {
		ID, Status, Resolution, WorkflowStatus string
		Assignee                               *string
		OpenAgeSeconds                         int
	}
	const fields = `id status resolution workflowStatus assignee openAgeSeconds`
	up := data[struct{ UpdateFinding fnd }](t, e.gql(t, e.tokA,
		`mutation($in: UpdateFindingInput!) { updateFinding(input: $in) { `+fields+` } }`,
		map[string]any{"in": map[string]any{"id": open[0], "status": "IN_PROGRESS", "assignee": admin.ID}}))
	if f := up.UpdateFinding; f.Status != "OPEN" || f.WorkflowStatus != "IN_PROGRESS" || f.Assignee == nil || *f.Assignee != admin.ID {
		t.Errorf("updateFinding: %+v", f)
	}
	var rf engine.Finding
	e.rest(t, "/v1/findings/"+open[0], e.tokA, &rf)
	if rf.WorkflowStatus != engine.WorkflowInProgress || rf.Assignee == nil || *rf.Assignee != admin.ID {
		t.Errorf("REST after updateFinding: %+v", rf)
	}
	fp := data[struct{ UpdateFinding fnd }](t, e.gql(t, e.tokA,
		`mutation($in: UpdateFindingInput!) { updateFinding(input: $in) { `+fields+` } }`,
		map[string]any{"in": map[string]any{"id": open[1], "status": "FALSE_POSITIVE", "note": "sandbox account"}}))
	if f := fp.UpdateFinding; f.Status != "RESOLVED" || f.Resolution != "FALSE_POSITIVE" || f.WorkflowStatus != "FALSE_POSITIVE" {
		t.Errorf("false positive: %+v", f)
	}
	act := data[struct {
		Finding struct {
			Activity struct {
				Nodes []struct {
					Kind, Actor, From, To, AuditID string
				}
				PageInfo struct{ HasNextPage bool }
			}
		}
	}](t, e.gql(t, e.tokA, `query($id: ID!) { finding(id: $id) { activity(first: 10) { nodes { kind actor from to auditId } pageInfo { hasNextPage } } } }`,
		map[string]any{"id": open[0]}))
	var kinds []string
	for _, n := range act.Finding.Activity.Nodes {
		kinds = append(kinds, n.Kind)
	}
	if strings.Join(kinds, ",") != "STATUS_CHANGED,ASSIGNED,SEEN" && strings.Join(kinds, ",") != "ASSIGNED,STATUS_CHANGED,SEEN" {
		t.Errorf("activity kinds %v", kinds)
	}

	bulk := data[struct {
		BulkUpdateFindings struct {
			Updated, Failed int
			Results         []struct {
				ID    string
				OK    bool
				Error *struct{ Code string }
			}
		}
	}](t, e.gql(t, e.tokA, `mutation($in: BulkUpdateFindingsInput!) { bulkUpdateFindings(input: $in) { updated failed results { id ok error { code } } } }`,
		map[string]any{"in": map[string]any{"ids": []string{open[2], engine.FindingID(e.a.ID, "r", "x")}, "status": "ACCEPTED_RISK", "note": "ok"}}))
	if b := bulk.BulkUpdateFindings; b.Updated != 1 || b.Failed != 1 || b.Results[1].Error == nil || b.Results[1].Error.Code != engine.CodeNotFound {
		t.Errorf("bulk: %+v", b)
	}

	for _, tc := range []struct{ name, query, want string }{
		{"fixed is not settable", `mutation { updateFinding(input: {id: "` + open[3] + `", status: FIXED}) { id } }`, engine.CodeValidationFailed},
		{"false positive without a note", `mutation { updateFinding(input: {id: "` + open[3] + `", status: FALSE_POSITIVE}) { id } }`, engine.CodeValidationFailed},
		{"unknown assignee", `mutation { updateFinding(input: {id: "` + open[3] + `", assignee: "usr_0000000000000000000000000"}) { id } }`, engine.CodeValidationFailed},
		{"bulk without ids or filter", `mutation { bulkUpdateFindings(input: {status: IN_PROGRESS}) { updated } }`, engine.CodeValidationFailed},
	} {
		if r := e.gql(t, e.tokA, tc.query, nil); r.code() != tc.want {
			t.Errorf("%s: %q, want %q: %+v", tc.name, r.code(), tc.want, r.Errors)
		}
	}
	if r := e.gql(t, e.tokAResources, `mutation { updateFinding(input: {id: "`+open[3]+`", status: IN_PROGRESS}) { id } }`, nil); r.code() != engine.CodeInsufficientScope {
		t.Errorf("resources-only token: %q", r.code())
	}

	// Tenant B: A's findings are not found, not changed, their activity not shown.
	if r := e.gql(t, e.tokB, `mutation { updateFinding(input: {id: "`+open[3]+`", status: IN_PROGRESS}) { id } }`, nil); r.code() != engine.CodeNotFound {
		t.Errorf("B updateFinding on A's: %q", r.code())
	}
	bb := data[struct{ BulkUpdateFindings struct{ Updated, Failed int } }](t, e.gql(t, e.tokB,
		`mutation($in: BulkUpdateFindingsInput!) { bulkUpdateFindings(input: $in) { updated failed } }`,
		map[string]any{"in": map[string]any{"ids": open[3:6], "status": "IN_PROGRESS"}}))
	if bb.BulkUpdateFindings.Updated != 0 || bb.BulkUpdateFindings.Failed != 3 {
		t.Errorf("B bulk on A's: %+v", bb)
	}
	// A filter naming A's user or resource selects none of A's findings.
	for _, f := range []map[string]any{{"assignee": admin.ID}, {"resourceId": e.a.Resources[0].ID, "status": "OPEN"}} {
		bf := data[struct{ BulkUpdateFindings struct{ Updated, Failed int } }](t, e.gql(t, e.tokB,
			`mutation($in: BulkUpdateFindingsInput!) { bulkUpdateFindings(input: $in) { updated failed } }`,
			map[string]any{"in": map[string]any{"filter": f, "note": "b was here"}}))
		if bf.BulkUpdateFindings.Updated != 0 || bf.BulkUpdateFindings.Failed != 0 {
			t.Errorf("B bulk by filter %v: %+v", f, bf)
		}
	}
	if r := e.gql(t, e.tokB, `{ finding(id: "`+open[0]+`") { activity { nodes { actor } } } }`, nil); r.code() != engine.CodeNotFound || strings.Contains(string(r.Data), admin.ID) {
		t.Errorf("B reads A's activity: %q %s", r.code(), r.Data)
	}
	e.rest(t, "/v1/findings/"+open[3], e.tokA, &rf)
	if rf.WorkflowStatus != engine.WorkflowOpen {
		t.Errorf("B changed A's finding: %+v", rf)
	}

	// Only an open finding can be in progress: the false positive fails
	// alone, in updateFinding and in a bulk update whose empty filter
	// selects what Query.findings lists without a filter (every status).
	if r := e.gql(t, e.tokA, `mutation { updateFinding(input: {id: "`+open[1]+`", status: IN_PROGRESS}) { id } }`, nil); r.code() != engine.CodeConflict {
		t.Errorf("IN_PROGRESS on a false positive: %q, want %q", r.code(), engine.CodeConflict)
	}
	listed := data[struct{ Findings struct{ Nodes []fnd } }](t, e.gql(t, e.tokA, `{ findings(first: 100) { nodes { `+fields+` } } }`, nil))
	all := data[struct {
		BulkUpdateFindings struct {
			Updated, Failed int
			Results         []struct {
				ID    string
				OK    bool
				Error *struct{ Code string }
			}
		}
	}](t, e.gql(t, e.tokA, `mutation { bulkUpdateFindings(input: {filter: {}, status: IN_PROGRESS}) { updated failed results { id ok error { code } } } }`, nil))
	if got := all.BulkUpdateFindings; len(got.Results) != len(listed.Findings.Nodes) || got.Failed == 0 {
		t.Errorf("bulk with an empty filter: %d results (%d failed) for %d listed", len(got.Results), got.Failed, len(listed.Findings.Nodes))
	}
	for i, it := range all.BulkUpdateFindings.Results {
		if i < len(listed.Findings.Nodes) && listed.Findings.Nodes[i].ID != it.ID {
			t.Errorf("result %d is %s, listed %s", i, it.ID, listed.Findings.Nodes[i].ID)
		}
		if it.ID == open[1] && (it.OK || it.Error == nil || it.Error.Code != engine.CodeConflict) {
			t.Errorf("bulk IN_PROGRESS on the false positive: %+v", it)
		}
	}
	var after engine.Finding
	e.rest(t, "/v1/findings/"+open[1], e.tokA, &after)
	if after.WorkflowStatus != engine.WorkflowFalsePositive {
		t.Errorf("the false positive after the bulk update: %s", after.WorkflowStatus)
	}
}

// TestFindingWorkflowOfMutedGraphQL: updateFinding and bulkUpdateFindings
// on a finding a mute rule mutes answer it as Query.finding reads it (and
// as REST's PATCH does): IN_PROGRESS stays MUTED with its rule, an
// accepted risk is RESOLVED, reopened it is MUTED again.
func TestFindingWorkflowOfMutedGraphQL(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 20})
	var open []string
	for _, f := range e.a.Findings {
		if f.Status == engine.StatusOpen {
			open = append(open, f.ID)
		}
	}
	exp := time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)
	rule := data[struct{ CreateMuteRule struct{ ID string } }](t, e.gql(t, e.tokA,
		`mutation($in: MuteRuleInput!) { createMuteRule(input: $in) { id } }`,
		map[string]any{"in": map[string]any{"expression": `finding.id in ["` + open[0] + `", "` + open[1] + `"]`, "reason": "r", "expiresAt": exp}})).CreateMuteRule.ID
	type fnd struct{ ID, Status, WorkflowStatus, MuteRuleID string }
	const fields = `id status workflowStatus muteRuleId`
	read := func(id string) fnd {
		return data[struct{ Finding fnd }](t, e.gql(t, e.tokA, `query($id: ID!) { finding(id: $id) { `+fields+` } }`, map[string]any{"id": id})).Finding
	}
	for _, c := range []struct {
		in                     map[string]any
		status, wf, muteRuleID string
	}{
		{map[string]any{"id": open[0], "status": "IN_PROGRESS"}, "MUTED", "IN_PROGRESS", rule},
		{map[string]any{"id": open[0], "status": "ACCEPTED_RISK", "note": "known"}, "RESOLVED", "ACCEPTED_RISK", ""},
		{map[string]any{"id": open[0], "status": "OPEN"}, "MUTED", "OPEN", rule},
		{map[string]any{"id": open[2], "status": "IN_PROGRESS"}, "OPEN", "IN_PROGRESS", ""}, // not muted: the clean twin
	} {
		got := data[struct{ UpdateFinding fnd }](t, e.gql(t, e.tokA,
			`mutation($in: UpdateFindingInput!) { updateFinding(input: $in) { `+fields+` } }`, map[string]any{"in": c.in})).UpdateFinding
		want := fnd{ID: c.in["id"].(string), Status: c.status, WorkflowStatus: c.wf, MuteRuleID: c.muteRuleID}
		if got != want || read(want.ID) != want {
			t.Errorf("updateFinding %v = %+v, read %+v; want %+v", c.in, got, read(want.ID), want)
		}
	}
	bulk := data[struct {
		BulkUpdateFindings struct{ Results []struct{ Finding fnd } }
	}](t, e.gql(t, e.tokA, `mutation($in: BulkUpdateFindingsInput!) { bulkUpdateFindings(input: $in) { results { finding { `+fields+` } } } }`,
		map[string]any{"in": map[string]any{"ids": []string{open[1]}, "status": "IN_PROGRESS"}}))
	want := fnd{ID: open[1], Status: "MUTED", WorkflowStatus: "IN_PROGRESS", MuteRuleID: rule}
	if r := bulk.BulkUpdateFindings.Results; len(r) != 1 || r[0].Finding != want || read(open[1]) != want {
		t.Errorf("bulkUpdateFindings = %+v, read %+v; want %+v", r, read(open[1]), want)
	}
}
