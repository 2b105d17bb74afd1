package graph_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
)

// restPage is a REST list body, reduced to what both APIs answer.
type restPage struct {
	Data []struct {
		ID string `json:"id"`
	} `json:"data"`
	NextCursor string `json:"next_cursor"`
	HasMore    bool   `json:"has_more"`
}

type restError struct {
	Error struct {
		Code string `json:"code"`
	} `json:"error"`
}

// connPage is a GraphQL connection, reduced the same way.
type connPage struct {
	Edges []struct {
		Cursor string `json:"cursor"`
		Node   struct {
			ID string `json:"id"`
		} `json:"node"`
	} `json:"edges"`
	PageInfo struct {
		HasNextPage bool    `json:"hasNextPage"`
		EndCursor   *string `json:"endCursor"`
	} `json:"pageInfo"`
	TotalCount *int `json:"totalCount"`
}

// walk pages through a collection in both APIs, page by page, and returns
// the ids each saw per page.
func walk(t *testing.T, e *env, restPath, field, args string, limit int) (restIDs, gqlIDs [][]string) {
	t.Helper()
	cursor := ""
	for range 50 {
		p := restPath + sep(restPath) + fmt.Sprintf("limit=%d", limit)
		if cursor != "" {
			p += "&cursor=" + url.QueryEscape(cursor)
		}
		var rp restPage
		if st := e.rest(t, p, e.tokA, &rp); st != 200 {
			t.Fatalf("GET %s: %d", p, st)
		}
		var ids []string
		for _, d := range rp.Data {
			ids = append(ids, d.ID)
		}
		restIDs = append(restIDs, ids)
		if !rp.HasMore {
			break
		}
		cursor = rp.NextCursor
	}
	after := ""
	for range 50 {
		a := fmt.Sprintf("first: %d", limit)
		if after != "" {
			a += fmt.Sprintf(", after: %q", after)
		}
		if args != "" {
			a += ", " + args
		}
		q := fmt.Sprintf("{ %s(%s) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }", field, a)
		conn := data[map[string]connPage](t, e.gql(t, e.tokA, q, nil))[field]
		var ids []string
		for _, ed := range conn.Edges {
			ids = append(ids, ed.Node.ID)
		}
		gqlIDs = append(gqlIDs, ids)
		if !conn.PageInfo.HasNextPage {
			break
		}
		after = *conn.PageInfo.EndCursor
	}
	return restIDs, gqlIDs
}

func sep(p string) string {
	if strings.Contains(p, "?") {
		return "&"
	}
	return "?"
}

// TestParity runs the same scenarios through /v1 and GraphQL and asserts
// the same answers: pages, counts and errors.
func TestParity(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 230, findingsB: 40})
	t.Run("pages", func(t *testing.T) {
		for _, tc := range []struct {
			name, rest, field, args string
			limit                   int
		}{
			{"findings", "/v1/findings", "findings", "", 37},
			{"findings filtered", "/v1/findings?severity=high&status=open", "findings", "filter: {severity: HIGH, status: OPEN}", 7},
			{"findings by account", "/v1/findings?account=acct-1&dimension=cost", "findings", `filter: {account: "acct-1", dimension: COST}`, 5},
			{"resources", "/v1/resources", "resources", "", 11},
			{"resources by type", "/v1/resources?type=aws_instance", "resources", `filter: {type: "aws_instance"}`, 4},
			{"audits", "/v1/audits", "audits", "", 1},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r, g := walk(t, e, tc.rest, tc.field, tc.args, tc.limit)
				if diff := cmp.Diff(r, g); diff != "" {
					t.Errorf("pages differ (-rest +graphql):\n%s", diff)
				}
				if len(r) == 0 || len(r[0]) == 0 {
					t.Errorf("no items: the scenario proves nothing")
				}
			})
		}
	})
	t.Run("totals", func(t *testing.T) {
		for _, tc := range []struct{ rest, filter string }{
			{"", ""},
			{"severity=critical", "{severity: CRITICAL}"},
			{"status=resolved&region=eu-west-1", `{status: RESOLVED, region: "eu-west-1"}`},
		} {
			var sum engine.FindingSummary
			e.rest(t, "/v1/findings/summary?group_by=severity,dimension&"+tc.rest, e.tokA, &sum)
			args := "groupBy: [SEVERITY, DIMENSION]"
			countArgs := "first: 1"
			if tc.filter != "" {
				args += ", filter: " + tc.filter
				countArgs += ", filter: " + tc.filter
			}
			q := fmt.Sprintf(`{ findingStats(%s) { total groups { severity dimension count } } findings(%s) { totalCount } }`, args, countArgs)
			got := data[struct {
				FindingStats struct {
					Total  int64
					Groups []struct {
						Severity, Dimension string
						Count               int64
					}
				}
				Findings struct{ TotalCount int64 }
			}](t, e.gql(t, e.tokA, q, nil))
			var want, gotGroups []string
			for _, g := range sum.Groups {
				want = append(want, fmt.Sprintf("%s/%s=%d", g.Key[engine.GroupBySeverity], g.Key[engine.GroupByDimension], g.Count))
			}
			for _, g := range got.FindingStats.Groups {
				gotGroups = append(gotGroups, fmt.Sprintf("%s/%s=%d", strings.ToLower(g.Severity), strings.ToLower(g.Dimension), g.Count))
			}
			if diff := cmp.Diff(want, gotGroups); diff != "" {
				t.Errorf("%s: groups differ (-rest +graphql):\n%s", tc.rest, diff)
			}
			if got.FindingStats.Total != sum.Total || got.Findings.TotalCount != sum.Total || sum.Total == 0 {
				t.Errorf("%s: totals: rest %d, findingStats %d, totalCount %d", tc.rest, sum.Total, got.FindingStats.Total, got.Findings.TotalCount)
			}
		}
	})
	t.Run("single records", func(t *testing.T) {
		f, res := e.a.Findings[3], e.a.Resources[2]
		var rf struct {
			ID, Severity, Title string
			ResourceID          string `json:"resource_id"`
		}
		e.rest(t, "/v1/findings/"+f.ID, e.tokA, &rf)
		got := data[struct {
			Finding struct {
				ID, Severity, Title, ResourceID string
				Resource                        struct{ ID string }
			}
			Node struct{ ID, Name string }
		}](t, e.gql(t, e.tokA, `query($f: ID!, $r: ID!) { finding(id: $f) { id severity title resourceId resource { id } }
			node(id: $r) { id ... on Resource { name } } }`, map[string]any{"f": f.ID, "r": res.ID}))
		if got.Finding.ID != rf.ID || strings.ToLower(got.Finding.Severity) != string(f.Severity) || got.Finding.Title != f.Title ||
			got.Finding.Resource.ID != f.ResourceID || got.Node.Name != res.Name {
			t.Errorf("got %+v, want finding %+v and resource %s", got, rf, res.Name)
		}
	})
	t.Run("errors", func(t *testing.T) {
		otherTenant := e.b.Findings[0].ID
		for _, tc := range []struct {
			name, rest, token, query string
		}{
			{"bad cursor", "/v1/findings?cursor=bogus", e.tokA, `{ findings(after: "bogus") { totalCount } }`},
			{"limit too large", "/v1/findings?limit=500", e.tokA, `{ findings(first: 500) { totalCount } }`},
			{"limit zero", "/v1/resources?limit=0", e.tokA, `{ resources(first: 0) { totalCount } }`},
			{"unknown finding", "/v1/findings/fnd_01HZZZZZZZZZZZZZZZZZZZZZZZ", e.tokA, `{ finding(id: "fnd_01HZZZZZZZZZZZZZZZZZZZZZZZ") { id } }`},
			{"another tenant's finding", "/v1/findings/" + otherTenant, e.tokA, fmt.Sprintf(`{ finding(id: %q) { id } }`, otherTenant)},
			{"bad resource filter", "/v1/findings?resource_id=nope", e.tokA, `{ findings(filter: {resourceId: "nope"}) { totalCount } }`},
			{"missing scope", "/v1/findings", e.tokAResources, `{ findings { totalCount } }`},
			{"no token", "/v1/findings", "", `{ findings { totalCount } }`},
			{"bad token", "/v1/findings", "fdp_0123456789abcdefghijklmnopqrstuvwxyz", `{ findings { totalCount } }`},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var re restError
				e.rest(t, tc.rest, tc.token, &re)
				got := e.gql(t, tc.token, tc.query, nil)
				if re.Error.Code == "" || got.code() != re.Error.Code {
					t.Errorf("codes: rest %q, graphql %q (%+v)", re.Error.Code, got.code(), got.Errors)
				}
				if got.status >= 500 {
					t.Errorf("graphql status %d", got.status)
				}
			})
		}
	})
}
