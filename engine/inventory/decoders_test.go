package inventory

import (
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/go-cmp/cmp"
)

const ciVPC = `{"resourceType":"AWS::EC2::VPC","resourceId":"vpc-1","awsAccountId":"111122223333","awsRegion":"eu-west-1","ARN":"arn:aws:ec2:eu-west-1:111122223333:vpc/vpc-1","configuration":{"vpcId":"vpc-1","cidrBlock":"10.0.0.0/16"}}`
const ciFlow = `{"resourceType":"AWS::EC2::FlowLog","resourceId":"fl-1","awsAccountId":"111122223333","awsRegion":"eu-west-1","configuration":{"flowLogId":"fl-1","resourceId":"vpc-1"}}`

func TestAWSConfigDecoder(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []outcome
	}{
		{"snapshot", `{"fileVersion":"1.0","configurationItems":[` + ciVPC + `]}`, []outcome{{NativeID: "arn:aws:ec2:eu-west-1:111122223333:vpc/vpc-1"}}},
		{"item stream, one a line", ciFlow + "\n" + ciVPC + "\n",
			[]outcome{{NativeID: "arn:aws:ec2:eu-west-1:111122223333:vpc-flow-log/fl-1"}, {NativeID: "arn:aws:ec2:eu-west-1:111122223333:vpc/vpc-1"}}},
		{"notification", `{"configurationItem":` + ciVPC + `,"messageType":"ConfigurationItemChangeNotification"}`, []outcome{{NativeID: "arn:aws:ec2:eu-west-1:111122223333:vpc/vpc-1"}}},
		{"deleted items are skipped", `[{"resourceType":"AWS::EC2::Instance","resourceId":"i-1","configurationItemStatus":"ResourceDeleted"}]`, nil},
		{"unknown type kept", `[{"resourceType":"AWS::ApiGateway::RestApi","resourceId":"abc","awsAccountId":"111122223333","awsRegion":"eu-west-1","configuration":{"name":"x"}}]`,
			[]outcome{{NativeID: "arn:aws:apigateway:eu-west-1:111122223333:rest_api/abc"}}},
		{"bad item skipped", `[{"resourceType":"AWS::EC2::VPC","resourceId":"vpc-2","awsAccountId":"12"},{"resourceType":5},` + ciVPC + `]`,
			[]outcome{{Code: engine.CodeValidationFailed}, {Code: engine.CodeValidationFailed}, {NativeID: "arn:aws:ec2:eu-west-1:111122223333:vpc/vpc-1"}}},
		{"truncated", `{"configurationItems":[` + ciVPC[:40], []outcome{{Code: "fatal:" + engine.CodeInvalidRequest}}},
		{"items not an array", `{"configurationItems":{}}`, []outcome{{Code: "fatal:" + engine.CodeInvalidRequest}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, drain(NewAWSConfigDecoder(strings.NewReader(tt.input)))); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestAWSConfigDecoder_FlowLogJoin(t *testing.T) {
	d := NewAWSConfigDecoder(strings.NewReader(ciFlow + ciVPC))
	for {
		r, err := d.Next()
		if err != nil {
			t.Fatalf("no VPC decoded: %v", err)
		}
		if r.Type == TypeVPC {
			if !strings.Contains(string(r.Attributes), `"flow_logs_enabled":true`) {
				t.Errorf("VPC attributes %s: flow log not joined", r.Attributes)
			}
			return
		}
	}
}

const tfBucket = `{"mode":"managed","type":"aws_s3_bucket","name":"b","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]","instances":[{"attributes":{"id":"b","bucket":"b","arn":"arn:aws:s3:::b","region":"eu-west-1"}}]}`
const tfPAB = `{"mode":"managed","type":"aws_s3_bucket_public_access_block","name":"b","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]","instances":[{"attributes":{"bucket":"b","block_public_acls":true}}]}`
const tfVPCJSON = `{"mode":"managed","type":"aws_vpc","name":"v","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]","instances":[{"attributes":{"id":"vpc-1","arn":"arn:aws:ec2:eu-west-1:111122223333:vpc/vpc-1","cidr_block":"10.0.0.0/16"}}]}`

func TestTerraformDecoder(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []outcome
	}{
		{"state, bucket held for its companions, account from a later ARN", `{"version":4,"resources":[` + tfBucket + `,` + tfPAB + `,` + tfVPCJSON + `]}`,
			[]outcome{{NativeID: "arn:aws:s3:::b"}, {NativeID: "arn:aws:ec2:eu-west-1:111122223333:vpc/vpc-1"}}}, // both held, flushed in arrival order
		{"show with child modules", `{"format_version":"1.0","values":{"root_module":{"child_modules":[{"address":"module.n","resources":[{"address":"module.n.aws_vpc.v","mode":"managed","type":"aws_vpc","values":{"id":"vpc-1","arn":"arn:aws:ec2:eu-west-1:111122223333:vpc/vpc-1"}}]}]}}}`,
			[]outcome{{NativeID: "arn:aws:ec2:eu-west-1:111122223333:vpc/vpc-1"}}},
		{"data sources skipped", `{"version":4,"resources":[{"mode":"data","type":"aws_caller_identity","name":"c","instances":[{"attributes":{"id":"1"}}]}]}`, nil},
		{"resource without id", `{"version":4,"resources":[{"mode":"managed","type":"aws_vpc","name":"v","instances":[{"attributes":{"cidr_block":"x"}}]},` + tfVPCJSON + `]}`,
			[]outcome{{Code: engine.CodeValidationFailed}, {NativeID: "arn:aws:ec2:eu-west-1:111122223333:vpc/vpc-1"}}},
		{"old state version", `{"version":3,"resources":[]}`, []outcome{{Code: "fatal:" + engine.CodeInvalidRequest}}},
		{"malformed", `{"version":4,"resources":[{"mode":`, []outcome{{Code: "fatal:" + engine.CodeInvalidRequest}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, drain(NewTerraformDecoder(strings.NewReader(tt.input)))); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
