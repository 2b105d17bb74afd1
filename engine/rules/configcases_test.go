package rules

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// configCase is a rule's passing and failing input as AWS Config delivers
// it: each side is one configuration item, or a JSON array of items when
// the rule reads related resources (a NAT gateway and its route tables),
// in the snapshot encoding (objects) or the history encoding (JSON
// strings). Both sides go through engine/inventory's decoder, so a case
// proves the importer and the rule agree on the attribute. The passing
// side must raise no finding of the rule, the failing side at least one.
type configCase struct{ pass, fail string }

// configRuleCases holds the cases registered with addConfigCases, by rule id.
var configRuleCases = map[string]configCase{}

// addConfigCases registers a family's cases; call it from an init func in
// the family's test file. A rule registered twice panics.
func addConfigCases(m map[string]configCase) {
	for id, c := range m {
		if _, dup := configRuleCases[id]; dup {
			panic("config case registered twice: " + id)
		}
		configRuleCases[id] = c
	}
}

// decodeItems decodes one configuration item or an array of them as a
// configuration snapshot file.
func decodeItems(t testing.TB, items string) []engine.Resource {
	t.Helper()
	items = strings.TrimSpace(items)
	if !strings.HasPrefix(items, "[") {
		items = "[" + items + "]"
	}
	return loadReader(t, strings.NewReader(`{"fileVersion":"1.0","configurationItems":`+items+`}`))
}

// auditAll runs the pack over resources with the account facts joined, and
// returns the violations of rule id.
func auditAll(resources []engine.Resource, id string) []Violation {
	a := NewAuditor(testNow)
	var out []Violation
	for _, r := range resources {
		for _, v := range a.Evaluate(r) {
			if v.Rule.ID == id {
				out = append(out, v)
			}
		}
	}
	for _, v := range a.Finish() {
		if v.Rule.ID == id {
			out = append(out, v.Violation)
		}
	}
	return out
}

// TestConfigRules_PassAndFail runs every registered AWS Config case.
func TestConfigRules_PassAndFail(t *testing.T) {
	for id, c := range configRuleCases {
		t.Run(id, func(t *testing.T) {
			if _, ok := ByID(id); !ok {
				t.Fatalf("case for unknown rule %s", id)
			}
			pass := decodeItems(t, c.pass)
			if vs := auditAll(pass, id); len(vs) > 0 {
				t.Errorf("passing input fired %s: %s", id, vs[0].EvidenceJSON())
			}
			fail := decodeItems(t, c.fail)
			vs := auditAll(fail, id)
			if len(vs) == 0 {
				t.Fatalf("failing input did not fire %s", id)
			}
			if !vs[0].Severity.Valid() || len(vs[0].EvidenceJSON()) < 2 {
				t.Errorf("violation: severity %q, evidence %s", vs[0].Severity, vs[0].EvidenceJSON())
			}
		})
	}
}

// The pattern for a family's file: its cases in AWS Config's shape, one
// init registering them. Shape: awslabs/aws-config-resource-schema,
// AWS::KMS::Key (configuration) and AWS Config's KeyRotationStatus
// supplementary configuration.
func init() {
	key := func(rotation string) string {
		return `{"configurationItemVersion":"1.3","configurationItemCaptureTime":"2025-06-01T07:00:00.000Z","configurationItemStatus":"OK",
 "awsAccountId":"111122223333","resourceType":"AWS::KMS::Key","resourceId":"0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0",
 "ARN":"arn:aws:kms:eu-west-1:111122223333:key/0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0","awsRegion":"eu-west-1",
 "tags":{"owner":"platform","environment":"production","cost-center":"cc-1"},
 "configuration":{"keyId":"0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0","keyManager":"CUSTOMER","keySpec":"SYMMETRIC_DEFAULT",
  "keyUsage":"ENCRYPT_DECRYPT","keyState":"Enabled","enabled":true,"origin":"AWS_KMS"},
 "supplementaryConfiguration":{"KeyRotationStatus":` + rotation + `}}`
	}
	addConfigCases(map[string]configCase{"aws-kms-001": {pass: key("true"), fail: key("false")}})
}

// configItemJSON renders one configuration item of account and region:
// in the snapshot encoding (configuration and supplementary values as
// objects, configurationItemVersion/awsAccountId/ARN) or, with history,
// as get-resource-config-history returns it (values as JSON strings,
// version/accountId/arn).
func configItemJSON(account, region string, tags map[string]string, rtype, id, arn string, conf, supp map[string]any, history bool) string {
	it := map[string]any{"configurationItemCaptureTime": "2025-06-01T07:00:00.000Z", "configurationItemStatus": "OK",
		"resourceType": rtype, "resourceId": id, "resourceName": id, "awsRegion": region, "tags": tags}
	if supp == nil {
		supp = map[string]any{}
	}
	if !history {
		it["configurationItemVersion"], it["awsAccountId"], it["ARN"] = "1.3", account, arn
		it["configuration"], it["supplementaryConfiguration"] = conf, supp
	} else {
		it["version"], it["accountId"], it["arn"] = "1.3", account, arn
		c, _ := json.Marshal(conf)
		it["configuration"] = string(c)
		ss := map[string]string{}
		for k, v := range supp {
			b, _ := json.Marshal(v)
			ss[k] = string(b)
		}
		it["supplementaryConfiguration"] = ss
	}
	b, err := json.Marshal(it)
	if err != nil {
		panic(err)
	}
	return string(b)
}
