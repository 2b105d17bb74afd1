package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/exports"
	"github.com/fourd-dev/fourd/engine/findings"
)

// TestExportFindingsWorkflowColumns: the CSV export carries the workflow
// fields (workflow_status, assignee, first_seen_at, resolved_at,
// open_age_seconds, mute_rule_id) as the list shows them, and each NDJSON
// line has them too (issue 33 §2, §5). Fails on the CSV of before, which
// had no workflow_status, assignee, open_age_seconds or mute_rule_id.
func TestExportFindingsWorkflowColumns(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 30, engine: func(c *findings.Config) { c.ExportPageSize = 4 }})
	bot, err := e.pg.GetUserByEmail(context.Background(), e.a.ID, "bot@acme.test")
	if err != nil {
		t.Fatal(err)
	}
	open, _ := e.openIDs(t)
	inProgress, accepted := open[0], open[1]
	if r := e.patchFinding(t, inProgress, e.tokA, `{"status":"in_progress","assignee":"`+bot.ID+`"}`); r.status != 200 {
		t.Fatalf("PATCH: %d %s", r.status, r.body)
	}
	if r := e.patchFinding(t, accepted, e.tokA, `{"status":"resolved","resolution":"accepted_risk","note":"n"}`); r.status != 200 {
		t.Fatalf("PATCH: %d %s", r.status, r.body)
	}
	var muted engine.Finding // an open info finding, muted by a rule
	for _, f := range listAll(t, e, "status=open&severity=info") {
		if f.ID != inProgress && f.ID != accepted {
			muted = f
			break
		}
	}
	if muted.ID == "" {
		t.Fatal("no open info finding to mute")
	}
	rule := decodeAs[engine.MuteRule](t, e.muteCall(t, http.MethodPost, "/v1/mute_rules", e.tokA,
		muteBody(`finding.id == "`+muted.ID+`"`)), http.StatusCreated)

	listed := map[string]engine.Finding{}
	for _, f := range listAll(t, e, "") {
		listed[f.ID] = f
	}
	header, rows := exportedCSV(t, e.get(t, "/v1/findings/export?format=csv", e.tokA))
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	for _, name := range []string{"workflow_status", "assignee", "first_seen_at", "resolved_at", "open_age_seconds", "mute_rule_id"} {
		if _, ok := col[name]; !ok {
			t.Fatalf("CSV header %v has no %s", header, name)
		}
	}
	if len(rows) != len(listed) {
		t.Fatalf("%d rows, list has %d", len(rows), len(listed))
	}
	seen := map[string]bool{}
	for _, row := range rows {
		f, ok := listed[row[0]]
		if !ok {
			t.Fatalf("row %v not in the list", row)
		}
		seen[f.ID] = true
		assignee := ""
		if f.Assignee != nil {
			assignee = *f.Assignee
		}
		resolved := ""
		if f.ResolvedAt != nil {
			resolved = f.ResolvedAt.UTC().Format("2006-01-02T15:04:05Z07:00")
		}
		age, err := strconv.ParseInt(row[col["open_age_seconds"]], 10, 64)
		if err != nil || age < f.OpenAgeSeconds-5 || age > f.OpenAgeSeconds+5 {
			t.Errorf("%s: open_age_seconds %q, list %d", f.ID, row[col["open_age_seconds"]], f.OpenAgeSeconds)
		}
		if row[col["workflow_status"]] != string(f.WorkflowStatus) || row[col["assignee"]] != assignee ||
			row[col["resolved_at"]] != resolved || row[col["mute_rule_id"]] != f.MuteRuleID ||
			row[col["first_seen_at"]] != f.FirstSeenAt.UTC().Format("2006-01-02T15:04:05Z07:00") || row[col["status"]] != string(f.Status) {
			t.Errorf("row %v, list %+v", row, f)
		}
	}
	byID := func(id string) []string {
		for _, row := range rows {
			if row[0] == id {
				return row
			}
		}
		t.Fatalf("%s not exported", id)
		return nil
	}
	if r := byID(inProgress); r[col["workflow_status"]] != "in_progress" || r[col["assignee"]] != bot.ID {
		t.Errorf("in progress row %v", r)
	}
	if r := byID(accepted); r[col["workflow_status"]] != "accepted_risk" || r[col["resolved_at"]] == "" {
		t.Errorf("accepted row %v", r)
	}
	if r := byID(muted.ID); r[col["status"]] != "muted" || r[col["mute_rule_id"]] != rule.ID {
		t.Errorf("muted row %v (rule %s)", r, rule.ID)
	}
	if !slices.Equal(header[:19], exports.FindingCSVColumns[:19]) || len(seen) != len(listed) {
		t.Errorf("header %v", header)
	}

	// NDJSON: every line names the workflow fields.
	body := string(e.get(t, "/v1/findings/export?format=ndjson", e.tokA).body)
	for _, line := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"workflow_status", "assignee", "first_seen_at", "resolved_at", "open_age_seconds"} {
			if _, ok := m[k]; !ok {
				t.Errorf("NDJSON line without %s: %s", k, line)
			}
		}
		if m["id"] == muted.ID && m["mute_rule_id"] != rule.ID {
			t.Errorf("muted NDJSON line without its rule: %s", line)
		}
	}
}
