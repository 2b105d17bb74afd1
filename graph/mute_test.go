package graph_test

import (
	"testing"
	"time"
)

// TestMuteRulesGraphQL: the mute rules API through GraphQL (create, read,
// list, history, update, delete, dry run), its effect on findings (status
// MUTED, muteRuleId, totalCount), its bad input, and tenant isolation: B
// sees, changes and lists nothing of A's rules or muted findings.
func TestMuteRulesGraphQL(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 40, findingsB: 20})
	exp := time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)
	var want []string
	for _, f := range e.a.Findings {
		if f.Status == "open" && f.Severity == "high" {
			want = append(want, f.ID)
		}
	}
	type rule struct {
		ID, Reason string
		Version    int
		Active     bool
		Applied    *struct{ Matched int }
	}
	openTotal := func(tok string) int {
		return data[struct {
			Findings struct{ TotalCount int }
		}](t, e.gql(t, tok, `{ findings(filter: {status: OPEN}) { totalCount } }`, nil)).Findings.TotalCount
	}
	before := openTotal(e.tokA)
	dry := data[struct {
		DryRunMuteRule struct{ Matched, Scanned int }
	}](t, e.gql(t, e.tokA,
		`mutation { dryRunMuteRule(expression: "finding.severity == 'high'", limit: 2) { matched scanned } }`, nil))
	if dry.DryRunMuteRule.Matched != len(want) || dry.DryRunMuteRule.Scanned != before {
		t.Errorf("dry run = %+v, want %d of %d", dry.DryRunMuteRule, len(want), before)
	}
	c := data[struct{ CreateMuteRule rule }](t, e.gql(t, e.tokA,
		`mutation($in: MuteRuleInput!) { createMuteRule(input: $in) { id reason version active applied { matched } } }`,
		map[string]any{"in": map[string]any{"expression": "finding.severity == 'high'", "reason": "known", "expiresAt": exp}})).CreateMuteRule
	if !c.Active || c.Version != 1 || c.Applied == nil || c.Applied.Matched != len(want) {
		t.Fatalf("created = %+v", c)
	}
	if got := openTotal(e.tokA); got != before-len(want) {
		t.Errorf("open totalCount = %d, want %d", got, before-len(want))
	}
	m := data[struct {
		Findings struct {
			TotalCount int
			Nodes      []struct{ ID, Status, MuteRuleID string }
		}
	}](t, e.gql(t, e.tokA, `{ findings(first: 200, filter: {status: MUTED}) { totalCount nodes { id status muteRuleId } } }`, nil)).Findings
	if m.TotalCount != len(want) || len(m.Nodes) != len(want) {
		t.Errorf("muted: totalCount %d, %d nodes, want %d", m.TotalCount, len(m.Nodes), len(want))
	}
	for _, n := range m.Nodes {
		if n.Status != "MUTED" || n.MuteRuleID != c.ID {
			t.Errorf("muted node %+v", n)
		}
	}
	list := data[struct {
		MuteRules struct{ Nodes []rule }
	}](t, e.gql(t, e.tokA, `{ muteRules { nodes { id } } }`, nil))
	if len(list.MuteRules.Nodes) != 1 || list.MuteRules.Nodes[0].ID != c.ID {
		t.Errorf("muteRules = %+v", list)
	}

	// Tenant B: nothing of A, and A unchanged.
	for _, q := range []string{
		`query($id: ID!) { muteRule(id: $id) { id } }`,
		`query($id: ID!) { muteRuleHistory(id: $id) { id } }`,
		`mutation($id: ID!) { updateMuteRule(id: $id, input: {enabled: false}) { id } }`,
		`mutation($id: ID!) { deleteMuteRule(id: $id) { deleted } }`,
	} {
		if r := e.gql(t, e.tokB, q, map[string]any{"id": c.ID}); r.code() != "not_found" {
			t.Errorf("%s as B: %q %+v", q, r.code(), r.Errors)
		}
	}
	lb := data[struct {
		MuteRules struct{ Nodes []rule }
	}](t, e.gql(t, e.tokB, `{ muteRules { nodes { id } } }`, nil))
	mb := data[struct {
		Findings struct{ TotalCount int }
	}](t, e.gql(t, e.tokB, `{ findings(filter: {status: MUTED}) { totalCount } }`, nil))
	if len(lb.MuteRules.Nodes) != 0 || mb.Findings.TotalCount != 0 {
		t.Errorf("B sees rules %+v, %d muted", lb, mb.Findings.TotalCount)
	}
	if got := openTotal(e.tokA); got != before-len(want) {
		t.Errorf("after B's attempts A's open totalCount = %d", got)
	}

	for _, tc := range []struct{ name, query, want string }{
		{"bad CEL", `mutation { createMuteRule(input: {expression: "finding.", reason: "r", expiresAt: "` + exp + `"}) { id } }`, "validation_failed"},
		{"expired", `mutation { createMuteRule(input: {expression: "true", reason: "r", expiresAt: "2001-01-01T00:00:00Z"}) { id } }`, "validation_failed"},
		{"no reason", `mutation { createMuteRule(input: {expression: "true", expiresAt: "` + exp + `"}) { id } }`, "validation_failed"},
		{"needs findings:write", `mutation { deleteMuteRule(id: "` + c.ID + `") { deleted } }`, "insufficient_scope"},
		{"dry run limit", `mutation { dryRunMuteRule(expression: "true", limit: 0) { matched } }`, "invalid_limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tok := e.tokA
			if tc.want == "insufficient_scope" {
				tok = e.tokAResources
			}
			if r := e.gql(t, tok, tc.query, nil); r.code() != tc.want {
				t.Errorf("code %q, want %q: %+v", r.code(), tc.want, r.Errors)
			}
		})
	}

	u := data[struct{ UpdateMuteRule rule }](t, e.gql(t, e.tokA,
		`mutation($id: ID!) { updateMuteRule(id: $id, input: {enabled: false}) { version active } }`, map[string]any{"id": c.ID}))
	if u.UpdateMuteRule.Version != 2 || u.UpdateMuteRule.Active || openTotal(e.tokA) != before {
		t.Errorf("disabled: %+v, open %d", u, openTotal(e.tokA))
	}
	d := data[struct{ DeleteMuteRule struct{ Deleted bool } }](t, e.gql(t, e.tokA,
		`mutation($id: ID!) { deleteMuteRule(id: $id) { deleted } }`, map[string]any{"id": c.ID}))
	h := data[struct {
		MuteRuleHistory []struct {
			Action string
			Before *rule
			After  *rule
		}
	}](t, e.gql(t, e.tokA, `query($id: ID!) { muteRuleHistory(id: $id) { action before { version } after { version } } }`,
		map[string]any{"id": c.ID}))
	if !d.DeleteMuteRule.Deleted || len(h.MuteRuleHistory) != 3 || h.MuteRuleHistory[2].Action != "deleted" ||
		h.MuteRuleHistory[1].After == nil || h.MuteRuleHistory[1].After.Version != 2 {
		t.Errorf("delete %+v, history %+v", d, h)
	}
}
