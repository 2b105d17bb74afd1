package graph_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/testserver"
)

// TestFindingRowFiltersGraphQL: the findings filter's tags, compliance,
// assignee, q and firstSeenAfter/Before select what REST's do (a positive
// and a negative case each), totalCount and findingStats (AGE included)
// count them, bad values are validation_failed, and tenant B, whose tags
// and titles are A's, sees only its own findings (issue 33 §3).
func TestFindingRowFiltersGraphQL(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 40, findingsB: 20})
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
	for _, id := range open[:3] {
		data[map[string]any](t, e.gql(t, e.tokA, `mutation($in: UpdateFindingInput!) { updateFinding(input: $in) { id } }`,
			map[string]any{"in": map[string]any{"id": id, "assignee": admin.ID}}))
	}
	type page struct {
		Findings struct {
			TotalCount int
			Nodes      []struct{ ID string }
		}
	}
	ids := func(tok, filter string) ([]string, int) {
		t.Helper()
		p := data[page](t, e.gql(t, tok, `{ findings(first: 200, filter: `+filter+`) { totalCount nodes { id } } }`, nil))
		var out []string
		for _, n := range p.Findings.Nodes {
			out = append(out, n.ID)
		}
		return out, p.Findings.TotalCount
	}
	all := func(s testserver.TenantSeed, keep func(engine.Finding) bool) []string {
		var out []string
		for _, f := range s.Findings {
			if keep(f) {
				out = append(out, f.ID)
			}
		}
		return out
	}
	later := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	for _, c := range []struct {
		filter string
		want   []string
	}{
		{`{tags: ["env=prod", "team=core"]}`, all(e.a, func(engine.Finding) bool { return true })},
		{`{tags: ["env=prod", "team=other"]}`, nil},
		{`{compliance: "CIS-AWS-4.0.1:2.1.1", severity: HIGH}`, all(e.a, func(f engine.Finding) bool { return f.Severity == engine.SeverityHigh })},
		{`{compliance: "NIST-800-53-r5"}`, nil},
		{`{assignee: "` + admin.ID + `"}`, open[:3]},
		{`{assignee: "` + admin.ID + `", status: RESOLVED}`, nil},
		{`{q: "FINDING 1"}`, all(e.a, func(f engine.Finding) bool { return strings.HasPrefix(f.Title, "finding 1") })},
		{`{q: "arn:aws_s3_bucket:0:0"}`, all(e.a, func(f engine.Finding) bool { return f.ResourceID == e.a.Resources[0].ID })},
		{`{q: "no such text"}`, nil},
		{`{firstSeenBefore: "` + later + `"}`, all(e.a, func(engine.Finding) bool { return true })},
		{`{firstSeenAfter: "` + later + `"}`, nil},
	} {
		got, total := ids(e.tokA, c.filter)
		if !sameIDs(got, c.want) || total != len(c.want) {
			t.Errorf("%s: %d nodes, totalCount %d, want %d", c.filter, len(got), total, len(c.want))
		}
	}
	// B: the same tags and titles select B's findings only; A's user none.
	got, _ := ids(e.tokB, `{tags: ["team=core"], q: "finding"}`)
	if want := all(e.b, func(engine.Finding) bool { return true }); !sameIDs(got, want) {
		t.Errorf("B: %d findings, want its %d", len(got), len(want))
	}
	if got, total := ids(e.tokB, `{assignee: "`+admin.ID+`"}`); len(got) != 0 || total != 0 {
		t.Errorf("B filtering by A's user: %v, %d", got, total)
	}
	// B's counts under A's user or resource count nothing (findingStats is
	// GET /v1/findings/summary's twin, which the REST matrix attacks alike).
	for _, f := range []string{`{assignee: "` + admin.ID + `"}`, `{resourceId: "` + e.a.Resources[0].ID + `"}`,
		`{resourceId: "` + e.a.Resources[0].ID + `", status: OPEN, tags: ["env=prod"]}`} {
		st := data[struct{ FindingStats struct{ Total int } }](t, e.gql(t, e.tokB, `{ findingStats(groupBy: [STATUS], filter: `+f+`) { total } }`, nil))
		if st.FindingStats.Total != 0 {
			t.Errorf("B's findingStats(filter: %s) = %d, want 0", f, st.FindingStats.Total)
		}
	}
	// findingStats by AGE: every finding was first seen now.
	stats := data[struct {
		FindingStats struct {
			Total  int
			Groups []struct {
				Age   *string
				Count int
			}
		}
	}](t, e.gql(t, e.tokA, `{ findingStats(groupBy: [AGE], filter: {tags: ["env=prod"]}) { total groups { age count } } }`, nil))
	if s := stats.FindingStats; s.Total != len(e.a.Findings) || len(s.Groups) != 1 || s.Groups[0].Age == nil || *s.Groups[0].Age != "lt_7d" {
		t.Errorf("findingStats by AGE: %+v", s)
	}
	// A trend reads precomputed counts: the row filters and AGE are refused,
	// not ignored.
	for _, q := range []string{
		`{ findingTrend(from: "2020-01-01T00:00:00Z", to: "` + later + `", filter: {tags: ["env=prod"]}) { auditId } }`,
		`{ findingTrend(from: "2020-01-01T00:00:00Z", to: "` + later + `", groupBy: [AGE]) { auditId } }`,
	} {
		if r := e.gql(t, e.tokA, q, nil); r.code() != engine.CodeValidationFailed {
			t.Errorf("%s: %s %+v", q, r.code(), r.Errors)
		}
	}
	for _, bad := range []string{`{tags: ["novalue"]}`, `{compliance: "CIS-AWS-9"}`, `{compliance: "SOC2:CC99.9"}`,
		`{assignee: "bob"}`, `{q: "` + strings.Repeat("x", engine.MaxQueryText+1) + `"}`, `{firstSeenAfter: "yesterday"}`,
		`{firstSeenAfter: "` + later + `", firstSeenBefore: "2020-01-01T00:00:00Z"}`} {
		r := e.gql(t, e.tokA, `{ findings(filter: `+bad+`) { totalCount } }`, nil)
		if r.code() != engine.CodeValidationFailed {
			t.Errorf("%.60s: %s %+v", bad, r.code(), r.Errors)
		}
	}
}

// sameIDs reports whether a and b hold the same ids.
func sameIDs(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
