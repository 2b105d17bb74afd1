package rules

import (
	"encoding/json"
	"os"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAWSConfigSnapshot_PublicAccessBlock imports only the project's AWS
// Config sample, as a new user would, and checks that aws-s3-001 fires on
// exactly the buckets whose supplementaryConfiguration lacks a public
// access block with all four switches on — read here straight from the
// raw JSON, independently of the decoder. Before the decoder read AWS's
// camelCase keys, it fired on all 20 buckets.
func TestAWSConfigSnapshot_PublicAccessBlock(t *testing.T) {
	raw, err := os.ReadFile("../../testdata/inventory/aws-config-snapshot.json")
	if err != nil {
		t.Fatal(err)
	}
	var snap struct {
		Items []struct {
			ResourceType string `json:"resourceType"`
			ARN          string `json:"ARN"`
			Supp         struct {
				PAB map[string]bool `json:"PublicAccessBlockConfiguration"`
			} `json:"supplementaryConfiguration"`
		} `json:"configurationItems"`
	}
	if err := json.Unmarshal(raw, &snap); err != nil {
		t.Fatal(err)
	}
	var want, protected []string
	for _, it := range snap.Items {
		if it.ResourceType != "AWS::S3::Bucket" {
			continue
		}
		p := it.Supp.PAB
		if p["blockPublicAcls"] && p["ignorePublicAcls"] && p["blockPublicPolicy"] && p["restrictPublicBuckets"] {
			protected = append(protected, it.ARN)
			continue
		}
		want = append(want, it.ARN)
	}
	if len(protected) == 0 || len(want) == 0 {
		t.Fatalf("the sample should hold both protected (%d) and unprotected (%d) buckets", len(protected), len(want))
	}
	var got []string
	for _, r := range loadSample(t, "aws-config-snapshot.json") {
		for _, v := range Evaluate(r, sampleNow) {
			if v.Rule.ID == "aws-s3-001" {
				got = append(got, r.NativeID)
			}
		}
	}
	sort.Strings(want)
	sort.Strings(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("aws-s3-001 fired on (-want +got)\n%s", diff)
	}
}
