package inventory

import (
	"strings"
	"testing"
)

// TestProtectedBooleans_UnknownIsNull decodes resources whose source may
// omit a protective fact (AWS Config items and Terraform states written
// before DynamoDB deletion protection and SSE-SQS existed; Terraform's
// aws_ebs_snapshot, which never holds the public permission): the canonical
// attribute is null, not false, and a source that records it keeps its
// value. AWS Config items follow awslabs/aws-config-resource-schema
// (AWS::DynamoDB::Table configuration.deletionProtectionEnabled,
// AWS::SQS::Queue configuration.SqsManagedSseEnabled); Terraform attributes
// follow the AWS provider's aws_dynamodb_table, aws_sqs_queue and
// aws_ebs_snapshot.
func TestProtectedBooleans_UnknownIsNull(t *testing.T) {
	cfgItem := func(typ, id, arn, conf string) []byte {
		return []byte(`{"fileVersion":"1.0","configurationItems":[{"configurationItemVersion":"1.3","configurationItemCaptureTime":"2025-06-01T07:00:00.000Z",
		"configurationItemStatus":"OK","resourceType":"` + typ + `","resourceId":"` + id + `","resourceName":"` + id + `","awsAccountId":"111122223333",
		"awsRegion":"eu-west-1","ARN":"` + arn + `","tags":{},"relationships":[],"configuration":` + conf + `,"supplementaryConfiguration":{}}]}`)
	}
	tfState := func(typ, attrs string) []byte {
		return []byte(`{"version":4,"resources":[{"mode":"managed","type":"` + typ + `","name":"x","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]",
		"instances":[{"schema_version":0,"attributes":` + attrs + `}]}]}`)
	}
	const table = "arn:aws:dynamodb:eu-west-1:111122223333:table/orders"
	const queue = "arn:aws:sqs:eu-west-1:111122223333:jobs"
	for _, c := range []struct {
		name  string
		input []byte
		want  string
	}{
		{"AWS Config table before deletion protection", cfgItem("AWS::DynamoDB::Table", "orders", table,
			`{"tableName":"orders","tableArn":"`+table+`","tableStatus":"ACTIVE","itemCount":3,"provisionedThroughput":{"readCapacityUnits":5,"writeCapacityUnits":5}}`),
			`"deletion_protection_enabled":null`},
		{"AWS Config table with deletion protection off", cfgItem("AWS::DynamoDB::Table", "orders", table,
			`{"tableName":"orders","tableArn":"`+table+`","tableStatus":"ACTIVE","deletionProtectionEnabled":false}`),
			`"deletion_protection_enabled":false`},
		{"AWS Config queue before SSE-SQS", cfgItem("AWS::SQS::Queue", "https://sqs.eu-west-1.amazonaws.com/111122223333/jobs", queue,
			`{"QueueUrl":"https://sqs.eu-west-1.amazonaws.com/111122223333/jobs","QueueArn":"`+queue+`","MessageRetentionPeriod":"345600"}`),
			`"sqs_managed_sse_enabled":null`},
		{"AWS Config queue with SSE-SQS", cfgItem("AWS::SQS::Queue", "https://sqs.eu-west-1.amazonaws.com/111122223333/jobs", queue,
			`{"QueueUrl":"https://sqs.eu-west-1.amazonaws.com/111122223333/jobs","QueueArn":"`+queue+`","SqsManagedSseEnabled":"true"}`),
			`"sqs_managed_sse_enabled":true`},
		{"Terraform table from an older provider", tfState("aws_dynamodb_table",
			`{"id":"orders","arn":"`+table+`","name":"orders","billing_mode":"PAY_PER_REQUEST"}`), `"deletion_protection_enabled":null`},
		{"Terraform table with deletion protection", tfState("aws_dynamodb_table",
			`{"id":"orders","arn":"`+table+`","name":"orders","billing_mode":"PAY_PER_REQUEST","deletion_protection_enabled":true}`),
			`"deletion_protection_enabled":true`},
		{"Terraform queue from an older provider", tfState("aws_sqs_queue",
			`{"id":"https://sqs.eu-west-1.amazonaws.com/111122223333/jobs","arn":"`+queue+`","name":"jobs","url":"https://sqs.eu-west-1.amazonaws.com/111122223333/jobs"}`),
			`"sqs_managed_sse_enabled":null`},
		{"Terraform snapshot", tfState("aws_ebs_snapshot",
			`{"id":"snap-0123456789abcdef0","arn":"arn:aws:ec2:eu-west-1::snapshot/snap-0123456789abcdef0","volume_id":"vol-1","volume_size":8,"encrypted":true,"owner_id":"111122223333"}`),
			`"public":null`},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, _ := decodeAll(t, c.input)
			if len(res) != 1 {
				t.Fatalf("%d resources", len(res))
			}
			if !strings.Contains(string(res[0].Attributes), c.want) {
				t.Errorf("%s: %s, want %s", res[0].Type, res[0].Attributes, c.want)
			}
		})
	}
}
