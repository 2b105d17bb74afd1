package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// muteCall sends a JSON body (marshalled from v unless it is a string).
func (e *env) muteCall(t *testing.T, method, path, token string, v any) response {
	t.Helper()
	var b []byte
	if s, ok := v.(string); ok {
		b = []byte(s)
	} else if v != nil {
		var err error
		if b, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	h := http.Header{}
	if b != nil {
		h.Set("Content-Type", "application/json")
	}
	return do(t, e.client, method, e.url+path, token, b, h)
}

// muteBody is a create body expiring in a day.
func muteBody(expr string) map[string]any {
	return map[string]any{"expression": expr, "reason": "accepted by the platform team",
		"expires_at": time.Now().Add(24 * time.Hour).UTC().Format(time.RFC3339)}
}

func decodeAs[T any](t *testing.T, r response, want int) T {
	t.Helper()
	var v T
	if r.status != want {
		t.Fatalf("status %d, want %d: %s", r.status, want, r.body)
	}
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("%v: %s", err, r.body)
	}
	return v
}

// statusTotal is the summary's total for a status filter.
func statusTotal(t *testing.T, e *env, status string) int64 {
	t.Helper()
	return getJSON[engine.FindingSummary](t, e, "/v1/findings/summary?status="+status, e.tokA).Total
}

// listAll pages a findings list to the end.
func listAll(t *testing.T, e *env, query string) []engine.Finding {
	t.Helper()
	var out []engine.Finding
	cursor := ""
	for {
		path := "/v1/findings?limit=200&" + query
		if cursor != "" {
			path += "&cursor=" + cursor
		}
		p := getJSON[struct {
			Data       []engine.Finding `json:"data"`
			NextCursor string           `json:"next_cursor"`
			HasMore    bool             `json:"has_more"`
		}](t, e, path, e.tokA)
		out = append(out, p.Data...)
		if !p.HasMore {
			return out
		}
		cursor = p.NextCursor
	}
}

// TestMuteRuleCRUD creates, reads, lists, changes and deletes a rule, and
// lists its history: who, when, before and after of every change.
func TestMuteRuleCRUD(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 60, findingsB: 10})
	created := decodeAs[engine.MuteRule](t, e.muteCall(t, http.MethodPost, "/v1/mute_rules", e.tokA,
		muteBody(`finding.severity == "info"`)), http.StatusCreated)
	if !engine.ValidID(engine.PrefixMuteRule, created.ID) || created.Version != 1 || !created.Enabled || !created.Active ||
		!strings.HasPrefix(created.Owner, "usr_") || created.CreatedBy != created.Owner {
		t.Fatalf("created = %+v", created)
	}
	if created.Applied == nil || created.Applied.AuditID != e.a.Audit.ID {
		t.Fatalf("applied = %+v, want the latest audit %s", created.Applied, e.a.Audit.ID)
	}
	got := getJSON[engine.MuteRule](t, e, "/v1/mute_rules/"+created.ID, e.tokA)
	if got.ID != created.ID || got.Reason != created.Reason {
		t.Errorf("get = %+v", got)
	}
	list := getJSON[struct{ Data []engine.MuteRule }](t, e, "/v1/mute_rules", e.tokA)
	if len(list.Data) != 1 || list.Data[0].ID != created.ID {
		t.Errorf("list = %+v", list.Data)
	}
	changed := decodeAs[engine.MuteRule](t, e.muteCall(t, http.MethodPatch, "/v1/mute_rules/"+created.ID, e.tokA,
		map[string]any{"reason": "reviewed again", "enabled": false}), http.StatusOK)
	if changed.Version != 2 || changed.Enabled || changed.Active || changed.Reason != "reviewed again" {
		t.Errorf("changed = %+v", changed)
	}
	// A change that changes nothing (an empty body, or the values the rule
	// has) makes no version and no history entry.
	for _, body := range []map[string]any{{}, {"reason": "reviewed again", "enabled": false, "expression": created.Expression}} {
		same := decodeAs[engine.MuteRule](t, e.muteCall(t, http.MethodPatch, "/v1/mute_rules/"+created.ID, e.tokA, body), http.StatusOK)
		if same.Version != 2 || same.Reason != "reviewed again" || same.Enabled || !same.UpdatedAt.Equal(changed.UpdatedAt) {
			t.Errorf("PATCH %v = %+v, want version 2 unchanged", body, same)
		}
	}
	if r := e.muteCall(t, http.MethodDelete, "/v1/mute_rules/"+created.ID, e.tokA, nil); r.status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.status, r.body)
	}
	if r := e.get(t, "/v1/mute_rules/"+created.ID, e.tokA); r.status != http.StatusNotFound {
		t.Errorf("get after delete: %d", r.status)
	}
	hist := getJSON[struct {
		Data []engine.MuteRuleChange `json:"data"`
	}](t, e, "/v1/mute_rules/"+created.ID+"/history", e.tokA)
	if len(hist.Data) != 3 {
		t.Fatalf("history has %d changes, want 3: %+v", len(hist.Data), hist.Data)
	}
	for i, want := range []string{engine.MuteRuleCreated, engine.MuteRuleUpdated, engine.MuteRuleDeleted} {
		c := hist.Data[i]
		if c.Action != want || c.Actor != created.Owner || c.At.IsZero() {
			t.Errorf("change %d = %+v, want %s by %s", i, c, want, created.Owner)
		}
	}
	if h := hist.Data[0]; h.Before != nil || h.After == nil || h.After.Reason != created.Reason {
		t.Errorf("created change = %+v", h)
	}
	if h := hist.Data[1]; h.Before == nil || h.After == nil || h.Before.Reason != created.Reason ||
		h.After.Reason != "reviewed again" || !h.Before.Enabled || h.After.Enabled || h.After.Version != 2 {
		t.Errorf("updated change = before %+v after %+v", h.Before, h.After)
	}
	if h := hist.Data[2]; h.Before == nil || h.After != nil {
		t.Errorf("deleted change = %+v", h)
	}
	// Paged history: a cursor walks it.
	p1 := getJSON[struct {
		Data       []engine.MuteRuleChange `json:"data"`
		NextCursor string                  `json:"next_cursor"`
	}](t, e, "/v1/mute_rules/"+created.ID+"/history?limit=2", e.tokA)
	p2 := getJSON[struct {
		Data []engine.MuteRuleChange `json:"data"`
	}](t, e, "/v1/mute_rules/"+created.ID+"/history?limit=2&cursor="+p1.NextCursor, e.tokA)
	if len(p1.Data) != 2 || len(p2.Data) != 1 || p2.Data[0].Action != engine.MuteRuleDeleted {
		t.Errorf("paged history: %d then %d", len(p1.Data), len(p2.Data))
	}
	// Scopes: a findings:read token reads but cannot write.
	if r := e.muteCall(t, http.MethodPost, "/v1/mute_rules", e.tokAFindingsOnly, muteBody("true")); r.status != http.StatusForbidden {
		t.Errorf("create with findings:read: %d", r.status)
	}
	if r := e.get(t, "/v1/mute_rules", e.tokAResourcesOnly); r.status != http.StatusForbidden {
		t.Errorf("list with resources:read: %d", r.status)
	}
}

// TestMuteRuleBadInput: every bad rule is a 422 validation_failed naming
// the field (a CEL error with its line and column), never stored.
func TestMuteRuleBadInput(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 10, findingsB: 10})
	now := time.Now().UTC()
	with := func(k string, v any) map[string]any {
		b := muteBody(`finding.severity == "high"`)
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
		return b
	}
	var otherUser string
	for _, tc := range []struct {
		name, field, message string
		body                 any
	}{
		{"malformed CEL", "expression", "<input>:1:", with("expression", `finding.severity == `)},
		{"undeclared variable", "expression", "1:1: undeclared reference to 'findng'", with("expression", `findng.severity == "high"`)},
		{"not a bool", "expression", "", with("expression", `finding.severity`)},
		{"empty expression", "expression", "", with("expression", "")},
		{"missing reason", "reason", "reason is required", with("reason", nil)},
		{"blank reason", "reason", "reason is required", with("reason", "   ")},
		{"missing expires_at", "expires_at", "required", with("expires_at", nil)},
		{"expires_at in the past", "expires_at", "in the future", with("expires_at", now.Add(-time.Hour).Format(time.RFC3339))},
		{"expires_at over a year", "expires_at", "one year", with("expires_at", now.AddDate(1, 0, 2).Format(time.RFC3339))},
		{"unknown owner", "owner", "user of the tenant", with("owner", engine.NewID(engine.PrefixUser, now))},
		{"malformed owner", "owner", "user id", with("owner", "bob")},
		{"another tenant's user", "owner", "user of the tenant", with("owner", &otherUser)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.field == "owner" && tc.message == "user of the tenant" && tc.body.(map[string]any)["owner"] == &otherUser {
				b := getJSON[engine.MuteRule](t, e, "/v1/mute_rules/"+decodeAs[engine.MuteRule](t,
					e.muteCall(t, http.MethodPost, "/v1/mute_rules", e.tokB, muteBody("false")), http.StatusCreated).ID, e.tokB)
				tc.body.(map[string]any)["owner"] = b.Owner
			}
			r := e.muteCall(t, http.MethodPost, "/v1/mute_rules", e.tokA, tc.body)
			var env struct {
				Error struct{ Code, Message string }
			}
			_ = json.Unmarshal(r.body, &env)
			if r.status != http.StatusUnprocessableEntity || env.Error.Code != engine.CodeValidationFailed ||
				!strings.Contains(env.Error.Message, tc.message) {
				t.Errorf("status %d %s, want 422 validation_failed with %q", r.status, r.body, tc.message)
			}
		})
	}
	if n := len(getJSON[struct{ Data []engine.MuteRule }](t, e, "/v1/mute_rules", e.tokA).Data); n != 0 {
		t.Errorf("%d rules stored from bad input", n)
	}
	r := e.muteCall(t, http.MethodPost, "/v1/mute_rules/dry_run", e.tokA, map[string]any{"expression": "finding.rule_id =="})
	if r.status != http.StatusUnprocessableEntity || !strings.Contains(string(r.body), "1:") {
		t.Errorf("dry run of bad CEL: %d %s", r.status, r.body)
	}
	// limit is 1–200 (openapi.json's MuteDryRunInput, GraphQL's
	// dryRunMuteRule): an explicit 0 is out of range, not the default.
	for _, limit := range []int{0, -1, 201} {
		r := e.muteCall(t, http.MethodPost, "/v1/mute_rules/dry_run", e.tokA, map[string]any{"expression": "true", "limit": limit})
		if r.status != http.StatusUnprocessableEntity || errCode(r.body) != engine.CodeInvalidLimit {
			t.Errorf("dry run with limit %d: %d %s, want 422 invalid_limit", limit, r.status, r.body)
		}
	}
	if r := e.muteCall(t, http.MethodPost, "/v1/mute_rules/dry_run", e.tokA, map[string]any{"expression": "true"}); r.status != http.StatusOK {
		t.Errorf("dry run without limit: %d %s, want 200 (the default sample)", r.status, r.body)
	}
	if r := e.muteCall(t, http.MethodPost, "/v1/mute_rules", e.tokA, `{"expression":"true","bogus":1}`); r.status != http.StatusUnprocessableEntity {
		t.Errorf("unknown field: %d %s", r.status, r.body)
	}
	if r := e.muteCall(t, http.MethodPatch, "/v1/mute_rules/mut_nope", e.tokA, `{"enabled":false}`); r.status != http.StatusNotFound {
		t.Errorf("patch unknown id: %d", r.status)
	}
}

// TestMuteRuleRetroactive: a rule changes lists and counts at once,
// without an audit; disabling, deleting or expiring it undoes that. A rule
// matching nothing changes nothing.
func TestMuteRuleRetroactive(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 90, findingsB: 30})
	openBefore := statusTotal(t, e, "open")
	want := map[string]bool{} // open findings of A on s3 buckets, tagged env=prod (all are)
	for _, f := range e.a.Findings {
		if f.Status == engine.StatusOpen && f.ResourceType == "aws_s3_bucket" {
			want[f.ID] = true
		}
	}
	if len(want) == 0 || int64(len(want)) == openBefore {
		t.Fatalf("seed: %d of %d open findings match", len(want), openBefore)
	}
	// A clean twin: a well-formed rule matching nothing mutes nothing.
	none := decodeAs[engine.MuteRule](t, e.muteCall(t, http.MethodPost, "/v1/mute_rules", e.tokA,
		muteBody(`resource.type == "aws_lambda_function"`)), http.StatusCreated)
	if none.Applied == nil || none.Applied.Matched != 0 || statusTotal(t, e, "open") != openBefore || statusTotal(t, e, "muted") != 0 {
		t.Fatalf("a rule matching nothing changed counts: %+v", none.Applied)
	}
	dry := decodeAs[engine.MuteDryRun](t, e.muteCall(t, http.MethodPost, "/v1/mute_rules/dry_run", e.tokA,
		map[string]any{"expression": `resource.type == "aws_s3_bucket" && resource.tags["env"] == "prod"`, "limit": 3}), http.StatusOK)
	if dry.Matched != int64(len(want)) || dry.Scanned != openBefore || len(dry.Sample) != 3 || !want[dry.Sample[0].ID] {
		t.Fatalf("dry run = matched %d scanned %d sample %d, want %d of %d", dry.Matched, dry.Scanned, len(dry.Sample), len(want), openBefore)
	}
	rule := decodeAs[engine.MuteRule](t, e.muteCall(t, http.MethodPost, "/v1/mute_rules", e.tokA,
		muteBody(`resource.type == "aws_s3_bucket" && resource.tags["env"] == "prod"`)), http.StatusCreated)
	if rule.Applied == nil || rule.Applied.Matched != int64(len(want)) {
		t.Fatalf("applied = %+v, want %d matches", rule.Applied, len(want))
	}
	muted := func(t *testing.T) {
		t.Helper()
		if got := statusTotal(t, e, "open"); got != openBefore-int64(len(want)) {
			t.Errorf("open count = %d, want %d", got, openBefore-int64(len(want)))
		}
		if got := statusTotal(t, e, "muted"); got != int64(len(want)) {
			t.Errorf("muted count = %d, want %d", got, len(want))
		}
		for _, f := range listAll(t, e, "status=open") {
			if want[f.ID] || f.Status != engine.StatusOpen {
				t.Errorf("status=open lists %s (%s)", f.ID, f.Status)
			}
		}
		ms := listAll(t, e, "status=muted")
		if len(ms) != len(want) {
			t.Errorf("status=muted lists %d, want %d", len(ms), len(want))
		}
		for _, f := range ms {
			if !want[f.ID] || f.Status != engine.StatusMuted || f.MuteRuleID != rule.ID {
				t.Errorf("status=muted lists %s status %s rule %q", f.ID, f.Status, f.MuteRuleID)
			}
		}
		all := listAll(t, e, "")
		n := 0
		for _, f := range all {
			if (f.Status == engine.StatusMuted) != want[f.ID] {
				t.Errorf("unfiltered list shows %s as %s", f.ID, f.Status)
			}
			if f.Status == engine.StatusMuted {
				n++
			}
		}
		if n != len(want) || len(all) != len(e.a.Findings) {
			t.Errorf("unfiltered list: %d muted of %d", n, len(all))
		}
		for id := range want {
			f := getJSON[engine.Finding](t, e, "/v1/findings/"+id, e.tokA)
			if f.Status != engine.StatusMuted || f.MuteRuleID != rule.ID {
				t.Errorf("GET %s = %s %q", id, f.Status, f.MuteRuleID)
			}
			break
		}
		sum := getJSON[engine.FindingSummary](t, e, "/v1/findings/summary?group_by=status,severity", e.tokA)
		var groupMuted int64
		for _, g := range sum.Groups {
			if g.Key[engine.GroupByStatus] == "muted" {
				groupMuted += g.Count
			}
		}
		if groupMuted != int64(len(want)) || sum.Total != int64(len(e.a.Findings)) {
			t.Errorf("summary by status: muted %d total %d", groupMuted, sum.Total)
		}
	}
	unmuted := func(t *testing.T) {
		t.Helper()
		if got := statusTotal(t, e, "open"); got != openBefore {
			t.Errorf("open count = %d, want %d", got, openBefore)
		}
		if got := statusTotal(t, e, "muted"); got != 0 {
			t.Errorf("muted count = %d, want 0", got)
		}
		if got := len(listAll(t, e, "status=open")); int64(got) != openBefore {
			t.Errorf("status=open lists %d, want %d", got, openBefore)
		}
		if got := len(listAll(t, e, "status=muted")); got != 0 {
			t.Errorf("status=muted lists %d", got)
		}
	}
	t.Run("created", muted)
	// Tenant B sees nothing of it.
	if got := getJSON[engine.FindingSummary](t, e, "/v1/findings/summary?status=muted", e.tokB).Total; got != 0 {
		t.Errorf("B's muted count = %d", got)
	}
	path := "/v1/mute_rules/" + rule.ID
	decodeAs[engine.MuteRule](t, e.muteCall(t, http.MethodPatch, path, e.tokA, `{"enabled":false}`), http.StatusOK)
	t.Run("disabled", unmuted)
	decodeAs[engine.MuteRule](t, e.muteCall(t, http.MethodPatch, path, e.tokA, `{"enabled":true}`), http.StatusOK)
	t.Run("enabled again", muted)
	// A narrower expression: fewer muted at once.
	narrowed := decodeAs[engine.MuteRule](t, e.muteCall(t, http.MethodPatch, path, e.tokA,
		`{"expression":"resource.type == \"aws_s3_bucket\" && finding.severity == \"nope\""}`), http.StatusOK)
	if narrowed.Applied == nil || narrowed.Applied.Matched != 0 || narrowed.Version != 4 {
		t.Errorf("narrowed = %+v", narrowed)
	}
	t.Run("narrowed", unmuted)
	decodeAs[engine.MuteRule](t, e.muteCall(t, http.MethodPatch, path, e.tokA,
		`{"expression":"resource.type == \"aws_s3_bucket\""}`), http.StatusOK)
	t.Run("widened", muted)
	e.clock.Advance(25 * time.Hour) // past expires_at
	t.Run("expired", unmuted)
	if got := getJSON[engine.MuteRule](t, e, path, e.tokA); got.Active {
		t.Errorf("expired rule is active: %+v", got)
	}
	// An expired rule can be re-dated, which mutes again.
	decodeAs[engine.MuteRule](t, e.muteCall(t, http.MethodPatch, path, e.tokA,
		fmt.Sprintf(`{"expires_at":%q}`, e.svcNow().Add(time.Hour).Format(time.RFC3339))), http.StatusOK)
	t.Run("re-dated", muted)
	if r := e.muteCall(t, http.MethodDelete, path, e.tokA, nil); r.status != http.StatusNoContent {
		t.Fatalf("delete: %d", r.status)
	}
	t.Run("deleted", unmuted)
}

// svcNow is the Service's clock.
func (e *env) svcNow() time.Time { return e.clock.Now().UTC() }
