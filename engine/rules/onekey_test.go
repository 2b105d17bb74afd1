package rules

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"
)

// passesOnAnotherKey are the check/type/key triples where a record
// holding that key alone rightly passes a check that does not list it in
// its Reads: the key's value is evidence of a pass by another path.
var passesOnAnotherKey = map[string]string{
	"aws-ec2-009 aws_eip instance_id":             "an address attached to an instance is associated",
	"aws-ec2-009 aws_eip network_interface_id":    "an address attached to a network interface is associated",
	"aws-sqs-002 aws_sqs_queue kms_master_key_id": "a queue with a KMS key is encrypted",
}

// oneKeyGaps are the checks still passing on a one-key record although
// what they read is missing. A gap fixed or a new one fails the test.
// (aws-dynamodb-004 was one: provisioned, with capacity, and empty needs
// three keys, and a table recording neither capacity passed; it now asks
// recorded of both.)
var oneKeyGaps = map[string]bool{}

// TestRules_OneKeyRecords reduces one record of each type of the clean
// estate to each of its keys alone, and asks that a check passing on it
// read that key (the pass rests on it), or be listed. A check that fails
// only on several attributes at once (aws-ec2-016, aws-elb-011, aws-acm-003,
// aws-ecs-016, aws-codebuild-005) passed on such records before the
// witnesses of the missing attributes were also put in together
// (witnessedTogether); with zero values probed as well
// (TestRules_PartialRecords' flipped cases) 19 more passes went.
func TestRules_OneKeyRecords(t *testing.T) {
	seen, gaps := map[string]bool{}, map[string]bool{}
	for _, r := range loadSample(t, "../estates/clean.aws-config.json") {
		if seen[r.Type] {
			continue
		}
		seen[r.Type] = true
		m := attrMap(t, r)
		for _, k := range slices.Sorted(maps.Keys(m)) {
			b, err := json.Marshal(map[string]json.RawMessage{k: m[k]})
			if err != nil {
				t.Fatal(err)
			}
			one := r
			one.Attributes = b
			for _, c := range Explain(one, nil, testNow) {
				if c.Outcome != OutcomePassed || c.Scope != ScopeResource || readsTagsOnly[c.Rule.ID] ||
					slices.Contains(c.Rule.Reads[r.Type], k) || passesOnAnotherKey[c.Rule.ID+" "+r.Type+" "+k] != "" {
					continue
				}
				if oneKeyGaps[c.Rule.ID] {
					gaps[c.Rule.ID] = true
					continue
				}
				t.Errorf("%s passes on %s holding only %s (its Reads: %v)", c.Rule.ID, r.Type, k, c.Rule.Reads[r.Type])
			}
		}
	}
	for id := range oneKeyGaps {
		if !gaps[id] {
			t.Errorf("%s no longer passes on a one-key record: remove it from oneKeyGaps", id)
		}
	}
}
