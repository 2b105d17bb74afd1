package rules

import (
	"slices"
	"testing"
)

// TestRules_PassNeedsData runs every check that reads a resource alone on
// each of its types with no recorded attribute ({}, null, nothing; with
// the tags aws-tag-001 asks for) and asks that none pass: with nothing
// recorded a check that reads attributes is not evaluated (recordedNothing).
// On the old code 125 check/type pairs passed there, and the compliance
// posture counted those resources as passing. A record holding only keys
// its type does not know (loadgen's {"index":1,"synthetic":true})
// recorded nothing either: on the code before canonical.go 57
// check/type pairs passed on it (aws-ec2-008 on an instance's absent
// public_ip, aws-iam-017 on a user's absent inline policies, aws-iam-007
// on the root user's absent last use). A record that lacks only some
// keys: TestRules_PartialRecords.
func TestRules_PassNeedsData(t *testing.T) {
	var types []string
	for _, r := range All() {
		for _, typ := range r.ResourceTypes {
			if !slices.Contains(types, typ) {
				types = append(types, typ)
			}
		}
	}
	for _, attrs := range []string{`{}`, ` { } `, `null`, ``, `{"index":1,"synthetic":true}`, `{"tags_all":{"a":"b"},"x":null}`} {
		passes := 0
		for _, typ := range types {
			res := mk(typ, attrs, fullyTagged...)
			for _, c := range Explain(res, nil, testNow) {
				if c.Outcome == OutcomePassed && c.Scope == ScopeResource && !readsTagsOnly[c.Rule.ID] {
					passes++
					t.Errorf("%s on %s %q passes with nothing recorded", c.Rule.ID, typ, attrs)
				}
			}
			o := Assess(res, testNow)
			for _, v := range o.Violations {
				if v.Rule.ID != "aws-elb-005" { // existence is its evidence (existenceIsEvidence)
					t.Errorf("%s fires on %s %q with nothing recorded", v.Rule.ID, typ, attrs)
				}
			}
		}
		if passes > 0 {
			t.Logf("%q: %d passes", attrs, passes)
		}
	}
	if !blankAttributes([]byte(`{}`)) || blankAttributes([]byte(`{"a":1}`)) || blankAttributes([]byte(`nullx`)) || blankAttributes([]byte(`{}x`)) {
		t.Error("blankAttributes misreads")
	}
}
