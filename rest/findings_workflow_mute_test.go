package rest

import (
	"net/http"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestFindingUpdateOfMutedAnswersAsRead: a change to a finding a mute rule
// mutes answers the finding as a read after it shows it (PATCH's body, and
// each bulk_update result's "finding"): in_progress keeps it muted with its
// rule, an accepted risk resolves it (a mute holds open findings only), and
// reopening it mutes it again. Before, PATCH answered an accepted risk as
// muted with workflow_status open, and bulk_update answered a muted finding
// as open without its rule.
func TestFindingUpdateOfMutedAnswersAsRead(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 30})
	open, _ := e.openIDs(t)
	if len(open) < 3 {
		t.Fatalf("%d open findings", len(open))
	}
	a, b, c := open[0], open[1], open[2]
	rule := decodeAs[engine.MuteRule](t, e.muteCall(t, http.MethodPost, "/v1/mute_rules", e.tokA,
		muteBody(`finding.id in ["`+a+`", "`+b+`", "`+c+`"]`)), http.StatusCreated)
	// open_age_seconds grows with the clock between the answer and the read.
	same := cmpopts.IgnoreFields(engine.Finding{}, "OpenAgeSeconds")
	asRead := func(t *testing.T, what string, got engine.Finding, status engine.FindingStatus, wf engine.WorkflowStatus, muteRule string) {
		t.Helper()
		read := getJSON[engine.Finding](t, e, "/v1/findings/"+got.ID, e.tokA)
		if diff := cmp.Diff(read, got, same); diff != "" {
			t.Errorf("%s answered %s not as a read shows it (-read +answer):\n%s", what, got.ID, diff)
		}
		if read.Status != status || read.WorkflowStatus != wf || read.MuteRuleID != muteRule {
			t.Errorf("%s: %s reads %s / %s / rule %q, want %s / %s / %q", what, got.ID, read.Status, read.WorkflowStatus, read.MuteRuleID, status, wf, muteRule)
		}
	}
	for _, id := range []string{a, b, c} {
		if f := getJSON[engine.Finding](t, e, "/v1/findings/"+id, e.tokA); f.Status != engine.StatusMuted || f.MuteRuleID != rule.ID {
			t.Fatalf("%s before: %s rule %q, want muted by %s", id, f.Status, f.MuteRuleID, rule.ID)
		}
	}

	// PATCH: in progress stays muted; an accepted risk is resolved.
	r := e.patchFinding(t, a, e.tokA, `{"status":"in_progress"}`)
	asRead(t, "PATCH in_progress", decodeAs[engine.Finding](t, r, http.StatusOK), engine.StatusMuted, engine.WorkflowInProgress, rule.ID)
	r = e.patchFinding(t, b, e.tokA, `{"status":"resolved","resolution":"accepted_risk","note":"known"}`)
	asRead(t, "PATCH accepted_risk", decodeAs[engine.Finding](t, r, http.StatusOK), engine.StatusResolved, engine.WorkflowAcceptedRisk, "")
	// Reopened, the rule mutes it again.
	r = e.patchFinding(t, b, e.tokA, `{"status":"open"}`)
	asRead(t, "PATCH reopen", decodeAs[engine.Finding](t, r, http.StatusOK), engine.StatusMuted, engine.WorkflowOpen, rule.ID)

	// bulk_update by ids: each result's finding as read.
	bulk := func(body string) []engine.BulkItemResult {
		t.Helper()
		res := decodeAs[engine.BulkResult](t, e.muteCall(t, http.MethodPost, "/v1/findings/bulk_update", e.tokA, body), http.StatusOK)
		if res.Failed != 0 || len(res.Results) == 0 {
			t.Fatalf("bulk %s: %+v", body, res)
		}
		return res.Results
	}
	for _, it := range bulk(`{"ids":["` + c + `"],"status":"in_progress"}`) {
		asRead(t, "bulk in_progress", *it.Finding, engine.StatusMuted, engine.WorkflowInProgress, rule.ID)
	}
	for _, it := range bulk(`{"ids":["` + c + `"],"status":"open"}`) {
		asRead(t, "bulk back to open", *it.Finding, engine.StatusMuted, engine.WorkflowOpen, rule.ID)
	}
	for _, it := range bulk(`{"filter":{"status":"muted"},"status":"false_positive","note":"fixture"}`) {
		asRead(t, "bulk false_positive by filter", *it.Finding, engine.StatusResolved, engine.WorkflowFalsePositive, "")
	}
	for _, it := range bulk(`{"ids":["` + a + `","` + b + `","` + c + `"],"status":"open"}`) {
		asRead(t, "bulk reopen", *it.Finding, engine.StatusMuted, engine.WorkflowOpen, rule.ID)
	}
	// A clean twin: a finding no rule mutes answers open, without a rule.
	r = e.patchFinding(t, open[3], e.tokA, `{"status":"in_progress"}`)
	asRead(t, "PATCH unmuted", decodeAs[engine.Finding](t, r, http.StatusOK), engine.StatusOpen, engine.WorkflowInProgress, "")
}
