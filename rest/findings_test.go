package rest

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/testserver"
	"github.com/google/go-cmp/cmp"
)

// pageAll follows next_cursor from path until has_more is false and returns
// every item's id, failing on a broken envelope.
func pageAll[T any](t *testing.T, e *env, path, token string, id func(T) string) []string {
	t.Helper()
	return pageFrom(t, e, path, "", token, id)
}

// pageFrom is pageAll starting at the page of cursor (the first when empty).
func pageFrom[T any](t *testing.T, e *env, path, cursor, token string, id func(T) string) []string {
	t.Helper()
	ids := []string{}
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	next := path
	if cursor != "" {
		next = path + sep + "cursor=" + url.QueryEscape(cursor)
	}
	for pages := 0; ; pages++ {
		if pages > 10000 {
			t.Fatalf("paging %s does not end", path)
		}
		page := getJSON[listBody[T]](t, e, next, token)
		for _, it := range page.Data {
			ids = append(ids, id(it))
		}
		if !page.HasMore {
			if page.NextCursor != nil {
				t.Errorf("%s: next_cursor %q with has_more false", next, *page.NextCursor)
			}
			return ids
		}
		if page.NextCursor == nil || *page.NextCursor == "" {
			t.Fatalf("%s: has_more without next_cursor", next)
		}
		next = path + sep + "cursor=" + url.QueryEscape(*page.NextCursor)
	}
}

func findingID(f engine.Finding) string { return f.ID }

// wantOrder returns the ids of fs in the API's order: most severe first,
// then by id.
func wantOrder(fs []engine.Finding) []string {
	fs = slices.Clone(fs)
	slices.SortFunc(fs, func(a, b engine.Finding) int {
		if d := b.Severity.Rank() - a.Severity.Rank(); d != 0 {
			return d
		}
		return strings.Compare(a.ID, b.ID)
	})
	ids := make([]string, len(fs))
	for i, f := range fs {
		ids[i] = f.ID
	}
	return ids
}

func TestListFindingsPaging(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 237, findingsB: 20})
	want := wantOrder(e.a.Findings)
	for _, limit := range []string{"", "3", "7", "50", "200"} {
		t.Run("limit="+limit, func(t *testing.T) {
			path := "/v1/findings"
			if limit != "" {
				path += "?limit=" + limit
			}
			got := pageAll(t, e, path, e.tokA, findingID)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("paging %s (-want +got):\n%s", path, diff)
			}
		})
	}
	t.Run("page sizes", func(t *testing.T) {
		for _, c := range []struct {
			path string
			n    int
			more bool
		}{{"/v1/findings", 50, true}, {"/v1/findings?limit=200", 200, true}, {"/v1/findings?limit=1", 1, true}} {
			page := getJSON[listBody[engine.Finding]](t, e, c.path, e.tokA)
			if len(page.Data) != c.n || page.HasMore != c.more {
				t.Errorf("%s: %d items, has_more %v; want %d, %v", c.path, len(page.Data), page.HasMore, c.n, c.more)
			}
		}
	})
}

// A cursor pins the snapshot its first page read: a second audit completing
// between pages changes nothing for the pager, while a new first page reads
// the new snapshot.
func TestListFindingsPagingWhileAuditLands(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 120, findingsB: 5})
	ctx := context.Background()
	first := getJSON[listBody[engine.Finding]](t, e, "/v1/findings?limit=25", e.tokA)
	got := []string{}
	for _, f := range first.Data {
		got = append(got, f.ID)
	}

	// A new audit lands: half of the findings are gone, and new ones appear.
	a2 := testserver.CompleteAudit(t, e.pg, e.a.ID, time.Now())
	next := testserver.MakeFindings(e.a.ID, a2.ID, e.a.Resources, 60, 5, time.Now().UTC())
	if _, err := e.ch.WriteSnapshot(ctx, e.a.ID, a2.ID, testserver.SeqOf(next)); err != nil {
		t.Fatal(err)
	}
	rest := pageFrom(t, e, "/v1/findings?limit=25", *first.NextCursor, e.tokA, findingID)
	got = append(got, rest...)
	if diff := cmp.Diff(wantOrder(e.a.Findings), got); diff != "" {
		t.Errorf("paging across a new audit (-want +got):\n%s", diff)
	}
	fresh := pageAll(t, e, "/v1/findings?limit=25", e.tokA, findingID)
	if diff := cmp.Diff(wantOrder(next), fresh); diff != "" {
		t.Errorf("new paging after the audit (-want +got):\n%s", diff)
	}
	old := pageAll(t, e, "/v1/findings?limit=25&audit_id="+e.a.Audit.ID, e.tokA, findingID)
	if diff := cmp.Diff(wantOrder(e.a.Findings), old); diff != "" {
		t.Errorf("audit_id of the first audit (-want +got):\n%s", diff)
	}
}

func TestListFindingsFilters(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 300, findingsB: 40})
	fs := e.a.Findings
	res := e.a.Resources[4]
	where := func(keep func(engine.Finding) bool) []engine.Finding {
		return slices.DeleteFunc(slices.Clone(fs), func(f engine.Finding) bool { return !keep(f) })
	}
	tests := []struct {
		query string
		want  []engine.Finding
	}{
		{"severity=critical", where(func(f engine.Finding) bool { return f.Severity == engine.SeverityCritical })},
		{"severity=info", where(func(f engine.Finding) bool { return f.Severity == engine.SeverityInfo })},
		{"dimension=cost", where(func(f engine.Finding) bool { return f.Dimension == engine.DimensionCost })},
		{"status=resolved", where(func(f engine.Finding) bool { return f.Status == engine.StatusResolved })},
		{"status=open", where(func(f engine.Finding) bool { return f.Status == engine.StatusOpen })},
		{"resource_id=" + res.ID, where(func(f engine.Finding) bool { return f.ResourceID == res.ID })},
		{"audit_id=" + e.a.Audit.ID, fs},
		{"region=eu-west-1", where(func(f engine.Finding) bool { return f.Region == "eu-west-1" })},
		{"account=acct-1&resource_type=aws_instance", where(func(f engine.Finding) bool {
			return f.Account == "acct-1" && f.ResourceType == "aws_instance"
		})},
		{"rule_id=rule_007", where(func(f engine.Finding) bool { return f.RuleID == "rule_007" })},
		{"severity=high&dimension=security&status=open", where(func(f engine.Finding) bool {
			return f.Severity == engine.SeverityHigh && f.Dimension == engine.DimensionSecurity && f.Status == engine.StatusOpen
		})},
		{"region=", fs}, // an empty value is absent (but severity= is 422: TestErrorsPerEndpoint)
		{"region=mars-1", nil},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			got := pageAll(t, e, "/v1/findings?limit=20&"+tt.query, e.tokA, findingID)
			if diff := cmp.Diff(wantOrder(tt.want), got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestFindingSummary(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 211, findingsB: 13})
	count := func(fs []engine.Finding, keys ...func(engine.Finding) (engine.GroupBy, string)) []engine.FindingCount {
		m := map[string]*engine.FindingCount{}
		var order []string
		for _, f := range fs {
			key := map[engine.GroupBy]string{}
			var parts []string
			for _, k := range keys {
				g, v := k(f)
				key[g] = v
				parts = append(parts, v)
			}
			s := strings.Join(parts, "|")
			if m[s] == nil {
				m[s] = &engine.FindingCount{Key: key}
				order = append(order, s)
			}
			m[s].Count++
		}
		out := []engine.FindingCount{}
		for _, s := range order {
			out = append(out, *m[s])
		}
		return out
	}
	sev := func(f engine.Finding) (engine.GroupBy, string) { return engine.GroupBySeverity, string(f.Severity) }
	dim := func(f engine.Finding) (engine.GroupBy, string) { return engine.GroupByDimension, string(f.Dimension) }
	highs := slices.DeleteFunc(slices.Clone(e.a.Findings), func(f engine.Finding) bool { return f.Severity != engine.SeverityHigh })
	tests := []struct {
		query   string
		groupBy []engine.GroupBy
		fs      []engine.Finding
		keys    []func(engine.Finding) (engine.GroupBy, string)
	}{
		{"", []engine.GroupBy{engine.GroupBySeverity}, e.a.Findings, []func(engine.Finding) (engine.GroupBy, string){sev}},
		{"group_by=dimension", []engine.GroupBy{engine.GroupByDimension}, e.a.Findings, []func(engine.Finding) (engine.GroupBy, string){dim}},
		{"group_by=severity,dimension", []engine.GroupBy{engine.GroupBySeverity, engine.GroupByDimension}, e.a.Findings,
			[]func(engine.Finding) (engine.GroupBy, string){sev, dim}},
		{"group_by=dimension&severity=high", []engine.GroupBy{engine.GroupByDimension}, highs, []func(engine.Finding) (engine.GroupBy, string){dim}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			got := getJSON[engine.FindingSummary](t, e, "/v1/findings/summary?"+tt.query, e.tokA)
			want := engine.FindingSummary{AuditID: e.a.Audit.ID, GroupBy: tt.groupBy, Total: int64(len(tt.fs)),
				Groups: count(tt.fs, tt.keys...)}
			// Groups come ordered by their key values; compare as sets.
			sortCounts := func(cs []engine.FindingCount) {
				slices.SortFunc(cs, func(a, b engine.FindingCount) int { return strings.Compare(fmt.Sprint(a.Key), fmt.Sprint(b.Key)) })
			}
			sortCounts(want.Groups)
			sortCounts(got.Groups)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	t.Run("matches the list", func(t *testing.T) {
		sum := getJSON[engine.FindingSummary](t, e, "/v1/findings/summary?group_by=status&dimension=compliance", e.tokA)
		for _, g := range sum.Groups {
			ids := pageAll(t, e, "/v1/findings?limit=200&dimension=compliance&status="+g.Key[engine.GroupByStatus], e.tokA, findingID)
			if int64(len(ids)) != g.Count {
				t.Errorf("status %s: summary says %d, list has %d", g.Key[engine.GroupByStatus], g.Count, len(ids))
			}
		}
	})
}
