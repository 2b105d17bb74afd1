package rules

import (
	"testing"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// synthetic is a record of loadgen's shape: attributes, none canonical.
const synthetic = `{"index":1,"synthetic":true}`

// TestAccountRules_JudgeOnlyRecordedKinds holds the account-wide checks to
// issue 29 §2: a region without a trail, recorder or detector is a gap
// only when the account's source records that kind (a record of it holding
// its deciding keys); otherwise the check is not evaluated, counted, and
// raises nothing. The first four cases failed on the old code, which read
// "no record" as "none exists".
func TestAccountRules_JudgeOnlyRecordedKinds(t *testing.T) {
	const (
		trail, recorder, guard = "aws-account-001", "aws-account-002", "aws-account-003"
		support, global        = "aws-iam-021", "aws-config-002"
	)
	twoRegions := []engine.Resource{in("eu-west-1", mk(inv.TypeInstance, synthetic)), in("us-east-1", mk(inv.TypeS3Bucket, synthetic))}
	with := func(rs ...engine.Resource) []engine.Resource {
		return append(append([]engine.Resource{}, twoRegions...), rs...)
	}
	tests := []struct {
		name         string
		rs           []engine.Resource
		notEvaluated []string // account rules not evaluated
		fired        []string // account rules that fire
		passed       []string // account rules judged without a finding
	}{
		{"resources in two regions, no trail/recorder/detector record", twoRegions,
			[]string{trail, recorder, guard}, nil, nil},
		{"trail, recorder and detector records holding nothing", with(
			in("eu-west-1", mk(inv.TypeCloudTrail, synthetic)), in("us-east-1", mk(inv.TypeConfigRecorder, synthetic)),
			in("eu-west-1", mk(inv.TypeGuardDutyDetector, synthetic)), in("eu-west-1", mk(inv.TypeCloudTrail, `{}`))),
			[]string{trail, recorder, guard}, nil, nil},
		{"roles whose attached policies are unrecorded", with(mk(inv.TypeIAMRole, synthetic), mk(inv.TypeIAMRole, `{"role_name":"app"}`)),
			[]string{support}, nil, nil},
		{"a recorder of every type not saying whether it includes global types", with(
			in("eu-west-1", mk(inv.TypeConfigRecorder, `{"recording":true,"all_supported":true}`))),
			[]string{global}, nil, nil},
		// Clean twin: every kind recorded and covering both regions.
		{"logging multi-region trail, recorders and detectors everywhere", with(
			in("us-east-1", mk(inv.TypeCloudTrail, `{"name":"org","home_region":"us-east-1","is_multi_region_trail":true,"is_logging":true}`)),
			in("eu-west-1", mk(inv.TypeConfigRecorder, `{"recording":true,"all_supported":true,"include_global_resource_types":true}`)),
			in("us-east-1", mk(inv.TypeConfigRecorder, `{"recording":true,"all_supported":true,"include_global_resource_types":false}`)),
			in("eu-west-1", mk(inv.TypeGuardDutyDetector, `{"detector_id":"a","enabled":true}`)),
			in("us-east-1", mk(inv.TypeGuardDutyDetector, `{"detector_id":"b","enabled":true}`))),
			nil, nil, []string{trail, recorder, guard, global}},
		// Recall: the kind is recorded, and one region lacks it.
		{"single-region trail, recorder and detector in one of two regions", with(
			in("eu-west-1", mk(inv.TypeCloudTrail, `{"name":"local","home_region":"eu-west-1","is_multi_region_trail":false,"is_logging":true}`)),
			in("eu-west-1", mk(inv.TypeConfigRecorder, `{"recording":true}`)),
			in("eu-west-1", mk(inv.TypeGuardDutyDetector, `{"detector_id":"a","enabled":true}`))),
			nil, []string{trail, recorder, guard}, nil},
		{"a stopped trail and a disabled detector are recorded kinds", with(
			in("eu-west-1", mk(inv.TypeCloudTrail, `{"name":"off","home_region":"eu-west-1","is_multi_region_trail":true,"is_logging":false}`)),
			in("eu-west-1", mk(inv.TypeGuardDutyDetector, `{"detector_id":"a","enabled":false}`))),
			[]string{recorder}, []string{trail, guard}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := NewAuditor(testNow)
			for _, r := range tt.rs {
				a.Evaluate(r)
			}
			fired := map[string]bool{}
			for _, v := range a.Finish() {
				fired[v.Rule.ID] = true
			}
			for _, id := range tt.notEvaluated {
				if fired[id] || a.NotEvaluated()[id] != 1 || a.Evaluated()[id] != 0 {
					t.Errorf("%s: fired %v, not evaluated %d, evaluated %d; want not evaluated once", id, fired[id], a.NotEvaluated()[id], a.Evaluated()[id])
				}
			}
			for _, id := range tt.fired {
				if !fired[id] {
					t.Errorf("%s did not fire (not evaluated %d)", id, a.NotEvaluated()[id])
				}
			}
			for _, id := range tt.passed {
				if fired[id] || a.Evaluated()[id] != 1 {
					t.Errorf("%s: fired %v, evaluated %d; want passed", id, fired[id], a.Evaluated()[id])
				}
			}
		})
	}
}
