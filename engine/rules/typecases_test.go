package rules

import (
	"testing"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// typeRuleCases holds, for rules that judge several resource types, a
// passing and a failing resource of each type the other cases leave out:
// TestRules_PartialRecords derives a rule's Reads per type from its
// cases, so a type without one has no Reads, and a pass on a record of it
// that lacks what the check read stood (aws-iam-017 passed IAM users whose
// inline policies were never recorded).
var typeRuleCases = map[string][]struct{ pass, fail engine.Resource }{
	"aws-iam-017": {
		{mk(inv.TypeIAMUser, `{"user_name":"u","user_id":"AIDA1","inline_policies":[{"name":"i","document":`+readDoc+`}]}`),
			mk(inv.TypeIAMUser, `{"user_name":"u","user_id":"AIDA1","inline_policies":[{"name":"i","document":`+passRunDoc+`}]}`)},
		{mk(inv.TypeIAMRole, `{"role_name":"r","role_id":"AROA1","inline_policies":[{"name":"i","document":`+readDoc+`}]}`),
			mk(inv.TypeIAMRole, `{"role_name":"r","role_id":"AROA1","inline_policies":[{"name":"i","document":`+passRunDoc+`}]}`)},
		{mk(inv.TypeIAMGroup, `{"group_name":"g","group_id":"AGPA1","inline_policies":[{"name":"i","document":`+readDoc+`}]}`),
			mk(inv.TypeIAMGroup, `{"group_name":"g","group_id":"AGPA1","inline_policies":[{"name":"i","document":`+passRunDoc+`}]}`)},
	},
}

// TestRules_TypeCasesPassAndFail runs typeRuleCases: the passing resource
// raises nothing of its rule, the failing one raises it.
func TestRules_TypeCasesPassAndFail(t *testing.T) {
	for id, cases := range typeRuleCases {
		if _, ok := ByID(id); !ok {
			t.Errorf("type cases for unknown rule %s", id)
		}
		for _, c := range cases {
			if v, fired := firedIDs(Evaluate(c.pass, testNow))[id]; fired {
				t.Errorf("%s: passing %s fired: %v", id, c.pass.Type, v.Evidence)
			}
			if _, fired := firedIDs(Evaluate(c.fail, testNow))[id]; !fired {
				t.Errorf("%s: failing %s did not fire", id, c.fail.Type)
			}
		}
	}
}
