package rules

import (
	"encoding/json"
	"maps"
	"os"
	"slices"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// estateFinding is one finding an estate's audit raised.
type estateFinding struct {
	rule, native string
	dim          engine.Dimension
	sev          engine.Severity
}

// auditEstate imports an estate file as a user would (format sniffed) and
// runs the whole pack over it as an audit does: every resource through an
// Auditor, then Finish for account rules and joined checks.
func auditEstate(t *testing.T, file string) ([]estateFinding, map[string]int64, int) {
	t.Helper()
	f, err := os.Open("../../testdata/estates/" + file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res := loadReader(t, f)
	a := NewAuditor(sampleNow)
	var out []estateFinding
	for _, r := range res {
		for _, v := range a.Evaluate(r) {
			out = append(out, estateFinding{v.Rule.ID, r.NativeID, v.Rule.Dimension, v.Severity})
		}
	}
	for _, v := range a.Finish() {
		out = append(out, estateFinding{v.Rule.ID, v.Resource.NativeID, v.Rule.Dimension, v.Severity})
	}
	return out, a.NotEvaluated(), len(res)
}

// TestEstateClean audits testdata/estates/clean.aws-config.json, a whole
// well-configured estate in AWS Config's snapshot shape (every resource
// hardened, tagged, and one bucket protected only by its account's public
// access block): the audit must raise nothing at all. What AWS Config does
// not record (a trail's logging status) is counted as not evaluated.
func TestEstateClean(t *testing.T) {
	got, notEval, n := auditEstate(t, "clean.aws-config.json")
	if n < 25 {
		t.Fatalf("%d resources: the estate should cover the pack's types", n)
	}
	for _, f := range got {
		t.Errorf("finding on the clean estate: %s (%s, %s) on %s", f.rule, f.dim, f.sev, f.native)
	}
	if notEval["aws-cloudtrail-001"] != 1 {
		t.Errorf("not evaluated: %v; want the trail's logging (not recorded by AWS Config) counted", notEval)
	}
	// What the estate leaves unjudged is only what AWS Config does not
	// record (a trail's status and data events, GuardDuty's features,
	// resource policies outside the configuration item, CloudFront origin
	// settings, the console password's use); the partial-record rule
	// (judged) takes nothing more away from it.
	want := map[string]int64{"aws-account-001": 1, "aws-cloudfront-005": 1, "aws-cloudfront-006": 1, "aws-cloudfront-007": 1,
		"aws-cloudtrail-001": 1, "aws-cloudtrail-005": 1, "aws-guardduty-001": 1, "aws-guardduty-002": 1, "aws-iam-001": 1,
		"aws-kms-003": 1, "aws-lambda-005": 2, "aws-secretsmanager-001": 1}
	if !maps.Equal(notEval, want) {
		t.Errorf("not evaluated on the clean estate: %v, want %v", notEval, want)
	}
}

// TestEstateSeeded audits testdata/estates/seeded.aws-config.json — the
// clean estate in the history encoding (batch-get-resource-config) with the
// misconfigurations listed in seeded.labels.json — and checks that each is
// found with its dimension and at least its severity, and that nothing
// else is.
func TestEstateSeeded(t *testing.T) {
	raw, err := os.ReadFile("../../testdata/estates/seeded.labels.json")
	if err != nil {
		t.Fatal(err)
	}
	var labels []struct {
		Rule      string           `json:"rule"`
		NativeID  string           `json:"native_id"`
		Dimension engine.Dimension `json:"dimension"`
		MinSev    engine.Severity  `json:"min_severity"`
		Why       string           `json:"why"`
	}
	if err := json.Unmarshal(raw, &labels); err != nil {
		t.Fatal(err)
	}
	got, _, _ := auditEstate(t, "seeded.aws-config.json")
	found := map[[2]string]estateFinding{}
	for _, f := range got {
		found[[2]string{f.rule, f.native}] = f
	}
	for _, l := range labels {
		k := [2]string{l.Rule, l.NativeID}
		f, ok := found[k]
		if !ok {
			t.Errorf("seeded %s on %s (%s) not found", l.Rule, l.NativeID, l.Why)
			continue
		}
		delete(found, k)
		if f.dim != l.Dimension {
			t.Errorf("%s on %s: dimension %s, want %s", l.Rule, l.NativeID, f.dim, l.Dimension)
		}
		if slices.Index(engine.Severities, f.sev) < slices.Index(engine.Severities, l.MinSev) {
			t.Errorf("%s on %s: severity %s, want at least %s", l.Rule, l.NativeID, f.sev, l.MinSev)
		}
	}
	for _, f := range found {
		t.Errorf("unlabelled finding: %s (%s, %s) on %s", f.rule, f.dim, f.sev, f.native)
	}
}

// TestAuditorCountsWhatRan: over each estate every resource rule either
// judged (Evaluated) or could not judge (NotEvaluated) each resource of
// its types whose attributes parse, and every account rule each account:
// the counts the compliance posture passes controls on.
func TestAuditorCountsWhatRan(t *testing.T) {
	for _, file := range []string{"clean.aws-config.json", "seeded.aws-config.json"} {
		f, err := os.Open("../../testdata/estates/" + file)
		if err != nil {
			t.Fatal(err)
		}
		res := loadReader(t, f)
		f.Close()
		a := NewAuditor(sampleNow)
		types, accounts := map[string]int64{}, map[string]bool{}
		for _, r := range res {
			a.Evaluate(r)
			types[r.Type]++
			accounts[r.Account] = true
		}
		a.Finish()
		judged, notEval := a.Evaluated(), a.NotEvaluated()
		if len(judged) < 100 {
			t.Errorf("%s: %d rules judged something; the estate covers the pack", file, len(judged))
		}
		for _, r := range All() {
			want := int64(len(accounts))
			if !r.Account {
				want = 0
				for _, typ := range r.ResourceTypes {
					want += types[typ]
				}
			}
			if got := judged[r.ID] + notEval[r.ID]; got != want {
				t.Errorf("%s: %s judged %d and left %d not evaluated; want %d in all", file, r.ID, judged[r.ID], notEval[r.ID], want)
			}
		}
	}
}
