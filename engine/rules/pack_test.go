package rules

import (
	"regexp"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	catalog "github.com/fourd-dev/fourd/engine/compliance"
	inv "github.com/fourd-dev/fourd/engine/inventory"
	"github.com/google/go-cmp/cmp"
)

func TestAll_StableAndComplete(t *testing.T) {
	idPattern := regexp.MustCompile(`^aws-[a-z0-9]+-[0-9]{3}$`)
	all := All()
	if len(all) < 60 {
		t.Fatalf("the pack has %d rules; want at least 60", len(all))
	}
	seen := map[string]bool{}
	perDim := map[engine.Dimension]int{}
	for _, r := range all {
		t.Run(r.ID, func(t *testing.T) {
			switch {
			case !idPattern.MatchString(r.ID):
				t.Errorf("id %q does not look like aws-<service>-NNN", r.ID)
			case seen[r.ID]:
				t.Errorf("duplicate id")
			case r.Title == "" || r.Description == "" || r.Remediation == "":
				t.Errorf("title, description and remediation are required")
			case !r.Dimension.Valid() || !r.Severity.Valid():
				t.Errorf("dimension %q / severity %q", r.Dimension, r.Severity)
			case len(r.ResourceTypes) == 0:
				t.Errorf("no resource types")
			case r.Account == (r.Check != nil) || r.Account == (r.accountCheck == nil):
				t.Errorf("an account rule has accountCheck only, a resource rule Check only")
			}
			refs := map[string]bool{}
			for _, ref := range r.Compliance {
				if _, _, err := catalog.Resolve(ref); err != nil {
					t.Errorf("%v (engine/compliance/catalog.json lists every control)", err)
				}
				if refs[ref] {
					t.Errorf("compliance reference %s listed twice", ref)
				}
				refs[ref] = true
			}
			for _, typ := range r.ResourceTypes {
				if _, ok := attrTypes[typ]; !ok {
					t.Errorf("resource type %q has no attribute struct", typ)
				}
			}
		})
		seen[r.ID] = true
		perDim[r.Dimension]++
	}
	for _, d := range []engine.Dimension{engine.DimensionCost, engine.DimensionArchitecture, engine.DimensionCompliance, engine.DimensionSecurity} {
		if perDim[d] < 10 {
			t.Errorf("dimension %s has %d rules; want at least 10", d, perDim[d])
		}
	}
}

func TestByType_OnlyMatchingRules(t *testing.T) {
	for _, r := range ByType(inv.TypeS3Bucket) {
		if !strings.HasPrefix(r.ID, "aws-s3-") && r.ID != "aws-tag-001" {
			t.Errorf("ByType(aws_s3_bucket) holds %s", r.ID)
		}
	}
	if got := ByType("aws_unknown_thing"); len(got) != 0 {
		t.Errorf("ByType(unknown) = %d rules", len(got))
	}
}

func TestEvaluate_Escalation(t *testing.T) {
	tests := []struct {
		name       string
		res        engine.Resource
		rule       string
		want       engine.Severity
		wantReason bool
	}{
		{"public bucket", mk(inv.TypeS3Bucket, `{"bucket":"b","acl":"public-read","public_access_block":null}`), "aws-s3-002", engine.SeverityHigh, false},
		{"public confidential bucket", mk(inv.TypeS3Bucket, `{"bucket":"b","acl":"public-read","public_access_block":null}`, "data-classification", "Confidential"), "aws-s3-002", engine.SeverityCritical, true},
		{"single-AZ database", mk(inv.TypeDBInstance, `{"identifier":"db","multi_az":false}`), "aws-rds-005", engine.SeverityMedium, false},
		{"single-AZ production database", mk(inv.TypeDBInstance, `{"identifier":"db","multi_az":false}`, "Environment", "production"), "aws-rds-005", engine.SeverityHigh, true},
		{"key 100 days old", mk(inv.TypeIAMAccessKey, `{"status":"Active","create_date":"2025-02-20T00:00:00Z"}`), "aws-iam-002", engine.SeverityMedium, false},
		{"key 2 years old", mk(inv.TypeIAMAccessKey, `{"status":"Active","create_date":"2023-05-01T00:00:00Z"}`), "aws-iam-002", engine.SeverityHigh, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, ok := firedIDs(Evaluate(tt.res, testNow))[tt.rule]
			if !ok {
				t.Fatalf("%s did not fire", tt.rule)
			}
			type got struct {
				Severity  engine.Severity
				HasReason bool
			}
			_, inEvidence := v.Evidence["severity_reason"]
			if diff := cmp.Diff(got{tt.want, tt.wantReason}, got{v.Severity, v.SeverityReason != "" && inEvidence}); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestEvaluate_BadInput(t *testing.T) {
	tests := []struct {
		name string
		res  engine.Resource
	}{
		{"attributes of the wrong shape", mk(inv.TypeS3Bucket, `{"bucket":42}`)},
		{"attributes not JSON", mk(inv.TypeSecurityGroup, `{"ingress":`)},
		{"unknown type", mk("aws_apigateway_rest_api", `{"name":"x"}`)},
		{"synthesized account", mk(inv.TypeIAMAccount, `{"account_id":"111122223333","synthesized":true}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Evaluate(tt.res, testNow); len(got) != 0 {
				t.Errorf("Evaluate = %d violations, want none (first %s)", len(got), got[0].Rule.ID)
			}
		})
	}
}
