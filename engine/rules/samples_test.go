package rules

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/inventory"
)

// sampleNow is the time the sample estate was captured.
var sampleNow = time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)

var sampleFiles = []string{"fourd.ndjson", "aws-config-snapshot.json", "terraform.tfstate", "terraform-show.json"}

// policySampleFiles are the samples of IAM principals and resource
// policies (testdata/inventory/aws-config-iam.json from
// scripts/gen-aws-config-iam.py, and secrets' policies, which AWS Config
// does not record, in fourd's NDJSON). They hold security and compliance
// findings only, so they count for "every rule fires" but not for "every
// dimension". The seeded estate of testdata/estates counts too: a rule
// added with an AWS Config case also gets a labelled misconfiguration there.
// fourd-snapshots.ndjson holds an EBS volume, a snapshot of it and one
// whose volume was deleted (aws-ebs-009; AWS Config records no snapshots).
var policySampleFiles = []string{"aws-config-iam.json", "fourd-secrets.ndjson", "fourd-snapshots.ndjson", "../estates/seeded.aws-config.json"}

func loadSample(t testing.TB, name string) []engine.Resource {
	t.Helper()
	f, err := os.Open(filepath.Join("../../testdata/inventory", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return loadReader(t, f)
}

// loadReader decodes an inventory in any format Open recognizes.
func loadReader(t testing.TB, f io.Reader) []engine.Resource {
	t.Helper()
	d, _, err := inventory.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []engine.Resource
	for {
		r, err := d.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
}

// TestSamples_EveryRuleFires runs the whole pack over every sample: each
// sample yields findings in all four dimensions, and every rule fires in
// at least one sample.
func TestSamples_EveryRuleFires(t *testing.T) {
	fired := map[string]int{}
	for _, name := range sampleFiles {
		t.Run(name, func(t *testing.T) {
			a := NewAuditor(sampleNow)
			dims := map[engine.Dimension]int{}
			for _, r := range loadSample(t, name) {
				for _, v := range a.Evaluate(r) {
					fired[v.Rule.ID]++
					dims[v.Rule.Dimension]++
				}
			}
			for _, v := range a.Finish() {
				fired[v.Rule.ID]++
				dims[v.Rule.Dimension]++
			}
			for _, d := range engine.Dimensions {
				if dims[d] == 0 {
					t.Errorf("no %s findings", d)
				}
			}
			t.Logf("findings per dimension: %v", dims)
		})
	}
	for _, name := range policySampleFiles {
		a := NewAuditor(sampleNow)
		for _, r := range loadSample(t, name) {
			for _, v := range a.Evaluate(r) {
				fired[v.Rule.ID]++
			}
		}
		for _, v := range a.Finish() {
			fired[v.Rule.ID]++
		}
	}
	for _, r := range All() {
		if fired[r.ID] == 0 {
			t.Errorf("rule %s (%s) fired in no sample", r.ID, r.Title)
		}
	}
}
