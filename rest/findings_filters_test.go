package rest

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/testserver"
)

// filterSeed is a snapshot made for the row filters: resources with
// different tags, names and native ids, findings with different titles,
// compliance references and first sightings.
type filterSeed struct {
	audit     engine.Audit
	resources []engine.Resource
	findings  []engine.Finding
	now       time.Time
}

// seedFilterSnapshot writes filterSeed's resources and a new latest audit
// for tenantID. salt varies the ids between tenants; the tags, names and
// texts are the same in both, so that a leak would show.
func seedFilterSnapshot(t *testing.T, e *env, tenantID string, salt int) filterSeed {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)
	s := filterSeed{now: now}
	specs := []struct {
		name, native string
		tags         map[string]string
	}{
		{"payments-db", "arn:aws:rds:eu-west-1:1:db/payments-db", map[string]string{"env": "prod", "team": "pay"}},
		{"web-bucket", "arn:aws:s3:::web-bucket", map[string]string{"env": "prod", "team": "web"}},
		{"Scratch", "i-0SCRATCH", map[string]string{"env": "dev"}},
		{"untagged", "i-0untagged", nil},
	}
	for i, sp := range specs {
		native := fmt.Sprintf("%s-%d", sp.native, salt)
		s.resources = append(s.resources, engine.Resource{ID: engine.ResourceID(tenantID, "aws", native), TenantID: tenantID,
			Provider: "aws", Account: "acct-1", Region: "eu-west-1", Type: "aws_instance", NativeID: native, Name: sp.name,
			Tags: engine.TagsFromMap(sp.tags), Attributes: []byte(`{}`), FirstSeenAt: now, LastSeenAt: now.Add(time.Duration(i) * time.Millisecond)})
	}
	// An older observation of Scratch had team=pay: only the latest counts
	// (unless the table has already folded it away).
	old := s.resources[2]
	old.Tags, old.LastSeenAt = engine.TagsFromMap(map[string]string{"env": "dev", "team": "pay"}), now.Add(-time.Hour)
	if _, err := e.ch.WriteResources(ctx, tenantID, testserver.SeqOf([]engine.Resource{old})); err != nil {
		t.Fatal(err)
	}
	if _, err := e.ch.WriteResources(ctx, tenantID, testserver.SeqOf(s.resources)); err != nil {
		t.Fatal(err)
	}
	s.audit = testserver.CompleteAudit(t, e.pg, tenantID, now.Add(time.Duration(salt+1)*time.Minute))
	titles := []string{"Bucket is PUBLIC", "Root account in use", "Unencrypted volume", "Über-wide security group"}
	comps := [][]string{{"CIS-AWS-4.0.1:2.1.4"}, {"CIS-AWS-4.0.1:1.4", "NIST-800-53-r5:AC-3"}, {"NIST-800-53-r5:SC-7(4)"}, nil}
	ages := []time.Duration{24 * time.Hour, 10 * 24 * time.Hour, 60 * 24 * time.Hour, 120 * 24 * time.Hour, 400 * 24 * time.Hour}
	n := 0
	for ri, r := range s.resources {
		for k := range 12 {
			rule := fmt.Sprintf("rule_%02d", k)
			f := engine.Finding{ID: engine.FindingID(tenantID, rule, r.ID), TenantID: tenantID, AuditID: s.audit.ID,
				ResourceID: r.ID, RuleID: rule, Dimension: engine.Dimensions[n%4], Severity: engine.Severities[(n*3)%5],
				Status: engine.StatusOpen, Title: titles[(k+ri)%len(titles)], Description: "d", Remediation: "r",
				Evidence: []byte(`{}`), Compliance: comps[k%len(comps)], ResourceType: r.Type, Provider: r.Provider,
				Account: r.Account, Region: r.Region, FirstSeenAt: now.Add(-ages[n%len(ages)]), LastSeenAt: now}
			if f.Compliance == nil {
				f.Compliance = []string{}
			}
			if n%7 == 3 {
				at := now
				f.Status, f.Resolution, f.ResolvedAt = engine.StatusResolved, engine.ResolutionFixed, &at
			}
			s.findings = append(s.findings, f)
			n++
		}
	}
	if _, err := e.ch.WriteSnapshot(ctx, tenantID, s.audit.ID, testserver.SeqOf(s.findings)); err != nil {
		t.Fatal(err)
	}
	return s
}

// resourceOf returns the seed's resource of a finding.
func (s filterSeed) resourceOf(f engine.Finding) engine.Resource {
	for _, r := range s.resources {
		if r.ID == f.ResourceID {
			return r
		}
	}
	panic("no resource " + f.ResourceID)
}

// walk pages a findings list with limit 7 through its cursors and fails
// on a finding seen twice.
func walk(t *testing.T, e *env, token, query string) []string {
	t.Helper()
	var out []string
	seen := map[string]bool{}
	cursor := ""
	for pages := 0; ; pages++ {
		path := "/v1/findings?limit=7&" + query
		if cursor != "" {
			path += "&cursor=" + url.QueryEscape(cursor)
		}
		p := getJSON[listBody[engine.Finding]](t, e, path, token)
		for _, f := range p.Data {
			if seen[f.ID] {
				t.Fatalf("%s: %s twice", query, f.ID)
			}
			seen[f.ID] = true
			out = append(out, f.ID)
		}
		if !p.HasMore || pages > 100 {
			return out
		}
		cursor = *p.NextCursor
	}
}

// TestFindingRowFilters: each of tag, compliance, assignee, q and
// first_seen_after/before selects exactly the findings it should (a
// finding that must not match stays out), through a cursor walk (each
// match once), the summary and the export; status=open leaves out the
// muted and the accepted ones under them too; tenant B's identical data
// never shows (issue 33 §3).
func TestFindingRowFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 8, findingsB: 8})
	ctx := context.Background()
	sa := seedFilterSnapshot(t, e, e.a.ID, 0)
	sb := seedFilterSnapshot(t, e, e.b.ID, 1)
	bot, err := e.pg.GetUserByEmail(ctx, e.a.ID, "bot@acme.test")
	if err != nil {
		t.Fatal(err)
	}
	otherUser, err := e.pg.GetUserByEmail(ctx, e.b.ID, "admin@globex.test")
	if err != nil {
		t.Fatal(err)
	}
	// People's decisions: two assigned to bot (one in progress), one
	// accepted as a risk; in B, one assigned to B's user.
	assigned := []string{sa.findings[0].ID, sa.findings[13].ID}
	for i, id := range assigned {
		body := `{"assignee":"` + bot.ID + `"}`
		if i == 1 {
			body = `{"status":"in_progress","assignee":"` + bot.ID + `"}`
		}
		if r := e.patchFinding(t, id, e.tokA, body); r.status != 200 {
			t.Fatalf("PATCH: %d %s", r.status, r.body)
		}
	}
	accepted := sa.findings[1] // payments-db, open
	if r := e.patchFinding(t, accepted.ID, e.tokA, `{"status":"resolved","resolution":"accepted_risk","note":"n"}`); r.status != 200 {
		t.Fatalf("PATCH: %d %s", r.status, r.body)
	}
	if r := e.patchFinding(t, sb.findings[0].ID, e.tokB, `{"assignee":"`+otherUser.ID+`"}`); r.status != 200 {
		t.Fatalf("PATCH B: %d %s", r.status, r.body)
	}
	// A mute rule muting the open findings of rule_02.
	decodeAs[engine.MuteRule](t, e.muteCall(t, http.MethodPost, "/v1/mute_rules", e.tokA,
		muteBody(`finding.rule_id == "rule_02"`)), http.StatusCreated)

	status := func(f engine.Finding) engine.FindingStatus {
		switch {
		case f.ID == accepted.ID:
			return engine.StatusResolved
		case f.Status == engine.StatusOpen && f.RuleID == "rule_02":
			return engine.StatusMuted
		}
		return f.Status
	}
	hasTag := func(f engine.Finding, k, v string) bool {
		got, ok := sa.resourceOf(f).Tags.Get(k)
		return ok && got == v
	}
	after, before := sa.now.Add(-90*24*time.Hour), sa.now.Add(-5*24*time.Hour)
	cases := []struct {
		query string
		match func(engine.Finding) bool
	}{
		{"tag=team%3Dpay", func(f engine.Finding) bool { return hasTag(f, "team", "pay") }},
		{"tag=env%3Dprod&tag=team%3Dweb", func(f engine.Finding) bool { return hasTag(f, "env", "prod") && hasTag(f, "team", "web") }},
		{"tag=env%3Ddev", func(f engine.Finding) bool { return hasTag(f, "env", "dev") }},
		{"tag=env%3Dprod&tag=team%3Dnone", func(engine.Finding) bool { return false }},
		{"compliance=CIS-AWS-4.0.1%3A2.1.4", func(f engine.Finding) bool { return slices.Contains(f.Compliance, "CIS-AWS-4.0.1:2.1.4") }},
		{"compliance=NIST-800-53-r5", func(f engine.Finding) bool {
			return slices.ContainsFunc(f.Compliance, func(c string) bool { return strings.HasPrefix(c, "NIST-800-53-r5:") })
		}},
		{"compliance=CIS-AWS-4.0.1%3A1.1", func(engine.Finding) bool { return false }}, // a control no finding maps
		{"assignee=" + bot.ID, func(f engine.Finding) bool { return slices.Contains(assigned, f.ID) }},
		{"assignee=" + otherUser.ID, func(engine.Finding) bool { return false }}, // B's user: none of A's
		{"q=public", func(f engine.Finding) bool { return f.Title == "Bucket is PUBLIC" }},
		{"q=%C3%BCBER", func(f engine.Finding) bool { return f.Title == "Über-wide security group" }},
		{"q=PAYMENTS", func(f engine.Finding) bool { return sa.resourceOf(f).Name == "payments-db" }},
		{"q=i-0scratch", func(f engine.Finding) bool { return sa.resourceOf(f).Name == "Scratch" }},
		{"first_seen_after=" + url.QueryEscape(after.Format(time.RFC3339)), func(f engine.Finding) bool { return !f.FirstSeenAt.Before(after) }},
		{"first_seen_before=" + url.QueryEscape(before.Format(time.RFC3339)), func(f engine.Finding) bool { return f.FirstSeenAt.Before(before) }},
		{"first_seen_after=" + url.QueryEscape(after.Format(time.RFC3339)) + "&first_seen_before=" + url.QueryEscape(before.Format(time.RFC3339)) + "&tag=env%3Dprod",
			func(f engine.Finding) bool {
				return !f.FirstSeenAt.Before(after) && f.FirstSeenAt.Before(before) && hasTag(f, "env", "prod")
			}},
	}
	for _, c := range cases {
		for _, st := range []string{"", "open", "resolved", "muted"} {
			var want []string
			for _, f := range sa.findings {
				if c.match(f) && (st == "" || status(f) == engine.FindingStatus(st)) {
					want = append(want, f.ID)
				}
			}
			query := c.query
			if st != "" {
				query += "&status=" + st
			}
			got := walk(t, e, e.tokA, query)
			if !sameSet(got, want) {
				t.Errorf("%s: listed %d %v, want %d %v", query, len(got), got, len(want), want)
			}
			if st == "" && len(want) == len(sa.findings) {
				t.Errorf("%s: matches every finding, a case that proves nothing", query)
			}
			sum := getJSON[engine.FindingSummary](t, e, "/v1/findings/summary?group_by=status&"+query, e.tokA)
			byStatus := map[string]int64{}
			for _, g := range sum.Groups {
				byStatus[g.Key[engine.GroupByStatus]] += g.Count
			}
			if sum.Total != int64(len(want)) {
				t.Errorf("%s: summary total %d, want %d (%v)", query, sum.Total, len(want), sum.Groups)
			}
			if st != "" && byStatus[st] != sum.Total {
				t.Errorf("%s: summary groups %v", query, sum.Groups)
			}
			if st == "" {
				_, rows := exportedCSV(t, e.get(t, "/v1/findings/export?format=csv&"+query, e.tokA))
				var exported []string
				for _, row := range rows {
					exported = append(exported, row[0])
				}
				if !slices.Equal(exported, got) {
					t.Errorf("%s: export %v, list %v", query, exported, got)
				}
			}
		}
	}
	// Tenant B sees its own findings under the same filters, never A's.
	for _, q := range []string{"tag=team%3Dpay", "q=payments", "compliance=NIST-800-53-r5", "assignee=" + otherUser.ID} {
		got := walk(t, e, e.tokB, q)
		if len(got) == 0 {
			t.Errorf("B %s: nothing", q)
		}
		for _, id := range got {
			if !slices.ContainsFunc(sb.findings, func(f engine.Finding) bool { return f.ID == id }) {
				t.Errorf("B %s: %s is not B's", q, id)
			}
		}
	}
	if got := walk(t, e, e.tokB, "assignee="+bot.ID); len(got) != 0 {
		t.Errorf("B filtering by A's user: %v", got)
	}
	// group_by=age: the open findings by how long ago they were first seen
	// (1, 10, 60, 120 and 400 days), youngest first, under a filter too.
	for _, q := range []string{"status=open", "status=open&tag=env%3Dprod"} {
		want := map[string]int64{}
		for _, f := range sa.findings {
			if status(f) == engine.StatusOpen && (q == "status=open" || hasTag(f, "env", "prod")) {
				age := sa.now.Sub(f.FirstSeenAt)
				name := ""
				for _, b := range engine.AgeBuckets {
					if age >= b.Min {
						name = b.Name
					}
				}
				want[name]++
			}
		}
		sum := getJSON[engine.FindingSummary](t, e, "/v1/findings/summary?group_by=age&"+q, e.tokA)
		var order []string
		for _, g := range sum.Groups {
			order = append(order, g.Key[engine.GroupByAge])
			if g.Count != want[g.Key[engine.GroupByAge]] {
				t.Errorf("%s: age group %v, want %d", q, g, want[g.Key[engine.GroupByAge]])
			}
		}
		if len(order) != len(want) || len(want) != len(engine.AgeBuckets) || !slices.IsSortedFunc(order, func(a, b string) int {
			return engine.AgeBucketRank(a) - engine.AgeBucketRank(b)
		}) {
			t.Errorf("%s: age groups %v, want the %d buckets youngest first (%v)", q, sum.Groups, len(engine.AgeBuckets), want)
		}
	}
	// bulk_update's filter form takes the same filters (tag as an array):
	// exactly the open findings of dev resources whose title has "root".
	want := walk(t, e, e.tokA, "tag=env%3Ddev&q=ROOT&status=open")
	r := do(t, e.client, http.MethodPost, e.url+"/v1/findings/bulk_update", e.tokA,
		[]byte(`{"filter":{"tag":["env=dev"],"q":"ROOT","status":"open"},"status":"in_progress","note":"triage"}`), jsonHeader("application/json"))
	res := decodeAs[engine.BulkResult](t, r, http.StatusOK)
	var updated []string
	for _, it := range res.Results {
		if it.OK {
			updated = append(updated, it.ID)
		}
	}
	if len(want) == 0 || res.Failed != 0 || !sameSet(updated, want) {
		t.Errorf("bulk update by filter: %d updated %v, want %v", res.Updated, updated, want)
	}
	// A cursor is bound to its filters: another tag is invalid_cursor.
	p := getJSON[listBody[engine.Finding]](t, e, "/v1/findings?limit=2&tag=env%3Dprod", e.tokA)
	if !p.HasMore {
		t.Fatal("tag=env=prod fits in one page of 2")
	}
	if r := e.get(t, "/v1/findings?limit=2&tag=env%3Ddev&cursor="+url.QueryEscape(*p.NextCursor), e.tokA); errCode(r.body) != "invalid_cursor" {
		t.Errorf("cursor of another tag filter: %d %s", r.status, r.body)
	}
}

// sameSet reports whether a and b hold the same ids.
func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestFindingRowFiltersBadInput: malformed tags, unknown frameworks or
// controls, a q too long, bad dates and after ≥ before are 422 in the
// envelope on the list, the summary, the export and a bulk update's filter.
func TestFindingRowFiltersBadInput(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 5})
	long := strings.Repeat("a", engine.MaxQueryText+1)
	for _, q := range []string{
		"tag=novalue", "tag=%3Dv", "tag=", "tag=a%3Db&tag=nope", "tag=" + strings.Repeat("k", 600) + "%3Dv",
		strings.Repeat("tag=k%3Dv&", 10) + "tag=x%3Dy&tag=z%3Dw",
		"compliance=CIS-AWS-9.9", "compliance=CIS-AWS-4.0.1%3A99.99", "compliance=%3A2.1.4", "compliance=cis-aws-4.0.1",
		"assignee=bob", "assignee=res_00000000000000000000000000",
		"q=" + long, "first_seen_after=yesterday", "first_seen_before=2026-13-01T00:00:00Z", "first_seen_after=2026-01-01",
		"first_seen_after=2026-02-01T00:00:00Z&first_seen_before=2026-01-01T00:00:00Z",
		"first_seen_after=2026-02-01T00:00:00Z&first_seen_before=2026-02-01T00:00:00Z",
	} {
		for _, path := range []string{"/v1/findings?", "/v1/findings/summary?", "/v1/findings/export?"} {
			r := e.get(t, path+q, e.tokA)
			if r.status != http.StatusUnprocessableEntity || errCode(r.body) != "validation_failed" ||
				!strings.Contains(string(r.body), `"request_id"`) {
				t.Errorf("%s%.80s: %d %.300s", path, q, r.status, r.body)
			}
		}
	}
	for _, body := range []string{
		`{"filter":{"tag":"novalue"},"status":"in_progress"}`, `{"filter":{"tag":["a=b","x"]},"status":"in_progress"}`,
		`{"filter":{"tag":7},"status":"in_progress"}`, `{"filter":{"compliance":"SOC3"},"status":"in_progress"}`,
		`{"filter":{"first_seen_after":"soon"},"status":"in_progress"}`,
	} {
		r := do(t, e.client, http.MethodPost, e.url+"/v1/findings/bulk_update", e.tokA, []byte(body), jsonHeader("application/json"))
		if r.status != http.StatusUnprocessableEntity || errCode(r.body) != "validation_failed" {
			t.Errorf("bulk %s: %d %s", body, r.status, r.body)
		}
	}
}
