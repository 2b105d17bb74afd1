package rules

import (
	"slices"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// typeRuleCases holds, for rules that judge several resource types, a
// passing and a failing stream for each type the other cases leave out;
// the stream's last resource is the one judged (the others are what it
// joins). TestRules_PartialRecords derives a rule's Reads per type from
// its cases, so a type without one had no Reads, and a pass on a record of
// it that lacks what the check read stood (aws-iam-017 passed IAM users
// whose inline policies were never recorded). TestRules_ReadsCoverTypes
// keeps every type covered.
var typeRuleCases = map[string][]struct{ pass, fail []engine.Resource }{
	"aws-iam-017": {
		principalCase(inv.TypeIAMUser, `"user_name":"u","user_id":"AIDA1"`, readDoc, passRunDoc),
		principalCase(inv.TypeIAMRole, `"role_name":"r","role_id":"AROA1"`, readDoc, passRunDoc),
		principalCase(inv.TypeIAMGroup, `"group_name":"g","group_id":"AGPA1"`, readDoc, passRunDoc),
	},
	"aws-iam-019": {attachedCase(inv.TypeIAMUser, `"user_name":"u","user_id":"AIDA1"`),
		attachedCase(inv.TypeIAMGroup, `"group_name":"g","group_id":"AGPA1"`)},
	"aws-iam-023": {
		principalCase(inv.TypeIAMUser, `"user_name":"u","user_id":"AIDA1"`, readDoc, decryptAllDoc),
		principalCase(inv.TypeIAMGroup, `"group_name":"g","group_id":"AGPA1"`, readDoc, decryptAllDoc),
	},
	"aws-iam-024": {
		principalCase(inv.TypeIAMUser, `"user_name":"u","user_id":"AIDA1"`, readDoc, trailOffDoc),
		principalCase(inv.TypeIAMGroup, `"group_name":"g","group_id":"AGPA1"`, readDoc, trailOffDoc),
	},
}

const (
	decryptAllDoc = `{"Statement":[{"Effect":"Allow","Action":"kms:Decrypt","Resource":"*"}]}`
	trailOffDoc   = `{"Statement":[{"Effect":"Allow","Action":"cloudtrail:StopLogging","Resource":"*"}]}`
)

// principalCase is a principal of type typ (ids the JSON members naming
// it) with one inline policy: passDoc on the passing side, failDoc on the
// failing one.
func principalCase(typ, ids, passDoc, failDoc string) struct{ pass, fail []engine.Resource } {
	inline := func(doc string) []engine.Resource {
		return []engine.Resource{mk(typ, `{`+ids+`,"inline_policies":[{"name":"i","document":`+doc+`}]}`)}
	}
	return struct{ pass, fail []engine.Resource }{inline(passDoc), inline(failDoc)}
}

// attachedCase is a principal of type typ with a customer managed policy
// attached, the policy's record first: read-only on the passing side,
// full administrator on the failing one.
func attachedCase(typ, ids string) struct{ pass, fail []engine.Resource } {
	stream := func(name, doc string) []engine.Resource {
		arn := "arn:aws:iam::111122223333:policy/" + name
		return []engine.Resource{mkARN(inv.TypeIAMPolicy, arn, `{"policy_name":"`+name+`","document":`+doc+`}`),
			mk(typ, `{`+ids+`,"attached_policy_arns":["`+arn+`"]}`)}
	}
	return struct{ pass, fail []engine.Resource }{stream("read", readDoc), stream("all", adminDoc)}
}

// TestRules_TypeCasesPassAndFail runs typeRuleCases through an Auditor:
// the passing stream's last resource raises nothing of its rule, the
// failing one's raises it.
func TestRules_TypeCasesPassAndFail(t *testing.T) {
	for id, cases := range typeRuleCases {
		if _, ok := ByID(id); !ok {
			t.Errorf("type cases for unknown rule %s", id)
		}
		for _, c := range cases {
			judged := c.pass[len(c.pass)-1]
			if slices.Contains(policyFindingsOf(c.pass)[judged.Name], id) {
				t.Errorf("%s: passing %s fired", id, judged.Type)
			}
			judged = c.fail[len(c.fail)-1]
			if !slices.Contains(policyFindingsOf(c.fail)[judged.Name], id) {
				t.Errorf("%s: failing %s did not fire", id, judged.Type)
			}
		}
	}
}

// TestRules_ReadsCoverTypes: every rule that reads attributes has Reads
// for each resource type it judges, so that a pass on a record of any of
// them lacking what the check read is not evaluated. On the code before
// typeRuleCases aws-iam-017 had none for users, roles and groups, and
// aws-iam-019, -023 and -024 none for users and groups.
func TestRules_ReadsCoverTypes(t *testing.T) {
	for _, r := range All() {
		if r.Account || readsTagsOnly[r.ID] || len(r.Reads) == 0 {
			continue // no Reads at all: TestRules_PartialRecords found no attribute deciding a pass
		}
		for _, typ := range r.ResourceTypes {
			if _, ok := r.Reads[typ]; !ok {
				t.Errorf("%s reads %v but nothing of %s: add a case of it (typeRuleCases)", r.ID, r.Reads, typ)
			}
		}
	}
}
