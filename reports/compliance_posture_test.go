package reports

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
)

// TestReportsReadCompliancePosture: the compliance evidence report and the
// executive summary say what the compliance posture API says of the same
// audit — every control's status, failing resources and not-evaluated
// count, each framework's counts and score — because all of them judge
// with the one compliance judge.
func TestReportsReadCompliancePosture(t *testing.T) {
	a := newAssembled(t, nil)
	ctx := context.Background()
	docs := map[engine.ReportKind]engine.ReportDocument{}
	for _, kind := range []engine.ReportKind{engine.ReportExecutiveSummary, engine.ReportComplianceEvidence} {
		var d engine.ReportDocument
		if err := json.Unmarshal(a.download(t, a.generate(t, kind).ID, "json"), &d); err != nil {
			t.Fatal(err)
		}
		docs[kind] = d
	}
	reader := engine.Principal{TenantID: a.tenant.ID, Scopes: []engine.Scope{engine.ScopeFindingsRead}}
	list, err := a.posture.ComplianceFrameworks(ctx, reader, engine.ComplianceQuery{})
	if err != nil {
		t.Fatal(err)
	}
	api := map[string]engine.CompliancePosture{}
	for _, f := range list {
		api[f.ID] = f
	}
	failed := 0
	for _, rf := range docs[engine.ReportComplianceEvidence].ComplianceEvidence.Frameworks {
		f := api[rf.ID]
		failed += f.Counts.Failed
		if f.AuditID != docs[engine.ReportComplianceEvidence].Header.AuditID {
			t.Errorf("%s: API judged audit %s; the report %s", rf.ID, f.AuditID, docs[engine.ReportComplianceEvidence].Header.AuditID)
		}
		reportCounts := engine.ControlCounts{Passed: rf.Passed, Failed: rf.Failed, InsufficientData: rf.InsufficientData,
			NotApplicable: rf.NotApplicable, Manual: rf.Manual, NotAssessed: rf.NotAssessed}
		if diff := cmp.Diff(f.Counts, reportCounts); diff != "" || !cmp.Equal(f.ScorePercent, rf.ScorePercent) {
			t.Errorf("%s: API vs evidence report counts (-api +report):\n%s\nscores %v vs %v", rf.ID, diff, f.ScorePercent, rf.ScorePercent)
		}
		var controls []engine.ControlPosture
		q := engine.ComplianceControlQuery{Page: engine.PageRequest{Limit: engine.MaxLimit}}
		for {
			got, err := a.posture.ComplianceFramework(ctx, reader, rf.ID, q)
			if err != nil {
				t.Fatal(err)
			}
			controls = append(controls, got.Controls.Items...)
			if !got.Controls.HasMore {
				break
			}
			q.Page.Cursor = got.Controls.NextCursor
		}
		if len(controls) != len(rf.Controls) {
			t.Fatalf("%s: API lists %d controls, the report %d", rf.ID, len(controls), len(rf.Controls))
		}
		for i, c := range controls {
			r := rf.Controls[i]
			type row struct {
				ID                         string
				Status                     engine.ControlStatus
				Failing, NotEvaluated, Chk int64
			}
			if diff := cmp.Diff(row{c.ID, c.Status, c.FailingResources, c.ResourcesNotEvaluated, c.ResourcesChecked},
				row{r.ID, r.Status, r.ResourcesFailing, r.ResourcesNotEvaluated, r.ResourcesChecked}); diff != "" {
				t.Errorf("%s control %d (-api +report):\n%s", rf.ID, i, diff)
			}
		}
	}
	if failed == 0 {
		t.Error("no control fails in the seeded audit: the comparison proves little")
	}
	for _, p := range docs[engine.ReportExecutiveSummary].ExecutiveSummary.Compliance {
		f := api[p.Framework]
		var score float64
		if f.ScorePercent != nil {
			score = *f.ScorePercent
		}
		if p.Checked != f.Counts.Passed+f.Counts.Failed || p.Failing != f.Counts.Failed || p.PassingPercent != score || p.Controls != f.Controls {
			t.Errorf("%s: executive summary %+v; the API %+v", p.Framework, p, f)
		}
	}
}
