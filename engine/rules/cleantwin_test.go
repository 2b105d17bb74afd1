package rules

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// fullyTagged are the tags aws-tag-001 asks for: the generic clean twins
// carry them, since tags are not attributes.
var fullyTagged = []string{"Owner", "team-a", "Environment", "production", "CostCenter", "cc-1"}

// existenceIsEvidence lists the checks that judge a resource by its type
// alone: the resource existing is the finding, whatever its attributes.
var existenceIsEvidence = map[string]string{
	"aws-elb-005": "a Classic Load Balancer is the previous generation of Elastic Load Balancing " +
		"(AWS: Elastic Load Balancing User Guide, 'Migrate your Classic Load Balancer')",
}

// passingStreams returns, for rule id, every passing input of its test
// cases (ruleCases, policyRuleCases, joinRuleCases, configRuleCases
// decoded by the importer, typeRuleCases).
func passingStreams(t *testing.T, id string) [][]engine.Resource {
	var out [][]engine.Resource
	if c, ok := ruleCases[id]; ok {
		out = append(out, []engine.Resource{c.pass})
	}
	if c, ok := policyRuleCases[id]; ok {
		out = append(out, []engine.Resource{c.pass})
	}
	if c, ok := joinRuleCases[id]; ok {
		out = append(out, c.pass)
	}
	if c, ok := configRuleCases[id]; ok {
		out = append(out, decodeItems(t, c.pass))
	}
	for _, c := range typeRuleCases[id] {
		out = append(out, c.pass)
	}
	return out
}

// withoutKey returns res with the top-level attribute key removed.
func withoutKey(t *testing.T, res engine.Resource, key string) engine.Resource {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(res.Attributes, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, key)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	res.Attributes = b
	return res
}

func attrKeys(res engine.Resource) []string {
	var m map[string]json.RawMessage
	if json.Unmarshal(res.Attributes, &m) != nil {
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestRules_AbsentIsNotFalse is the clean twin of every check: a resource
// of its type with no attributes at all, and each passing input of its
// cases with one attribute removed, must raise no finding of the check.
// Absent data is unknown: the check reports it not evaluated, or passes
// where absence is itself the evidence (no public IP, no ACL grant).
// Importers that know a fact write it explicitly (false, "", 0, null):
// only a key missing from the canonical attributes is unknown.
func TestRules_AbsentIsNotFalse(t *testing.T) {
	asked := map[string]map[string]bool{} // type → attributes checks asked recorded about
	recordedHook = func(typ, key string) {
		if asked[typ] == nil {
			asked[typ] = map[string]bool{}
		}
		asked[typ][key] = true
	}
	defer func() { recordedHook = nil }()
	var problems []string
	for _, r := range All() {
		if r.Account {
			continue
		}
		for _, typ := range r.ResourceTypes {
			res := mk(typ, `{}`, fullyTagged...)
			if _, ok := existenceIsEvidence[r.ID]; ok {
				continue
			}
			if vs := auditAll([]engine.Resource{res}, r.ID); len(vs) > 0 {
				problems = append(problems, fmt.Sprintf("%s on %s {}: %s", r.ID, typ, vs[0].EvidenceJSON()))
			}
		}
		for _, stream := range passingStreams(t, r.ID) {
			if len(auditAll(stream, r.ID)) > 0 {
				continue // reported by the pass/fail tests
			}
			for i, res := range stream {
				if !slices.Contains(r.ResourceTypes, res.Type) {
					continue
				}
				for _, key := range attrKeys(res) {
					s := slices.Clone(stream)
					s[i] = withoutKey(t, res, key)
					if vs := auditAll(s, r.ID); len(vs) > 0 {
						problems = append(problems, fmt.Sprintf("%s on %s without %q: %s", r.ID, res.Type, key, vs[0].EvidenceJSON()))
					}
				}
			}
		}
	}
	// Importers write every attribute a check asks recorded about: the
	// field of the canonical type must not be omitempty, or a known "" or
	// false would read as unknown.
	for typ, keys := range asked {
		written := map[string]bool{}
		if newAttrs, ok := attrTypes[typ]; ok {
			b, _ := json.Marshal(newAttrs())
			var m map[string]json.RawMessage
			_ = json.Unmarshal(b, &m)
			for k := range m {
				written[k] = true
			}
		}
		for k := range keys {
			if !written[k] {
				problems = append(problems, fmt.Sprintf("a check asks whether %s's %q is recorded, but the canonical type omits it when zero "+
					"(or has no such field): drop its omitempty so that importers write what they know", typ, k))
			}
		}
	}
	if len(asked) < 20 {
		t.Errorf("checks asked recorded about %d types only: the hook is broken", len(asked))
	}
	slices.Sort(problems)
	problems = slices.Compact(problems)
	for _, p := range problems {
		t.Error(p)
	}
}

// TestImporters_UnknownIsNotEvaluated runs inputs whose source leaves a
// fact out through the importers: each check that needs the fact is not
// evaluated, where the importers used to write false. Terraform states
// of the AWS provider before 2.x have no encryption attributes on
// aws_elasticache_cluster, and aws_iam_access_key never records the key's
// use; an AWS::Config::ConfigurationRecorder item without its
// ConfigurationRecorderStatus supplement (AWS Config resource schema)
// does not say whether the recorder records; an NDJSON account from a
// partial credential report may lack the root user's MFA columns.
func TestImporters_UnknownIsNotEvaluated(t *testing.T) {
	tfstate := func(typ, attrs string) string {
		return `{"version":4,"terraform_version":"0.12.31","resources":[{"mode":"data","type":"aws_caller_identity","name":"current",` +
			`"provider":"provider[\"registry.terraform.io/hashicorp/aws\"]","instances":[{"attributes":{"account_id":"111122223333","id":"111122223333"}}]},` +
			`{"mode":"managed","type":"` + typ + `","name":"x",` +
			`"provider":"provider[\"registry.terraform.io/hashicorp/aws\"]","instances":[{"schema_version":0,"attributes":` + attrs + `}]}]}`
	}
	tags := `"tags":{"Owner":"a","Environment":"production","CostCenter":"c"}`
	// The sample state's key of amelie.durand, created 2024-04-27.
	tfKeys, err := os.ReadFile("../../testdata/inventory/terraform.tfstate")
	if err != nil {
		t.Fatal(err)
	}
	recorder := configItemJSON("111122223333", "eu-west-1", map[string]string{}, "AWS::Config::ConfigurationRecorder", "default",
		"arn:aws:config:eu-west-1:111122223333:config-recorder/default",
		map[string]any{"name": "default", "roleARN": "arn:aws:iam::111122223333:role/config",
			"recordingGroup": map[string]any{"allSupported": true, "includeGlobalResourceTypes": true}}, nil, false)
	for name, c := range map[string]struct {
		input   string
		missing map[string][]string // rule → attributes
	}{
		"Terraform 0.12 ElastiCache": {tfstate("aws_elasticache_cluster", `{"id":"c","arn":"arn:aws:elasticache:eu-west-1:111122223333:cluster:c",`+
			`"cluster_id":"c","engine":"redis","engine_version":"5.0.6","node_type":"cache.r5.large","num_cache_nodes":1,"az_mode":"single-az",`+
			`"snapshot_retention_limit":5,`+tags+`}`),
			map[string][]string{"aws-elasticache-001": {"transit_encryption_enabled"}, "aws-elasticache-005": {"at_rest_encryption_enabled"}}},
		"AWS Config recorder without status": {`{"fileVersion":"1.0","configurationItems":[` + recorder + `]}`,
			map[string][]string{"aws-config-001": {"recording"}}},
		"NDJSON account without root MFA": {`{"provider":"aws","account":"111122223333","region":"global","type":"aws_iam_account",` +
			`"native_id":"arn:aws:iam::111122223333:root","name":"111122223333","attributes":{"account_id":"111122223333","password_policy":null}}`,
			map[string][]string{"aws-iam-004": {"root_access_keys_present"}, "aws-iam-005": {"root_mfa_enabled"}, "aws-iam-011": {"root_hardware_mfa"}}},
		"Terraform access key": {string(tfKeys), map[string][]string{"aws-iam-003": {"last_used_date"}}},
		// select-resource-config returns what the query selected: here the
		// configuration without the supplementary configuration.
		"advanced query bucket without supplements": {`[{"resourceId":"acme-orders","resourceName":"acme-orders","resourceType":"AWS::S3::Bucket",` +
			`"awsRegion":"eu-west-1","accountId":"111122223333","arn":"arn:aws:s3:::acme-orders",` + tags + `,` +
			`"configuration":{"name":"acme-orders","creationDate":"2024-04-27T08:00:00.000Z"}}]`,
			map[string][]string{"aws-s3-001": {"public_access_block"}, "aws-s3-004": {"sse_algorithm"}, "aws-s3-005": {"policy"},
				"aws-s3-006": {"lifecycle_rule_count"}, "aws-s3-007": {"versioning"}, "aws-s3-008": {"logging_target_bucket"}}},
		"bucket item without its versioning and logging supplements": {`{"fileVersion":"1.0","configurationItems":[` +
			bucketItem(with(goodBucketSupp(), "BucketVersioningConfiguration", nil, "BucketLoggingConfiguration", nil), false) + `]}`,
			map[string][]string{"aws-s3-007": {"versioning"}, "aws-s3-008": {"logging_target_bucket"}}},
	} {
		t.Run(name, func(t *testing.T) {
			var subject *engine.Resource
			res := loadReader(t, strings.NewReader(c.input))
			for i, r := range res {
				if len(res) == 1 || r.Type == inv.TypeIAMAccessKey && strings.HasSuffix(r.NativeID, "AKIACEC8CE6003EAF588") {
					subject = &res[i]
				}
			}
			if subject == nil {
				t.Fatal("no resource")
			}
			for id, missing := range c.missing {
				assertNotEvaluated(t, *subject, id, missing)
			}
		})
	}
}

// TestHasTopLevelKey checks the scan recorded relies on: a key counts
// at the top level only, whatever its value (null included), and not
// when it appears nested or inside a string.
func TestHasTopLevelKey(t *testing.T) {
	for _, c := range []struct {
		json string
		want bool
	}{
		{`{"encrypted":false}`, true},
		{` { "a" : [1,{"encrypted":true}], "encrypted" : null } `, true},
		{`{"a":{"encrypted":true}}`, false},
		{`{"a":"\"encrypted\":true","b":[{"encrypted":1}]}`, false},
		{`{"a":"x\\","encrypted":0}`, true},
		{`{"encrypt\u0065d":true}`, true},
		{`{}`, false},
		{`[{"encrypted":true}]`, false},
		{``, false},
	} {
		if got := hasTopLevelKey([]byte(c.json), "encrypted"); got != c.want {
			t.Errorf("%s: %v, want %v", c.json, got, c.want)
		}
	}
}
