package rest

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// TestMutedListsAgreeWithCounts: with a mute rule over some findings and
// decisions on a muted and an open finding, every findings list (no
// status, each status; with and without other filters, row filters
// included) pages through exactly as many findings as the summary of the
// same filters counts, and the muted ones are where the status says
// (issue 33 §1).
func TestMutedListsAgreeWithCounts(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 90, findingsB: 30})
	rule := decodeAs[engine.MuteRule](t, e.muteCall(t, http.MethodPost, "/v1/mute_rules", e.tokA,
		muteBody(`resource.type == "aws_s3_bucket"`)), http.StatusCreated)
	if rule.Applied == nil || rule.Applied.Matched == 0 || rule.Applied.Matched >= int64(len(e.a.Findings)) {
		t.Fatalf("seed: the rule mutes %+v of %d", rule.Applied, len(e.a.Findings))
	}
	// A muted finding someone accepted (resolved by the decision, not
	// muted) and an open one someone accepted.
	var mutedOne, openOne string
	for _, f := range listAll(t, e, "") {
		switch {
		case f.Status == engine.StatusMuted && mutedOne == "":
			mutedOne = f.ID
		case f.Status == engine.StatusOpen && openOne == "":
			openOne = f.ID
		}
	}
	for _, id := range []string{mutedOne, openOne} {
		if r := e.muteCall(t, http.MethodPatch, "/v1/findings/"+id, e.tokA, `{"status":"resolved","resolution":"accepted_risk"}`); r.status != http.StatusOK {
			t.Fatalf("patch %s: %d %s", id, r.status, r.body)
		}
	}
	// Two muted findings and an open one assigned, for the assignee filter.
	bot, err := e.pg.GetUserByEmail(context.Background(), e.a.ID, "bot@acme.test")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range listAll(t, e, "resource_type=aws_s3_bucket&status=muted")[:2] {
		if r := e.muteCall(t, http.MethodPatch, "/v1/findings/"+f.ID, e.tokA, `{"assignee":"`+bot.ID+`"}`); r.status != http.StatusOK {
			t.Fatalf("assign %s: %d %s", f.ID, r.status, r.body)
		}
	}
	if r := e.muteCall(t, http.MethodPatch, "/v1/findings/"+openOne, e.tokA, `{"assignee":"`+bot.ID+`"}`); r.status != http.StatusOK {
		t.Fatalf("assign %s: %d %s", openOne, r.status, r.body)
	}
	past := url.QueryEscape(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).Format(time.RFC3339))
	seen := map[engine.FindingStatus]int{}
	for _, filter := range []string{"", "severity=high", "resource_type=aws_s3_bucket", "first_seen_after=" + past, "q=bucket",
		"tag=env%3Dprod", "compliance=CIS-AWS-4.0.1:2.1.1", "assignee=" + bot.ID, "severity=low&tag=env%3Dprod"} {
		for _, status := range []string{"", "open", "resolved", "muted"} {
			query := filter
			if status != "" {
				if query != "" {
					query += "&"
				}
				query += "status=" + status
			}
			list := listAll(t, e, query)
			sum := getJSON[engine.FindingSummary](t, e, "/v1/findings/summary?"+query, e.tokA)
			if sum.Total != int64(len(list)) {
				t.Errorf("%q: the list pages through %d findings, the summary counts %d", query, len(list), sum.Total)
			}
			byStatus := getJSON[engine.FindingSummary](t, e, "/v1/findings/summary?group_by=status,severity&"+query, e.tokA)
			n := map[string]int64{}
			for _, g := range byStatus.Groups {
				n[g.Key[engine.GroupByStatus]+"/"+g.Key[engine.GroupBySeverity]] += g.Count
			}
			for _, f := range list {
				if status != "" && string(f.Status) != status {
					t.Errorf("%q lists %s as %s", query, f.ID, f.Status)
				}
				if (f.Status == engine.StatusMuted) != (f.MuteRuleID == rule.ID) {
					t.Errorf("%q lists %s as %s, muted by %q", query, f.ID, f.Status, f.MuteRuleID)
				}
				n[string(f.Status)+"/"+string(f.Severity)]--
				if filter == "" {
					seen[f.Status]++
				}
			}
			for st, left := range n {
				if left != 0 {
					t.Errorf("%q: grouped by status and severity, %s counts %d more than the list holds", query, st, left)
				}
			}
		}
	}
	if seen[engine.StatusMuted] == 0 || seen[engine.StatusOpen] == 0 || seen[engine.StatusResolved] == 0 {
		t.Errorf("seed: statuses seen %v", seen)
	}
	if got := getJSON[engine.Finding](t, e, "/v1/findings/"+mutedOne, e.tokA); got.Status != engine.StatusResolved || got.MuteRuleID != "" {
		t.Errorf("an accepted muted finding reads as %s muted by %q", got.Status, got.MuteRuleID)
	}
}
