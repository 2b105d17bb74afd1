package audit_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// TestWorkflowAcrossAudits: a false positive stays resolved and out of the
// open list through later audits, like an accepted risk; a finding in
// progress keeps its state and assignee; once fixed it leaves the open list
// although a decision names it (the store once brought every finding a
// decision forced open into status=open lists, fixed or not); the activity
// tells the story (issue 33 §2).
func TestWorkflowAcrossAudits(t *testing.T) {
	h := newHarness(t)
	const public, unencrypted = "aws-s3-001", "aws-s3-004"
	logs := bucket("logs", nil, false)
	h.ingest(logs)
	a1 := h.runAudit()
	pub, enc := h.finding(public, logs), h.finding(unencrypted, logs)
	if _, err := h.triage.UpdateFinding(h.ctx, h.p, enc.ID, engine.FindingUpdate{Status: engine.StatusFalsePositive,
		Note: "encrypted client-side"}); err != nil {
		t.Fatal(err)
	}
	me := h.p.UserID
	if _, err := h.triage.UpdateFinding(h.ctx, h.p, pub.ID, engine.FindingUpdate{Status: engine.StatusInProgress, Assignee: &me}); err != nil {
		t.Fatal(err)
	}
	openIDs := func() []string {
		t.Helper()
		page, err := h.svc.ListFindings(h.ctx, h.p, engine.FindingFilter{Status: engine.StatusOpen}, engine.PageRequest{Limit: 200})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, f := range page.Items {
			ids = append(ids, f.ID)
		}
		sum, err := h.svc.SummarizeFindings(h.ctx, h.p, engine.FindingFilter{Status: engine.StatusOpen}, nil)
		if err != nil || sum.Total != int64(len(ids)) {
			t.Errorf("open count %d (%v) disagrees with the open list (%d)", sum.Total, err, len(ids))
		}
		return ids
	}

	a2 := h.runAudit()
	if f := h.finding(unencrypted, logs); f.Status != engine.StatusResolved || f.Resolution != engine.ResolutionFalsePositive ||
		f.WorkflowStatus != engine.WorkflowFalsePositive {
		t.Errorf("audit 2 dropped the false positive: %+v", f)
	}
	if f := h.finding(public, logs); f.WorkflowStatus != engine.WorkflowInProgress || f.Assignee == nil || *f.Assignee != me {
		t.Errorf("audit 2 dropped the workflow: %+v", f)
	}
	if ids := openIDs(); slices.Contains(ids, enc.ID) || !slices.Contains(ids, pub.ID) {
		t.Errorf("after audit 2 the open list is %v", ids)
	}

	// Audit 3: the bucket blocks public access; the finding in progress is
	// fixed.
	h.ingest(bucket("logs", nil, true))
	a3 := h.runAudit()
	if f := h.finding(public, logs); f.WorkflowStatus != engine.WorkflowFixed || f.Status != engine.StatusResolved {
		t.Errorf("after audit 3: %+v", f)
	}
	if ids := openIDs(); slices.Contains(ids, pub.ID) {
		t.Errorf("the fixed finding is still in the open list")
	}
	page, err := h.svc.ListFindings(h.ctx, h.p, engine.FindingFilter{Status: engine.StatusResolved}, engine.PageRequest{Limit: 200})
	if err != nil || !slices.ContainsFunc(page.Items, func(f engine.Finding) bool { return f.ID == pub.ID }) {
		t.Errorf("the fixed finding is not in the resolved list: %v", err)
	}

	act, total, err := h.triage.ListFindingActivity(h.ctx, h.p, pub.ID, engine.PageRequest{Limit: 200})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range act.Items {
		got = append(got, fmt.Sprintf("%s %s>%s %s", a.Kind, a.From, a.To, a.AuditID))
	}
	want := []string{
		"status_changed open>fixed " + a3.ID,
		"seen >high " + a2.ID,
		"assigned >" + me + " ",
		"status_changed open>in_progress ",
		"seen >high " + a1.ID,
	}
	if !slices.Equal(got, want) || total != len(want) {
		t.Errorf("activity (%d in all):\n got %q\nwant %q", total, got, want)
	}
}
