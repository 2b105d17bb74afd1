package rules

import (
	"os"
	"testing"
)

// identityKeys are evidence keys that name the resource rather than say
// what a check read of it.
var identityKeys = map[string]bool{"name": true, "bucket": true, "trail": true, "cluster": true, "cluster_id": true, "identifier": true,
	"distribution_id": true, "project": true, "identity_pool": true, "client": true, "table": true, "group_id": true,
	"launch_template_id": true, "service": true, "file_system_id": true, "user_name": true, "role_name": true, "group_name": true,
	"policy_name": true, "key_id": true, "function_name": true, "notebook": true, "endpoint_config": true, "state_machine": true,
	"delivery_stream": true, "queue": true, "topic": true, "log_group": true, "domain": true, "stream": true, "vault": true, "job": true,
	"workgroup": true, "secret": true, "snapshot": true, "snapshot_id": true, "volume_id": true, "instance_id": true,
	"allocation_id": true, "vpc_id": true, "account_id": true, "recorder": true, "stage_name": true, "zone_id": true,
	"network_acl_id": true, "vpc_endpoint_id": true, "nat_gateway_id": true, "detector_id": true, "alarm": true, "repository": true}

// TestExplain_EvidenceSaysWhatWasRead explains every resource of both
// estates and of the AWS Config sample: a check that passed names at least
// one attribute it read with its value, not only the resource.
func TestExplain_EvidenceSaysWhatWasRead(t *testing.T) {
	bad := map[string]string{}
	for _, file := range []string{"../../testdata/estates/clean.aws-config.json", "../../testdata/estates/seeded.aws-config.json",
		"../../testdata/inventory/aws-config-snapshot.json"} {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		res := loadReader(t, f)
		f.Close()
		for _, r := range res {
			for _, c := range Explain(r, res, sampleNow) {
				if c.Outcome != OutcomePassed {
					continue
				}
				read := false
				for k := range c.Evidence {
					read = read || !identityKeys[k]
				}
				if !read {
					bad[c.Rule.ID] = r.Type + " " + r.NativeID
				}
			}
		}
	}
	// And the passing side of every rule's cases.
	for _, r := range All() {
		if r.Account {
			continue
		}
		for _, stream := range passingStreams(t, r.ID) {
			for _, res := range stream {
				for _, c := range Explain(res, stream, testNow) {
					if c.Rule.ID != r.ID || c.Outcome != OutcomePassed {
						continue
					}
					read := false
					for k := range c.Evidence {
						read = read || !identityKeys[k]
					}
					if !read {
						bad[c.Rule.ID] = res.Type + " " + res.NativeID + " (its passing case)"
					}
				}
			}
		}
	}
	for id, where := range bad {
		t.Errorf("%s passed on %s with evidence naming only the resource: add the attributes it read", id, where)
	}
}
