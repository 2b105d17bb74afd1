package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

type testEnv struct {
	svc       *Service
	findings  *fakeFindings
	control   *fakeControl
	resources *fakeResources
	events    *fakeEvents
	now       time.Time
}

func newTestEnv(t *testing.T) *testEnv {
	t.Helper()
	env := &testEnv{findings: &fakeFindings{}, control: &fakeControl{}, resources: &fakeResources{}, events: &fakeEvents{}, now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	svc, err := NewService(Config{Findings: env.findings, Resources: env.resources, Tenants: env.control, Events: env.events,
		Audits: env.control, Policies: env.control, Reports: env.control,
		Secret: []byte(strings.Repeat("s", 32)), Now: func() time.Time { return env.now }})
	if err != nil {
		t.Fatal(err)
	}
	env.svc = svc
	return env
}

// completedAudit records a completed audit of tenant with n findings.
func (e *testEnv) completedAudit(t *testing.T, tenant string, n int) string {
	t.Helper()
	e.now = e.now.Add(time.Minute)
	done := e.now
	a := Audit{ID: NewID(PrefixAudit, e.now), TenantID: tenant, Status: AuditCompleted, CompletedAt: &done}
	e.control.audits = append(e.control.audits, a)
	_, err := e.findings.WriteSnapshot(context.Background(), tenant, a.ID, func(yield func(Finding, error) bool) {
		for i := range n {
			f := Finding{ID: FindingID(tenant, fmt.Sprint("rule-", i%7), fmt.Sprint("r", i)),
				Severity: Severities[i%5], Dimension: Dimensions[i%4], Status: StatusOpen}
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

var reader = Principal{TenantID: "ten_a", Scopes: []Scope{ScopeFindingsRead}}

func TestListFindingsPagesEverythingOnceInOrder(t *testing.T) {
	env := newTestEnv(t)
	env.completedAudit(t, "ten_a", 103)
	env.completedAudit(t, "ten_b", 10)
	ctx := context.Background()
	var got []Finding
	cursor := ""
	for pages := 0; ; pages++ {
		page, err := env.svc.ListFindings(ctx, reader, FindingFilter{}, PageRequest{Limit: 10, Cursor: cursor})
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
	if !slices.IsSortedFunc(got, findingLess) {
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
	page, err := env.svc.ListFindings(ctx, reader, FindingFilter{Severity: SeverityHigh}, PageRequest{Limit: 2})
	if err != nil || page.NextCursor == "" {
		t.Fatal(page, err)
	}
	tests := []struct {
		name string
		p    Principal
		f    FindingFilter
		pr   PageRequest
		code string
	}{
		{"anonymous", Principal{}, FindingFilter{}, PageRequest{}, CodeUnauthorized},
		{"no scope", Principal{TenantID: "ten_a", Scopes: []Scope{ScopeAuditsRead}}, FindingFilter{}, PageRequest{}, CodeInsufficientScope},
		{"limit too big", reader, FindingFilter{}, PageRequest{Limit: 201}, CodeInvalidLimit},
		{"cursor with other filters", reader, FindingFilter{Severity: SeverityLow}, PageRequest{Cursor: page.NextCursor}, CodeInvalidCursor},
		{"cursor of another tenant", Principal{TenantID: "ten_b", Scopes: reader.Scopes}, FindingFilter{Severity: SeverityHigh}, PageRequest{Cursor: page.NextCursor}, CodeInvalidCursor},
		{"audit of another tenant", reader, FindingFilter{AuditID: NewID(PrefixAudit, env.now)}, PageRequest{}, CodeNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := env.svc.ListFindings(ctx, tt.p, tt.f, tt.pr)
			if got := ErrorCode(err); got != tt.code {
				t.Errorf("code = %q (%v), want %q", got, err, tt.code)
			}
		})
	}
}

func TestListFindingsWithoutAudit(t *testing.T) {
	env := newTestEnv(t)
	page, err := env.svc.ListFindings(context.Background(), reader, FindingFilter{}, PageRequest{})
	if err != nil || len(page.Items) != 0 || page.Items == nil || page.HasMore {
		t.Errorf("got %+v, %v; want an empty page", page, err)
	}
}

func TestSummarizeFindings(t *testing.T) {
	env := newTestEnv(t)
	env.completedAudit(t, "ten_a", 40)
	ctx := context.Background()
	sum, err := env.svc.SummarizeFindings(ctx, reader, FindingFilter{}, []GroupBy{GroupBySeverity})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Total != 40 || len(sum.Groups) != 5 {
		t.Errorf("summary = %+v", sum)
	}
	for _, bad := range [][]GroupBy{{"colour"}, {GroupBySeverity, GroupBySeverity}} {
		if _, err := env.svc.SummarizeFindings(ctx, reader, FindingFilter{}, bad); ErrorCode(err) != CodeValidationFailed {
			t.Errorf("group by %v: %v, want validation_failed", bad, err)
		}
	}
	if _, err := ParseGroupBy("severity,nope"); ErrorCode(err) != CodeValidationFailed {
		t.Errorf("ParseGroupBy: %v", err)
	}
	got, err := ParseGroupBy("severity, dimension")
	if diff := cmp.Diff([]GroupBy{GroupBySeverity, GroupByDimension}, got); diff != "" || err != nil {
		t.Errorf("ParseGroupBy (-want +got):\n%s %v", diff, err)
	}
}

func TestRoleScopes(t *testing.T) {
	if len(RoleAdmin.Scopes()) != len(AllScopes) {
		t.Error("admin lacks scopes")
	}
	if slices.Contains(RoleMember.Scopes(), ScopeTokensWrite) || !slices.Contains(RoleMember.Scopes(), ScopeFindingsWrite) {
		t.Errorf("member scopes: %v", RoleMember.Scopes())
	}
	for _, s := range RoleViewer.Scopes() {
		if !strings.HasSuffix(string(s), ":read") {
			t.Errorf("viewer has %s", s)
		}
	}
}

func TestEffectiveScopes(t *testing.T) {
	granted := []Scope{ScopeTokensWrite, ScopeFindingsRead, ScopePoliciesWrite, ScopeAuditsRead}
	cases := []struct {
		role Role
		want []Scope
	}{
		{RoleAdmin, granted},
		{RoleMember, []Scope{ScopeFindingsRead, ScopePoliciesWrite, ScopeAuditsRead}},
		{RoleViewer, []Scope{ScopeFindingsRead, ScopeAuditsRead}},
		{"", []Scope{}},
	}
	for _, c := range cases {
		if diff := cmp.Diff(c.want, EffectiveScopes(granted, c.role)); diff != "" {
			t.Errorf("EffectiveScopes(%q) (-want +got):\n%s", c.role, diff)
		}
	}
}

// TestScopeWords checks that every scope is said in words on the consent
// page.
func TestScopeWords(t *testing.T) {
	for _, sc := range AllScopes {
		if w := sc.Words(); w == string(sc) || w == "" {
			t.Errorf("scope %s has no words", sc)
		}
	}
}
