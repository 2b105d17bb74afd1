package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// patchFinding sends PATCH /v1/findings/{id} with body as token.
func (e *env) patchFinding(t *testing.T, id, token, body string) response {
	t.Helper()
	return do(t, e.client, http.MethodPatch, e.url+"/v1/findings/"+id, token, []byte(body), jsonHeader("application/json"))
}

// openFindings returns the ids of tenant A's open findings, and its
// summary's open count.
func (e *env) openIDs(t *testing.T) ([]string, int64) {
	t.Helper()
	var ids []string
	for _, f := range getJSON[listBody[engine.Finding]](t, e, "/v1/findings?status=open&limit=200", e.tokA).Data {
		ids = append(ids, f.ID)
	}
	sum := getJSON[engine.FindingSummary](t, e, "/v1/findings/summary?status=open&group_by=", e.tokA)
	return ids, sum.Total
}

// TestFindingWorkflow: in_progress stays in open lists and counts, a false
// positive (with a note) leaves them like an accepted risk; an assignee
// must be a user of the tenant; every change is in the activity with the
// audit that saw the finding (issue 33 §2).
func TestFindingWorkflow(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 30, findingsB: 5})
	ctx := context.Background()
	bot, err := e.pg.GetUserByEmail(ctx, e.a.ID, "bot@acme.test")
	if err != nil {
		t.Fatal(err)
	}
	other, err := e.pg.GetUserByEmail(ctx, e.b.ID, "admin@globex.test")
	if err != nil {
		t.Fatal(err)
	}
	open0, count0 := e.openIDs(t)
	if int64(len(open0)) != count0 || count0 == 0 {
		t.Fatalf("open list %d vs count %d", len(open0), count0)
	}
	a, b := open0[0], open0[1]

	r := e.patchFinding(t, a, e.tokA, `{"status":"in_progress","assignee":"`+bot.ID+`"}`)
	f := decodeBody[engine.Finding](t, r)
	if r.status != 200 || f.Status != engine.StatusOpen || f.WorkflowStatus != engine.WorkflowInProgress ||
		f.Assignee == nil || *f.Assignee != bot.ID {
		t.Fatalf("in_progress: %d %s", r.status, r.body)
	}
	if age := int64(e.clock.Now().Sub(f.FirstSeenAt).Seconds()); f.OpenAgeSeconds < age-2 || f.OpenAgeSeconds > age+2 {
		t.Errorf("open_age_seconds = %d, want about %d", f.OpenAgeSeconds, age)
	}
	if ids, n := e.openIDs(t); !slices.Contains(ids, a) || n != count0 {
		t.Errorf("in progress left the open list or count: %d, %d", len(ids), n)
	}
	got := getJSON[engine.Finding](t, e, "/v1/findings/"+a, e.tokA)
	if got.WorkflowStatus != engine.WorkflowInProgress || got.Assignee == nil || *got.Assignee != bot.ID {
		t.Errorf("GET after PATCH: %+v", got)
	}

	// False positive: a note is required; then it leaves open lists and
	// counts and shows in resolved ones.
	if r := e.patchFinding(t, b, e.tokA, `{"status":"false_positive"}`); r.status != 422 || errCode(r.body) != engine.CodeValidationFailed {
		t.Errorf("false positive without a note: %d %s", r.status, r.body)
	}
	r = e.patchFinding(t, b, e.tokA, `{"status":"false_positive","note":"test fixture, not a real bucket"}`)
	f = decodeBody[engine.Finding](t, r)
	if r.status != 200 || f.Status != engine.StatusResolved || f.Resolution != engine.ResolutionFalsePositive ||
		f.WorkflowStatus != engine.WorkflowFalsePositive || f.ResolvedAt == nil ||
		f.OpenAgeSeconds != int64(f.ResolvedAt.Sub(f.FirstSeenAt).Seconds()) {
		t.Fatalf("false positive: %d %s", r.status, r.body)
	}
	if ids, n := e.openIDs(t); slices.Contains(ids, b) || n != count0-1 || len(ids) != int(n) {
		t.Errorf("false positive still open: in list %v, count %d (was %d)", slices.Contains(ids, b), n, count0)
	}
	resolved := getJSON[listBody[engine.Finding]](t, e, "/v1/findings?status=resolved&limit=200", e.tokA)
	if !slices.ContainsFunc(resolved.Data, func(x engine.Finding) bool { return x.ID == b && x.Resolution == engine.ResolutionFalsePositive }) {
		t.Errorf("false positive not in the resolved list")
	}

	// Assignees: another tenant's user, an unknown one, a malformed one.
	for _, bad := range []string{other.ID, engine.NewID(engine.PrefixUser, e.clock.Now()), "bob"} {
		r := e.patchFinding(t, a, e.tokA, `{"assignee":"`+bad+`"}`)
		if r.status != 422 || errCode(r.body) != engine.CodeValidationFailed {
			t.Errorf("assignee %s: %d %s", bad, r.status, r.body)
		}
	}
	// A note alone, then unassigning with null.
	if r := e.patchFinding(t, a, e.tokA, `{"note":"waiting on the platform team"}`); r.status != 200 {
		t.Errorf("note: %d %s", r.status, r.body)
	}
	r = e.patchFinding(t, a, e.tokA, `{"assignee":null}`)
	if f := decodeBody[engine.Finding](t, r); r.status != 200 || f.Assignee != nil || f.WorkflowStatus != engine.WorkflowInProgress {
		t.Errorf("unassign: %d %s", r.status, r.body)
	}
	// A fixed finding's status cannot change.
	fixed := e.a.Findings[4]
	if r := e.patchFinding(t, fixed.ID, e.tokA, `{"status":"in_progress"}`); r.status != 409 {
		t.Errorf("in_progress on a fixed finding: %d %s", r.status, r.body)
	}

	act := getJSON[listBody[engine.FindingActivity]](t, e, "/v1/findings/"+a+"/activity", e.tokA)
	var kinds []string
	for _, x := range act.Data {
		kinds = append(kinds, fmt.Sprintf("%s:%s>%s", x.Kind, x.From, x.To))
	}
	want := []string{"assigned:" + bot.ID + ">", "note:>", "assigned:>" + bot.ID, "status_changed:open>in_progress", "seen:>" + string(findingByID(e.a.Findings, a).Severity)}
	if !slices.Equal(kinds, want) {
		t.Errorf("activity = %q, want %q", kinds, want)
	}
	if act.Data[0].Actor == "" || act.Data[4].AuditID != e.a.Audit.ID {
		t.Errorf("activity actor/audit: %+v", act.Data)
	}
	// Paged one at a time: the same entries, in order.
	var paged []string
	next := "/v1/findings/" + a + "/activity?limit=1"
	for next != "" {
		p := getJSON[listBody[engine.FindingActivity]](t, e, next, e.tokA)
		for _, x := range p.Data {
			paged = append(paged, fmt.Sprintf("%s:%s>%s", x.Kind, x.From, x.To))
		}
		next = ""
		if p.HasMore {
			next = "/v1/findings/" + a + "/activity?limit=1&cursor=" + *p.NextCursor
		}
	}
	if !slices.Equal(paged, want) {
		t.Errorf("paged activity = %q, want %q", paged, want)
	}
	// Another finding's cursor is refused.
	first := getJSON[listBody[engine.FindingActivity]](t, e, "/v1/findings/"+a+"/activity?limit=1", e.tokA)
	if r := e.get(t, "/v1/findings/"+b+"/activity?cursor="+*first.NextCursor, e.tokA); r.status != 400 {
		t.Errorf("a cursor of another finding's activity: %d", r.status)
	}
	// Tenant B sees none of it.
	for _, p := range []string{"/v1/findings/" + a + "/activity", "/v1/findings/" + a} {
		if r := e.get(t, p, e.tokB); r.status != 404 || strings.Contains(string(r.body), bot.ID) {
			t.Errorf("B GET %s: %d %s", p, r.status, r.body)
		}
	}
	if r := e.patchFinding(t, a, e.tokB, `{"status":"open"}`); r.status != 404 {
		t.Errorf("B PATCH A's finding: %d", r.status)
	}
}

func findingByID(fs []engine.Finding, id string) engine.Finding {
	for _, f := range fs {
		if f.ID == id {
			return f
		}
	}
	return engine.Finding{}
}

// TestFindingBulkUpdate: ids or a filter, per-item results, 1,000 at most,
// nothing of another tenant (issue 33 §2).
func TestFindingBulkUpdate(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 30, findingsB: 5})
	post := func(token, body string) response {
		return do(t, e.client, http.MethodPost, e.url+"/v1/findings/bulk_update", token, []byte(body), jsonHeader("application/json"))
	}
	open0, count0 := e.openIDs(t)
	fixed := e.a.Findings[4].ID
	missing := engine.FindingID(e.a.ID, "rule_none", "res_none")
	ids, _ := json.Marshal([]string{open0[0], fixed, missing, open0[1]})
	r := post(e.tokA, `{"ids":`+string(ids)+`,"status":"resolved","resolution":"accepted_risk","note":"bulk"}`)
	res := decodeBody[engine.BulkResult](t, r)
	if r.status != 200 || res.Updated != 2 || res.Failed != 2 || len(res.Results) != 4 {
		t.Fatalf("bulk by ids: %d %s", r.status, r.body)
	}
	codes := []string{}
	for _, it := range res.Results {
		c := "ok"
		if it.Error != nil {
			c = it.Error.Code
		}
		codes = append(codes, c)
	}
	if want := []string{"ok", engine.CodeConflict, engine.CodeNotFound, "ok"}; !slices.Equal(codes, want) {
		t.Errorf("per-item results %q, want %q", codes, want)
	}
	if _, n := e.openIDs(t); n != count0-2 {
		t.Errorf("open count %d after accepting 2 of %d", n, count0)
	}
	// By filter: every critical open finding goes in progress.
	crit := getJSON[listBody[engine.Finding]](t, e, "/v1/findings?status=open&severity=critical&limit=200", e.tokA)
	r = post(e.tokA, `{"filter":{"severity":"critical","status":"open"},"status":"in_progress"}`)
	res = decodeBody[engine.BulkResult](t, r)
	if r.status != 200 || res.Updated != len(crit.Data) || res.Failed != 0 || len(crit.Data) == 0 {
		t.Fatalf("bulk by filter: %d %s (want %d)", r.status, r.body, len(crit.Data))
	}
	for _, f := range getJSON[listBody[engine.Finding]](t, e, "/v1/findings?status=open&severity=critical&limit=200", e.tokA).Data {
		if f.WorkflowStatus != engine.WorkflowInProgress {
			t.Errorf("%s: %s after the bulk update", f.ID, f.WorkflowStatus)
		}
	}
	// Bad requests change nothing.
	many := make([]string, engine.MaxBulkFindings+1)
	for i := range many {
		many[i] = engine.FindingID(e.a.ID, "r", fmt.Sprint(i))
	}
	manyJSON, _ := json.Marshal(many)
	twice, _ := json.Marshal([]string{open0[2], open0[2]})
	for _, tc := range []struct{ name, body string }{
		{"over 1000 ids", `{"ids":` + string(manyJSON) + `,"status":"in_progress"}`},
		{"ids twice", `{"ids":` + string(twice) + `,"status":"in_progress"}`},
		{"ids and filter", `{"ids":["` + open0[2] + `"],"filter":{},"status":"in_progress"}`},
		{"neither", `{"status":"in_progress"}`},
		{"empty ids", `{"ids":[],"status":"in_progress"}`},
		{"unknown status", `{"ids":["` + open0[2] + `"],"status":"closed"}`},
		{"unknown filter", `{"filter":{"colour":"red"},"status":"in_progress"}`},
		{"bad filter value", `{"filter":{"severity":"urgent"},"status":"in_progress"}`},
		{"audit filter", `{"filter":{"audit_id":"` + e.a.Audit.ID + `"},"status":"in_progress"}`},
		{"unknown assignee", `{"ids":["` + open0[2] + `"],"assignee":"usr_0000000000000000000000000"}`},
	} {
		r := post(e.tokA, tc.body)
		if r.status != 422 && r.status != 400 {
			t.Errorf("%s: %d %s", tc.name, r.status, r.body)
		}
	}
	if got := getJSON[engine.Finding](t, e, "/v1/findings/"+open0[2], e.tokA); got.WorkflowStatus != engine.WorkflowOpen && got.WorkflowStatus != engine.WorkflowInProgress {
		t.Errorf("a refused bulk update changed %s: %s", open0[2], got.WorkflowStatus)
	}
	if r := post(e.tokAFindingsOnly, `{"ids":["`+open0[2]+`"],"status":"in_progress"}`); r.status != 403 {
		t.Errorf("read-only token: %d", r.status)
	}
	// Tenant B: A's ids are not found, A's findings unchanged.
	idsA, _ := json.Marshal(open0[2:6])
	r = post(e.tokB, `{"ids":`+string(idsA)+`,"status":"false_positive","note":"b was here"}`)
	res = decodeBody[engine.BulkResult](t, r)
	if r.status != 200 || res.Updated != 0 || res.Failed != 4 {
		t.Errorf("B on A's ids: %d %s", r.status, r.body)
	}
	for _, id := range open0[2:6] {
		if got := getJSON[engine.Finding](t, e, "/v1/findings/"+id, e.tokA); got.Status != engine.StatusOpen {
			t.Errorf("B changed A's %s: %+v", id, got)
		}
	}
}

// TestFindingBulkUpdate_FilterMeansTheList: a bulk filter selects exactly
// what the same filter lists on GET /v1/findings (which, without status,
// lists every status), and a status change that makes no sense for a
// finding fails that finding alone with PATCH's error: a fixed finding's
// status never changes, and only an open finding can be in_progress. On
// the old code {"filter":{},"status":"in_progress"} reopened every
// accepted risk and false positive into in_progress, and PATCH did the
// same (issue 33 §2).
func TestFindingBulkUpdate_FilterMeansTheList(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 30, findingsB: 5})
	post := func(body string) response {
		return do(t, e.client, http.MethodPost, e.url+"/v1/findings/bulk_update", e.tokA, []byte(body), jsonHeader("application/json"))
	}
	open0, _ := e.openIDs(t)
	accepted, falsePos := open0[0], open0[1]
	if r := e.patchFinding(t, accepted, e.tokA, `{"status":"resolved","resolution":"accepted_risk"}`); r.status != 200 {
		t.Fatalf("accept: %d %s", r.status, r.body)
	}
	if r := e.patchFinding(t, falsePos, e.tokA, `{"status":"false_positive","note":"sandbox"}`); r.status != 200 {
		t.Fatalf("false positive: %d %s", r.status, r.body)
	}
	// PATCH: in_progress on a resolved finding is 409, nothing changes.
	for _, id := range []string{accepted, falsePos, e.a.Findings[4].ID} {
		r := e.patchFinding(t, id, e.tokA, `{"status":"in_progress"}`)
		if r.status != 409 || errCode(r.body) != engine.CodeConflict {
			t.Errorf("PATCH in_progress on resolved %s: %d %s", id, r.status, r.body)
		}
	}
	listed := map[string]engine.Finding{}
	for _, f := range getJSON[listBody[engine.Finding]](t, e, "/v1/findings?limit=200", e.tokA).Data {
		listed[f.ID] = f
	}
	r := post(`{"filter":{},"status":"in_progress"}`)
	res := decodeBody[engine.BulkResult](t, r)
	if r.status != 200 || len(res.Results) != len(listed) {
		t.Fatalf("bulk {}: %d, %d results for %d listed: %s", r.status, len(res.Results), len(listed), r.body)
	}
	wantFailed := 0
	for _, it := range res.Results {
		f, ok := listed[it.ID]
		switch {
		case !ok:
			t.Errorf("%s changed but not listed by GET /v1/findings", it.ID)
		case f.Status == engine.StatusOpen && !it.OK:
			t.Errorf("open %s failed: %+v", it.ID, it.Error)
		case f.Status == engine.StatusResolved:
			wantFailed++
			if it.OK || it.Error == nil || it.Error.Code != engine.CodeConflict || !strings.Contains(it.Error.Message, it.ID) {
				t.Errorf("resolved %s (%s): %+v %+v", it.ID, f.WorkflowStatus, it.OK, it.Error)
			}
		}
	}
	if res.Failed != wantFailed || res.Updated != len(listed)-wantFailed || wantFailed < 3 {
		t.Errorf("updated %d, failed %d; want %d failed of %d", res.Updated, res.Failed, wantFailed, len(listed))
	}
	for id, want := range map[string]engine.WorkflowStatus{accepted: engine.WorkflowAcceptedRisk, falsePos: engine.WorkflowFalsePositive,
		open0[2]: engine.WorkflowInProgress} {
		if got := getJSON[engine.Finding](t, e, "/v1/findings/"+id, e.tokA); got.WorkflowStatus != want {
			t.Errorf("%s after the bulk update: %s, want %s", id, got.WorkflowStatus, want)
		}
	}
	// Reopened first, the accepted risk can then go in progress.
	if r := e.patchFinding(t, accepted, e.tokA, `{"status":"open"}`); r.status != 200 {
		t.Errorf("reopen: %d %s", r.status, r.body)
	}
	if r := e.patchFinding(t, accepted, e.tokA, `{"status":"in_progress"}`); r.status != 200 {
		t.Errorf("in_progress after reopening: %d %s", r.status, r.body)
	}
	// A filter naming a status selects that status only, as the list does.
	resolved := getJSON[listBody[engine.Finding]](t, e, "/v1/findings?status=resolved&limit=200", e.tokA).Data
	res = decodeBody[engine.BulkResult](t, post(`{"filter":{"status":"resolved"},"note":"reviewed"}`))
	if len(res.Results) != len(resolved) || res.Failed != 0 {
		t.Errorf("filter status=resolved: %d results (%d failed) for %d listed", len(res.Results), res.Failed, len(resolved))
	}
}
