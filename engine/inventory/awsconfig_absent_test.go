package inventory

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAWSConfig_AbsentKeyRule decodes the same items as a snapshot delivers
// them (objects) and as select-resource-config returns them (JSON strings,
// which may carry only the selected properties): a key the item lacks is
// left out of the canonical attributes, so checks read it as unknown;
// an optional key AWS leaves out of a whole item when the setting is off
// (an SQS queue's RedrivePolicy) is "not configured" in a snapshot and
// unknown in an Advanced Query result. Item shapes: awslabs/
// aws-config-resource-schema (AWS::RDS::DBInstance, AWS::SQS::Queue).
func TestAWSConfig_AbsentKeyRule(t *testing.T) {
	rds := `{"resourceType":"AWS::RDS::DBInstance","resourceId":"db-ABCDEFGHIJKL","resourceName":"orders","awsRegion":"eu-west-1",
 "awsAccountId":"111122223333","configurationItemStatus":"OK",
 "configuration":{"dBInstanceIdentifier":"orders","engine":"postgres","publiclyAccessible":false}}`
	sqs := `{"resourceType":"AWS::SQS::Queue","resourceId":"https://sqs.eu-west-1.amazonaws.com/111122223333/jobs","resourceName":"jobs",
 "awsRegion":"eu-west-1","awsAccountId":"111122223333","configurationItemStatus":"OK",
 "configuration":{"QueueUrl":"https://sqs.eu-west-1.amazonaws.com/111122223333/jobs","SqsManagedSseEnabled":"false","MessageRetentionPeriod":"345600"}}`
	attrs := func(input string) map[string]json.RawMessage {
		t.Helper()
		d := NewAWSConfigDecoder(strings.NewReader(input))
		r, err := d.Next()
		if err != nil {
			t.Fatalf("%s: %v", input, err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(r.Attributes, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	quoted := func(item string) string {
		b, _ := json.Marshal(item)
		return `{"Results":[` + string(b) + `]}`
	}
	for _, in := range []string{`{"configurationItems":[` + rds + `]}`, quoted(rds)} {
		m := attrs(in)
		for _, k := range []string{"storage_encrypted", "multi_az", "deletion_protection", "backup_retention_period"} {
			if v, ok := m[k]; ok {
				t.Errorf("RDS item without the key: %s = %s, want it left out (unknown)", k, v)
			}
		}
		if string(m["publicly_accessible"]) != "false" || string(m["identifier"]) != `"orders"` {
			t.Errorf("recorded keys lost: %v", m)
		}
	}
	if m := attrs(`{"configurationItems":[` + sqs + `]}`); string(m["dead_letter_target_arn"]) != `""` ||
		string(m["sqs_managed_sse_enabled"]) != "false" {
		t.Errorf("whole item: no RedrivePolicy means no dead-letter queue, SSE off is known: %v", m)
	}
	m := attrs(quoted(sqs))
	for _, k := range []string{"dead_letter_target_arn", "sqs_managed_sse_enabled"} {
		if v, ok := m[k]; ok && string(v) != "null" {
			t.Errorf("Advanced Query item: %s = %s, want unknown", k, v)
		}
	}
}

// TestHasPathIn_OptionalSteps pins the "?" steps of recordedOnly's nested
// sources (issue 29): a step AWS leaves out of a whole item when the
// setting is off counts as carried there and as missing in a partial item;
// a step without "?" is missing in both; through an array every element
// must carry the rest.
func TestHasPathIn_OptionalSteps(t *testing.T) {
	conf := []byte(`{"LogPublishingOptions":{"ES_APPLICATION_LOGS":{"Enabled":true}},"Lifecycle":{},
 "ContainerDefinitions":[{"Name":"a","LogConfiguration":{"LogDriver":"awslogs"}},{"Name":"b"}]}`)
	for _, c := range []struct {
		path           string
		whole, partial bool
	}{
		{"LogPublishingOptions.?AUDIT_LOGS", true, false},
		{"LogPublishingOptions.AUDIT_LOGS", false, false},
		{"?LogPublishingOptions.?ES_APPLICATION_LOGS", true, true},
		{"?logpublishingoptions.?es_application_logs.Enabled", true, true},
		{"?Lifecycle.?DeleteAfterDays", true, false},
		{"?Missing.?Key", true, false},
		{"Missing.?Key", false, false},
		{"ContainerDefinitions.?LogConfiguration", true, false},
		{"ContainerDefinitions.Name", true, true},
	} {
		if got := hasPathIn(conf, c.path, true); got != c.whole {
			t.Errorf("%s in a whole item: %v, want %v", c.path, got, c.whole)
		}
		if got := hasPathIn(conf, c.path, false); got != c.partial {
			t.Errorf("%s in a partial item: %v, want %v", c.path, got, c.partial)
		}
	}
}
