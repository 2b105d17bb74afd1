package rules

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// TestExplain_AgreesWithAudit explains every resource of both estates and
// of the AWS Config sample: the checks Explain reports failed are exactly
// the findings the audit raised on the resource (rule and severity), every
// check that passed says what it read, and every check not evaluated names
// what it lacked.
func TestExplain_AgreesWithAudit(t *testing.T) {
	for _, file := range []string{"../../testdata/estates/clean.aws-config.json", "../../testdata/estates/seeded.aws-config.json",
		"../../testdata/inventory/aws-config-snapshot.json", "../../testdata/inventory/aws-config-iam.json"} {
		t.Run(file[strings.LastIndex(file, "/")+1:], func(t *testing.T) {
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			res := loadReader(t, f)
			for i := range res {
				res[i].ID = fmt.Sprint("r", i)
			}
			audited := map[string][]string{} // native id → "rule severity"
			a := NewAuditor(sampleNow)
			for _, r := range res {
				for _, v := range a.Evaluate(r) {
					audited[r.NativeID] = append(audited[r.NativeID], v.Rule.ID+" "+string(v.Severity))
				}
			}
			for _, v := range a.Finish() {
				audited[v.Resource.NativeID] = append(audited[v.Resource.NativeID], v.Rule.ID+" "+string(v.Severity))
			}
			checks := 0
			for _, r := range res {
				var failed []string
				for _, c := range Explain(r, res, sampleNow) {
					checks++
					switch c.Outcome {
					case OutcomeFailed:
						failed = append(failed, c.Rule.ID+" "+string(c.Severity))
					case OutcomePassed:
						if len(c.Evidence) == 0 {
							t.Errorf("%s passed on %s %s without saying what it read: return failIf(s, cond, evidence), or "+
								"passed(s, func() map[string]any{...}) instead of pass", c.Rule.ID, r.Type, r.NativeID)
						}
					case OutcomeNotEvaluated:
						if len(c.Missing) == 0 {
							t.Errorf("%s not evaluated on %s %s without naming what it lacked", c.Rule.ID, r.Type, r.NativeID)
						}
					default:
						t.Errorf("%s on %s: outcome %q", c.Rule.ID, r.NativeID, c.Outcome)
					}
				}
				want := audited[r.NativeID]
				slices.Sort(want)
				slices.Sort(failed)
				if !slices.Equal(failed, want) {
					t.Errorf("%s %s: Explain failed %v, the audit found %v", r.Type, r.NativeID, failed, want)
				}
			}
			if checks < len(res) {
				t.Errorf("%d checks over %d resources", checks, len(res))
			}
		})
	}
}

// TestExplain_Bucket explains one bucket of the clean estate protected only
// by its account's public access block: every S3 check of the pack is
// there, the public-access checks pass on the joined block and say so.
func TestExplain_Bucket(t *testing.T) {
	f, err := os.Open("../../testdata/estates/clean.aws-config.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res := loadReader(t, f)
	var bucket engine.Resource
	for _, r := range res {
		if r.NativeID == "arn:aws:s3:::acme-prod-data" {
			bucket = r
		}
	}
	checks := Explain(bucket, res, sampleNow)
	var ids []string
	for _, c := range checks {
		ids = append(ids, c.Rule.ID)
	}
	for _, r := range ByType(inv.TypeS3Bucket) {
		if !slices.Contains(ids, r.ID) {
			t.Errorf("%s applies to buckets but is not explained: %v", r.ID, ids)
		}
	}
	for _, c := range checks {
		if c.Rule.ID != "aws-s3-001" {
			continue
		}
		if c.Outcome != OutcomePassed || c.Scope != ScopeJoin {
			t.Fatalf("aws-s3-001: %+v", c)
		}
		if c.Evidence["public_access_block"] != (*inv.PublicAccessBlock)(nil) || c.Evidence["account_public_access_block"] == nil {
			t.Errorf("aws-s3-001 evidence does not show the bucket's (none) and the account's block: %v", c.Evidence)
		}
	}
	// Without the account's resources the bucket has no block in force.
	for _, c := range Explain(bucket, nil, sampleNow) {
		if c.Rule.ID == "aws-s3-001" && c.Outcome != OutcomeFailed {
			t.Errorf("aws-s3-001 without the account's block: %s", c.Outcome)
		}
	}
}

// TestExplain_Account explains an account's aws_iam_account resource: the
// account-wide rules are there with scope account, judged on the facts of
// the account's other resources.
func TestExplain_Account(t *testing.T) {
	root := mk(inv.TypeIAMAccount, `{"account_id":"123456789012","root_mfa_enabled":true,"root_hardware_mfa":true}`)
	root.NativeID, root.Account, root.Region = "arn:aws:iam::123456789012:root", "123456789012", "global"
	trail := mk(inv.TypeCloudTrail, `{"name":"t","is_multi_region_trail":true,"is_logging":true,"home_region":"eu-west-1"}`)
	trail.Account, trail.Region, trail.NativeID = "123456789012", "eu-west-1", "arn:aws:cloudtrail:eu-west-1:123456789012:trail/t"
	outcome := func(account []engine.Resource, id string) Check {
		for _, c := range Explain(root, account, sampleNow) {
			if c.Rule.ID == id {
				return c
			}
		}
		t.Fatalf("%s not explained", id)
		return Check{}
	}
	c := outcome([]engine.Resource{trail}, "aws-account-001")
	if c.Scope != ScopeAccount || c.Outcome != OutcomePassed || c.Evidence["multi_region_trail"] != true {
		t.Errorf("with a logging multi-region trail: %+v", c)
	}
	other := mk(inv.TypeVPC, `{"vpc_id":"vpc-1"}`)
	other.Account, other.Region = "123456789012", "us-east-1"
	local := mk(inv.TypeCloudTrail, `{"name":"local","is_multi_region_trail":false,"is_logging":true,"home_region":"eu-west-1"}`)
	local.Account, local.Region, local.NativeID = "123456789012", "eu-west-1", "arn:aws:cloudtrail:eu-west-1:123456789012:trail/local"
	if c := outcome([]engine.Resource{other, local}, "aws-account-001"); c.Outcome != OutcomeFailed {
		t.Errorf("with a single-region trail elsewhere: %+v", c)
	}
	// Without any trail record the source may simply not record trails.
	if c := outcome([]engine.Resource{other}, "aws-account-001"); c.Outcome != OutcomeNotEvaluated || len(c.Missing) == 0 {
		t.Errorf("without a trail: %+v", c)
	}
}

func TestExplainNeeds(t *testing.T) {
	if types, all := ExplainNeeds(inv.TypeS3Bucket); all || !slices.Contains(types, inv.TypeS3AccountPublicAccessBlock) {
		t.Errorf("bucket: %v %v", types, all)
	}
	if _, all := ExplainNeeds(inv.TypeIAMAccount); !all {
		t.Error("an account needs every resource of the account")
	}
	if types, all := ExplainNeeds(inv.TypeEBSVolume); all || len(types) != 0 {
		t.Errorf("volume: %v %v", types, all)
	}
}
