package findings

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/internal/enginetest"
	"github.com/google/go-cmp/cmp"
)

type testEnv struct {
	svc       *Service
	ops       *Operator
	findings  *enginetest.Findings
	control   *enginetest.Control
	resources *enginetest.Resources
	events    *enginetest.Events
	now       time.Time
}

func newTestEnv(t *testing.T) *testEnv {
	t.Helper()
	env := &testEnv{findings: &enginetest.Findings{}, control: &enginetest.Control{}, resources: &enginetest.Resources{}, events: &enginetest.Events{}, now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	svc, ops, err := New(Config{Findings: env.findings, Resources: env.resources, Tenants: env.control, Events: env.events,
		Audits: env.control,
		Secret: []byte(strings.Repeat("s", 32)), Now: func() time.Time { return env.now }})
	if err != nil {
		t.Fatal(err)
	}
	env.svc, env.ops = svc, ops
	return env
}

// completedAudit records a completed audit of tenant with n findings.
func (e *testEnv) completedAudit(t *testing.T, tenant string, n int) string {
	t.Helper()
	e.now = e.now.Add(time.Minute)
	done := e.now
	a := engine.Audit{ID: engine.NewID(engine.PrefixAudit, e.now), TenantID: tenant, Status: engine.AuditCompleted, CompletedAt: &done}
	e.control.Audits = append(e.control.Audits, a)
	_, err := e.findings.WriteSnapshot(context.Background(), tenant, a.ID, func(yield func(engine.Finding, error) bool) {
		for i := range n {
			f := engine.Finding{ID: engine.FindingID(tenant, fmt.Sprint("rule-", i%7), fmt.Sprint("r", i)),
				Severity: engine.Severities[i%5], Dimension: engine.Dimensions[i%4], Status: engine.StatusOpen}
			if !yield(f, nil) {
				return
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return a.ID
}

var reader = engine.Principal{TenantID: "ten_a", Scopes: []engine.Scope{engine.ScopeFindingsRead}}

func TestListFindingsPagesEverythingOnceInOrder(t *testing.T) {
	env := newTestEnv(t)
	env.completedAudit(t, "ten_a", 103)
	env.completedAudit(t, "ten_b", 10)
	ctx := context.Background()
	var got []engine.Finding
	cursor := ""
	for pages := 0; ; pages++ {
		page, err := env.svc.ListFindings(ctx, reader, engine.FindingFilter{}, engine.PageRequest{Limit: 10, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, page.Items...)
		if !page.HasMore {
			if page.NextCursor != "" {
				t.Error("last page has a next cursor")
			}
			break
		}
		if len(page.Items) != 10 || pages > 20 {
			t.Fatalf("page %d has %d items", pages, len(page.Items))
		}
		cursor = page.NextCursor
		if pages == 3 { // a new audit lands mid-way: the cursor keeps its snapshot
			env.completedAudit(t, "ten_a", 5)
		}
	}
	if len(got) != 103 {
		t.Fatalf("paged %d findings, want 103", len(got))
	}
	if !slices.IsSortedFunc(got, enginetest.FindingLess) {
		t.Error("findings are not most severe first, then by id")
	}
	for _, f := range got {
		if f.TenantID != "ten_a" {
			t.Fatalf("saw a finding of %s", f.TenantID)
		}
	}
}

func TestListFindingsErrors(t *testing.T) {
	env := newTestEnv(t)
	env.completedAudit(t, "ten_a", 30)
	ctx := context.Background()
	page, err := env.svc.ListFindings(ctx, reader, engine.FindingFilter{Severity: engine.SeverityHigh}, engine.PageRequest{Limit: 2})
	if err != nil || page.NextCursor == "" {
		t.Fatal(page, err)
	}
	tests := []struct {
		name string
		p    engine.Principal
		f    engine.FindingFilter
		pr   engine.PageRequest
		code string
	}{
		{"anonymous", engine.Principal{}, engine.FindingFilter{}, engine.PageRequest{}, engine.CodeUnauthorized},
		{"no scope", engine.Principal{TenantID: "ten_a", Scopes: []engine.Scope{engine.ScopeAuditsRead}}, engine.FindingFilter{}, engine.PageRequest{}, engine.CodeInsufficientScope},
		{"limit too big", reader, engine.FindingFilter{}, engine.PageRequest{Limit: 201}, engine.CodeInvalidLimit},
		{"cursor with other filters", reader, engine.FindingFilter{Severity: engine.SeverityLow}, engine.PageRequest{Cursor: page.NextCursor}, engine.CodeInvalidCursor},
		{"cursor of another tenant", engine.Principal{TenantID: "ten_b", Scopes: reader.Scopes}, engine.FindingFilter{Severity: engine.SeverityHigh}, engine.PageRequest{Cursor: page.NextCursor}, engine.CodeInvalidCursor},
		{"audit of another tenant", reader, engine.FindingFilter{AuditID: engine.NewID(engine.PrefixAudit, env.now)}, engine.PageRequest{}, engine.CodeNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := env.svc.ListFindings(ctx, tt.p, tt.f, tt.pr)
			if got := engine.ErrorCode(err); got != tt.code {
				t.Errorf("code = %q (%v), want %q", got, err, tt.code)
			}
		})
	}
}

func TestListFindingsWithoutAudit(t *testing.T) {
	env := newTestEnv(t)
	page, err := env.svc.ListFindings(context.Background(), reader, engine.FindingFilter{}, engine.PageRequest{})
	if err != nil || len(page.Items) != 0 || page.Items == nil || page.HasMore {
		t.Errorf("got %+v, %v; want an empty page", page, err)
	}
}

func TestSummarizeFindings(t *testing.T) {
	env := newTestEnv(t)
	env.completedAudit(t, "ten_a", 40)
	ctx := context.Background()
	sum, err := env.svc.SummarizeFindings(ctx, reader, engine.FindingFilter{}, []engine.GroupBy{engine.GroupBySeverity})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Total != 40 || len(sum.Groups) != 5 {
		t.Errorf("summary = %+v", sum)
	}
	for _, bad := range [][]engine.GroupBy{{"colour"}, {engine.GroupBySeverity, engine.GroupBySeverity}} {
		if _, err := env.svc.SummarizeFindings(ctx, reader, engine.FindingFilter{}, bad); engine.ErrorCode(err) != engine.CodeValidationFailed {
			t.Errorf("group by %v: %v, want validation_failed", bad, err)
		}
	}
	if _, err := engine.ParseGroupBy("severity,nope"); engine.ErrorCode(err) != engine.CodeValidationFailed {
		t.Errorf("ParseGroupBy: %v", err)
	}
	got, err := engine.ParseGroupBy("severity, dimension")
	if diff := cmp.Diff([]engine.GroupBy{engine.GroupBySeverity, engine.GroupByDimension}, got); diff != "" || err != nil {
		t.Errorf("ParseGroupBy (-want +got):\n%s %v", diff, err)
	}
}
