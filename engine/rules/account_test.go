package rules

import (
	"testing"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
	"github.com/google/go-cmp/cmp"
)

func in(region string, r engine.Resource) engine.Resource {
	r.Region = region
	return r
}

// accountCases holds, for every account rule, an estate that passes and
// one that fails.
var accountCases = map[string]struct{ pass, fail []engine.Resource }{
	"aws-account-001": {
		pass: []engine.Resource{in("eu-west-1", mk(inv.TypeInstance, `{}`)), in("us-east-1", mk(inv.TypeInstance, `{}`)),
			in("us-east-1", mk(inv.TypeCloudTrail, `{"name":"org","home_region":"us-east-1","is_multi_region_trail":true,"is_logging":true}`))},
		fail: []engine.Resource{in("eu-west-1", mk(inv.TypeInstance, `{}`)), in("us-east-1", mk(inv.TypeInstance, `{}`)),
			in("us-east-1", mk(inv.TypeCloudTrail, `{"name":"local","home_region":"us-east-1","is_multi_region_trail":false,"is_logging":true}`)),
			in("eu-west-1", mk(inv.TypeCloudTrail, `{"name":"off","home_region":"eu-west-1","is_multi_region_trail":true,"is_logging":false}`))},
	},
	"aws-account-002": {
		pass: []engine.Resource{in("eu-west-1", mk(inv.TypeInstance, `{}`)), in("eu-west-1", mk(inv.TypeConfigRecorder, `{"recording":true}`))},
		fail: []engine.Resource{in("eu-west-1", mk(inv.TypeInstance, `{}`)), in("eu-west-1", mk(inv.TypeConfigRecorder, `{"recording":false}`))},
	},
	"aws-account-003": {
		pass: []engine.Resource{in("eu-west-1", mk(inv.TypeInstance, `{}`)), in("eu-west-1", mk(inv.TypeGuardDutyDetector, `{"enabled":true}`))},
		fail: []engine.Resource{in("eu-west-1", mk(inv.TypeInstance, `{}`)), in("eu-central-1", mk(inv.TypeGuardDutyDetector, `{"enabled":true}`))},
	},
}

func finish(rs []engine.Resource) map[string]AccountViolation {
	a := NewAuditor(testNow)
	for _, r := range rs {
		a.Evaluate(r)
	}
	out := map[string]AccountViolation{}
	for _, v := range a.Finish() {
		out[v.Rule.ID] = v
	}
	return out
}

func TestAccountRules_PassAndFail(t *testing.T) {
	for _, r := range All() {
		if !r.Account {
			continue
		}
		t.Run(r.ID, func(t *testing.T) {
			c, ok := accountCases[r.ID]
			if !ok {
				t.Fatalf("account rule %s has no test case", r.ID)
			}
			if v, fired := finish(c.pass)[r.ID]; fired {
				t.Errorf("passing estate fired %s: %v", r.ID, v.Evidence)
			}
			if _, fired := finish(c.fail)[r.ID]; !fired {
				t.Errorf("failing estate did not fire %s", r.ID)
			}
		})
	}
}

func TestAuditor_AccountResource(t *testing.T) {
	root := in(inv.RegionGlobal, mk(inv.TypeIAMAccount, `{"account_id":"111122223333","root_mfa_enabled":true}`))
	root.NativeID, root.Name = "arn:aws:iam::111122223333:root", "prod"
	// A recorder that is off: the source records recorders, so a region
	// without a recording one is a gap (issue 29 §2).
	recorderOff := in("eu-west-1", mk(inv.TypeConfigRecorder, `{"recording":false}`))
	tests := []struct {
		name string
		rs   []engine.Resource
		want string // native id the violation attaches to
	}{
		{"attaches to the account's aws_iam_account", []engine.Resource{in("eu-west-1", mk(inv.TypeInstance, `{}`)), root, recorderOff}, "arn:aws:iam::111122223333:root"},
		{"synthesizes one when absent", []engine.Resource{in("eu-west-1", mk(inv.TypeInstance, `{}`)), recorderOff}, "arn:aws:iam::111122223333:root"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, ok := finish(tt.rs)["aws-account-002"]
			if !ok {
				t.Fatal("aws-account-002 did not fire")
			}
			if diff := cmp.Diff(tt.want, v.Resource.NativeID); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if diff := cmp.Diff([]string{"eu-west-1"}, v.Evidence["regions_without_recorder"]); diff != "" {
				t.Errorf("evidence (-want +got)\n%s", diff)
			}
			if vs := Evaluate(v.Resource, testNow); len(tt.rs) == 2 && len(vs) != 0 {
				t.Errorf("the synthesized account resource raised %d violations", len(vs))
			}
		})
	}
}
