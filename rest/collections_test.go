package rest

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/go-cmp/cmp"
)

func idsOf[T any](xs []T, id func(T) string) []string {
	out := []string{}
	for _, x := range xs {
		out = append(out, id(x))
	}
	return out
}

func newestFirst(ids []string) []string {
	ids = slices.Clone(ids)
	slices.Sort(ids)
	slices.Reverse(ids)
	return ids
}

func TestListCollections(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 40, findingsB: 8})
	resID := func(r engine.Resource) string { return r.ID }
	sortedRes := idsOf(e.a.Resources, resID)
	slices.Sort(sortedRes)
	t.Run("resources", func(t *testing.T) {
		for _, limit := range []string{"1", "4", "200"} {
			got := pageAll(t, e, "/v1/resources?limit="+limit, e.tokA, resID)
			if diff := cmp.Diff(sortedRes, got); diff != "" {
				t.Errorf("limit %s (-want +got):\n%s", limit, diff)
			}
		}
	})
	t.Run("resource filters", func(t *testing.T) {
		for _, q := range []struct {
			query string
			keep  func(engine.Resource) bool
		}{
			{"type=aws_s3_bucket", func(r engine.Resource) bool { return r.Type == "aws_s3_bucket" }},
			{"provider=gcp", func(r engine.Resource) bool { return r.Provider == "gcp" }},
			{"account=acct-0&region=us-east-1", func(r engine.Resource) bool { return r.Account == "acct-0" && r.Region == "us-east-1" }},
			{"region=nowhere", func(engine.Resource) bool { return false }},
		} {
			var want []string
			for _, id := range sortedRes {
				i := slices.IndexFunc(e.a.Resources, func(r engine.Resource) bool { return r.ID == id })
				if q.keep(e.a.Resources[i]) {
					want = append(want, id)
				}
			}
			if want == nil {
				want = []string{}
			}
			got := pageAll(t, e, "/v1/resources?limit=3&"+q.query, e.tokA, resID)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", q.query, diff)
			}
		}
	})
	t.Run("audits", func(t *testing.T) {
		got := pageAll(t, e, "/v1/audits?limit=1", e.tokA, func(a engine.Audit) string { return a.ID })
		if diff := cmp.Diff([]string{e.a.Audit.ID}, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("policies", func(t *testing.T) {
		got := pageAll(t, e, "/v1/policies?limit=2", e.tokA, func(p engine.Policy) string { return p.ID })
		want := newestFirst(idsOf(e.a.Policies, func(p engine.Policy) string { return p.ID }))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("reports", func(t *testing.T) {
		got := pageAll(t, e, "/v1/reports?limit=1", e.tokA, func(r engine.Report) string { return r.ID })
		want := newestFirst(idsOf(e.a.Reports, func(r engine.Report) string { return r.ID }))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

// Single records come back as the object itself; a wrong prefix, a missing
// id and another tenant's id all answer 404 not_found.
func TestGetRecords(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 30, findingsB: 10})
	type rec struct {
		path string
		id   string
	}
	ok := []rec{
		{"/v1/findings/", e.a.Findings[3].ID},
		{"/v1/resources/", e.a.Resources[1].ID},
		{"/v1/audits/", e.a.Audit.ID},
		{"/v1/policies/", e.a.Policies[0].ID},
		{"/v1/reports/", e.a.Reports[2].ID},
	}
	for _, r := range ok {
		t.Run(r.path+"found", func(t *testing.T) {
			got := getJSON[map[string]any](t, e, r.path+r.id, e.tokA)
			if got["id"] != r.id {
				t.Errorf("id = %v, want %s", got["id"], r.id)
			}
		})
	}
	t.Run("finding fields", func(t *testing.T) {
		want := e.a.Findings[7]
		got := getJSON[engine.Finding](t, e, "/v1/findings/"+want.ID, e.tokA)
		want.TenantID = ""
		if diff := cmp.Diff(want.Title, got.Title); diff != "" || got.Severity != want.Severity || got.ResourceID != want.ResourceID ||
			got.AuditID != e.a.Audit.ID || string(got.Evidence) != string(want.Evidence) {
			t.Errorf("got %+v, want %+v", got, want)
		}
	})
	missing := []rec{
		{"/v1/findings/", e.b.Findings[0].ID},                 // another tenant's
		{"/v1/findings/", engine.FindingID(e.a.ID, "x", "y")}, // well-formed, absent
		{"/v1/findings/", e.a.Resources[0].ID},                // wrong prefix
		{"/v1/findings/", "fnd_nope"},                         // malformed
		{"/v1/resources/", e.b.Resources[0].ID},               //
		{"/v1/resources/", strings.Replace(e.a.Resources[0].ID, "res_", "fnd_", 1)},
		{"/v1/audits/", e.b.Audit.ID},
		{"/v1/audits/", engine.NewID(engine.PrefixAudit, e.a.Audit.CreatedAt)},
		{"/v1/policies/", e.b.Policies[0].ID},
		{"/v1/policies/", e.a.Reports[0].ID},
		{"/v1/reports/", e.b.Reports[0].ID},
		{"/v1/reports/", "rpt_" + strings.Repeat("z", 26)},
	}
	for _, r := range missing {
		t.Run(r.path+r.id, func(t *testing.T) {
			res := e.get(t, r.path+r.id, e.tokA)
			wantError(t, res, http.StatusNotFound, engine.CodeNotFound)
		})
	}
}

// Tenant B's token sees nothing of tenant A: not in lists, not by id, not
// through filters naming A's records.
func TestTenantIsolation(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 50, findingsB: 12})
	bFindings := pageAll(t, e, "/v1/findings?limit=200", e.tokB, findingID)
	if diff := cmp.Diff(wantOrder(e.b.Findings), bFindings); diff != "" {
		t.Errorf("B's findings (-want +got):\n%s", diff)
	}
	bRes := pageAll(t, e, "/v1/resources?limit=200", e.tokB, func(r engine.Resource) string { return r.ID })
	if len(bRes) != len(e.b.Resources) {
		t.Errorf("B sees %d resources, has %d", len(bRes), len(e.b.Resources))
	}
	aIDs := map[string]bool{e.a.Audit.ID: true}
	for _, f := range e.a.Findings {
		aIDs[f.ID] = true
	}
	for _, r := range e.a.Resources {
		aIDs[r.ID] = true
	}
	for _, path := range []string{"/v1/audits", "/v1/policies", "/v1/reports"} {
		body := e.get(t, path+"?limit=200", e.tokB).body
		var page listBody[map[string]any]
		if err := json.Unmarshal(body, &page); err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Data {
			if aIDs[it["id"].(string)] {
				t.Errorf("%s: B sees A's %s", path, it["id"])
			}
		}
		if len(page.Data) == 0 {
			t.Errorf("%s: B sees nothing, wants its own", path)
		}
	}
	for _, id := range bFindings {
		if aIDs[id] {
			t.Errorf("B sees A's finding %s", id)
		}
	}
	// Filters naming A's records find nothing, or not_found for A's audit.
	empty := getJSON[listBody[engine.Finding]](t, e, "/v1/findings?resource_id="+e.a.Resources[0].ID, e.tokB)
	if len(empty.Data) != 0 || empty.HasMore {
		t.Errorf("B filtering by A's resource sees %d findings", len(empty.Data))
	}
	wantError(t, e.get(t, "/v1/findings?audit_id="+e.a.Audit.ID, e.tokB), http.StatusNotFound, engine.CodeNotFound)
	wantError(t, e.get(t, "/v1/findings/summary?audit_id="+e.a.Audit.ID, e.tokB), http.StatusNotFound, engine.CodeNotFound)
	sum := getJSON[engine.FindingSummary](t, e, "/v1/findings/summary", e.tokB)
	if sum.Total != int64(len(e.b.Findings)) || sum.AuditID != e.b.Audit.ID {
		t.Errorf("B's summary: %d findings of %s, want %d of %s", sum.Total, sum.AuditID, len(e.b.Findings), e.b.Audit.ID)
	}
	// A's cursor is not B's.
	pageA := getJSON[listBody[engine.Finding]](t, e, "/v1/findings?limit=2", e.tokA)
	wantError(t, e.get(t, "/v1/findings?limit=2&cursor="+*pageA.NextCursor, e.tokB), http.StatusBadRequest, engine.CodeInvalidCursor)
}

// wantError checks an error response's status and code.
func wantError(t testing.TB, r response, status int, code string) errorDetail {
	t.Helper()
	var b errorBody
	if err := json.Unmarshal(r.body, &b); err != nil {
		t.Fatalf("status %d, body %s: %v", r.status, r.body, err)
	}
	if r.status != status || b.Error.Code != code {
		t.Errorf("got %d %s (%s), want %d %s", r.status, b.Error.Code, b.Error.Message, status, code)
	}
	return b.Error
}
