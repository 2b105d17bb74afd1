package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
)

// TestChangeOverrideActivity: a decision with a workflow state and an
// assignee is stored with its activity in one write; activity is listed
// newest first, per tenant and finding; an in-progress state with a
// resolution is refused by the schema (issue 33).
func TestChangeOverrideActivity(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	a := mustTenant(t, s, "acme")
	b := mustTenant(t, s, "globex")
	fnd := engine.FindingID(a.ID, "aws-s3-001", "res_x")
	o := engine.FindingOverride{TenantID: a.ID, FindingID: fnd, State: engine.WorkflowInProgress, Assignee: "usr_2",
		CreatedBy: "usr_1", CreatedAt: t0}
	acts := []engine.FindingActivity{
		{At: t0, Kind: engine.ActivityStatusChanged, Actor: "usr_1", From: "open", To: "in_progress", Note: "looking"},
		{At: t0, Kind: engine.ActivityAssigned, Actor: "usr_1", To: "usr_2"},
	}
	wantCode(t, "change", s.ChangeOverride(ctx, o, acts), "")
	got, err := s.ListOverrides(ctx, a.ID, t0)
	wantCode(t, "list", err, "")
	if diff := cmp.Diff([]engine.FindingOverride{o}, got); diff != "" {
		t.Errorf("ListOverrides (-want +got):\n%s", diff)
	}
	fp := engine.FindingOverride{TenantID: a.ID, FindingID: fnd, Resolution: engine.ResolutionFalsePositive, Note: "test bucket",
		CreatedBy: "usr_2", CreatedAt: t0.Add(time.Minute)}
	more := []engine.FindingActivity{{At: t0.Add(time.Minute), Kind: engine.ActivityStatusChanged, Actor: "usr_2",
		From: "in_progress", To: "false_positive", Note: "test bucket"}}
	wantCode(t, "false positive", s.ChangeOverride(ctx, fp, more), "")
	list, err := s.ListFindingActivity(ctx, a.ID, fnd, 10)
	wantCode(t, "activity", err, "")
	want := append(append([]engine.FindingActivity{}, more...), acts[1], acts[0])
	if diff := cmp.Diff(want, list); diff != "" {
		t.Errorf("ListFindingActivity (-want +got):\n%s", diff)
	}
	if list, _ := s.ListFindingActivity(ctx, a.ID, fnd, 1); len(list) != 1 {
		t.Errorf("limit 1: %d entries", len(list))
	}
	if list, _ := s.ListFindingActivity(ctx, b.ID, fnd, 10); len(list) != 0 {
		t.Errorf("tenant b sees %+v", list)
	}
	// In progress is an open state: never with a resolution. A failed
	// write leaves no activity behind.
	bad := engine.FindingOverride{TenantID: a.ID, FindingID: fnd, Resolution: engine.ResolutionAcceptedRisk,
		State: engine.WorkflowInProgress, CreatedAt: t0}
	if err := s.ChangeOverride(ctx, bad, []engine.FindingActivity{{At: t0, Kind: engine.ActivityNote, Note: "x"}}); err == nil {
		t.Error("an in-progress accepted risk was stored")
	}
	if list, _ := s.ListFindingActivity(ctx, a.ID, fnd, 10); len(list) != 3 {
		t.Errorf("after a failed write: %d entries, want 3", len(list))
	}
}
