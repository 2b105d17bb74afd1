package inventory

import (
	"strings"
	"testing"
)

// Configuration items in AWS Config's snapshot shape; property names from
// awslabs/aws-config-resource-schema,
// config/properties/resource-types/AWS::EC2::VPC.properties.json and
// AWS::EC2::FlowLog.properties.json (configuration.flowLogId, resourceId,
// flowLogStatus, trafficType, logDestinationType, logDestination).
func cfgVPCItem(account, vpc string) string {
	return `{"configurationItemVersion":"1.3","configurationItemCaptureTime":"2025-06-01T07:00:00.000Z","configurationItemStatus":"OK",
	"resourceType":"AWS::EC2::VPC","resourceId":"` + vpc + `","awsAccountId":"` + account + `","awsRegion":"eu-west-1",
	"ARN":"arn:aws:ec2:eu-west-1:` + account + `:vpc/` + vpc + `","tags":{},"relationships":[],
	"configuration":{"cidrBlock":"10.0.0.0/16","dhcpOptionsId":"dopt-1","state":"available","vpcId":"` + vpc + `","ownerId":"` + account + `",
	"instanceTenancy":"default","isDefault":false},"supplementaryConfiguration":{}}`
}

func cfgFlowLogItem(account, id, vpc, status string) string {
	return `{"configurationItemVersion":"1.3","configurationItemCaptureTime":"2025-06-01T07:00:00.000Z","configurationItemStatus":"OK",
	"resourceType":"AWS::EC2::FlowLog","resourceId":"` + id + `","awsAccountId":"` + account + `","awsRegion":"eu-west-1",
	"ARN":"arn:aws:ec2:eu-west-1:` + account + `:vpc-flow-log/` + id + `","tags":{},"relationships":[],
	"configuration":{"creationTime":"2025-01-01T00:00:00.000Z","deliverLogsStatus":"SUCCESS","flowLogId":"` + id + `",
	"flowLogStatus":"` + status + `","logDestinationType":"s3","logDestination":"arn:aws:s3:::flows","resourceId":"` + vpc + `",
	"trafficType":"ALL","maxAggregationInterval":600},"supplementaryConfiguration":{}}`
}

// flowLogsOf decodes items (a snapshot file) and returns each VPC's
// flow_logs_enabled as written: true, false or null.
func flowLogsOf(t *testing.T, items ...string) map[string]string {
	t.Helper()
	res, _ := decodeAll(t, []byte(`{"fileVersion":"1.0","configurationItems":[`+strings.Join(items, ",")+`]}`))
	out := map[string]string{}
	for _, r := range res {
		if r.Type != TypeVPC {
			continue
		}
		s := string(r.Attributes)
		i := strings.Index(s, `"flow_logs_enabled":`)
		if i < 0 {
			t.Fatalf("%s: no flow_logs_enabled in %s", r.NativeID, s)
		}
		v := s[i+len(`"flow_logs_enabled":`):]
		out[r.Account+"/"+r.NativeID[strings.LastIndex(r.NativeID, "/")+1:]] = v[:strings.IndexAny(v, ",}")]
	}
	return out
}

// TestAWSConfigFlowLogs_ThreeStates: a VPC is logged when an active flow
// log of the import watches it (whichever comes first), off when the
// import records flow logs for its account but none for it (or only a
// failed one), and unknown (null) when the import records no flow log for
// its account at all.
func TestAWSConfigFlowLogs_ThreeStates(t *testing.T) {
	const a, b = "111122223333", "444455556666"
	for name, c := range map[string]struct {
		items []string
		want  map[string]string
	}{
		"no flow log in the import": {[]string{cfgVPCItem(a, "vpc-1")}, map[string]string{a + "/vpc-1": "null"}},
		"flow log before its VPC": {[]string{cfgFlowLogItem(a, "fl-1", "vpc-1", "ACTIVE"), cfgVPCItem(a, "vpc-1")},
			map[string]string{a + "/vpc-1": "true"}},
		"flow log after its VPC": {[]string{cfgVPCItem(a, "vpc-1"), cfgFlowLogItem(a, "fl-1", "vpc-1", "ACTIVE")},
			map[string]string{a + "/vpc-1": "true"}},
		"flow logs recorded for the account, none for this VPC": {
			[]string{cfgVPCItem(a, "vpc-1"), cfgVPCItem(a, "vpc-2"), cfgFlowLogItem(a, "fl-2", "vpc-2", "ACTIVE")},
			map[string]string{a + "/vpc-1": "false", a + "/vpc-2": "true"}},
		"another account's flow logs say nothing of this one": {
			[]string{cfgVPCItem(a, "vpc-1"), cfgVPCItem(b, "vpc-9"), cfgFlowLogItem(b, "fl-9", "vpc-9", "ACTIVE")},
			map[string]string{a + "/vpc-1": "null", b + "/vpc-9": "true"}},
		"a failed flow log does not log": {[]string{cfgFlowLogItem(a, "fl-1", "vpc-1", "FAILED"), cfgVPCItem(a, "vpc-1")},
			map[string]string{a + "/vpc-1": "false"}},
	} {
		t.Run(name, func(t *testing.T) {
			got := flowLogsOf(t, c.items...)
			for k, v := range c.want {
				if got[k] != v {
					t.Errorf("%s: flow_logs_enabled %s, want %s (all: %v)", k, got[k], v, got)
				}
			}
		})
	}
}

// TestTerraformFlowLogs_ThreeStates: the same three states from a
// Terraform state (aws_vpc, aws_flow_log as the AWS provider records them).
func TestTerraformFlowLogs_ThreeStates(t *testing.T) {
	vpc := func(id string) string {
		return `{"mode":"managed","type":"aws_vpc","name":"` + id + `","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]","instances":[{"schema_version":1,"attributes":{"id":"` + id + `","arn":"arn:aws:ec2:eu-west-1:111122223333:vpc/` + id + `","cidr_block":"10.0.0.0/16","owner_id":"111122223333"}}]}`
	}
	flow := func(id, v string) string {
		return `{"mode":"managed","type":"aws_flow_log","name":"` + id + `","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]","instances":[{"schema_version":0,"attributes":{"id":"` + id + `","arn":"arn:aws:ec2:eu-west-1:111122223333:vpc-flow-log/` + id + `","vpc_id":"` + v + `","traffic_type":"ALL","log_destination_type":"s3","log_destination":"arn:aws:s3:::flows"}}]}`
	}
	state := func(rs ...string) []byte { return []byte(`{"version":4,"resources":[` + strings.Join(rs, ",") + `]}`) }
	for name, c := range map[string]struct {
		input []byte
		want  map[string]string
	}{
		"no aws_flow_log in the state": {state(vpc("vpc-1")), map[string]string{"vpc-1": "null"}},
		"flow log for one VPC":         {state(vpc("vpc-1"), flow("fl-2", "vpc-2"), vpc("vpc-2")), map[string]string{"vpc-1": "false", "vpc-2": "true"}},
	} {
		t.Run(name, func(t *testing.T) {
			res, _ := decodeAll(t, c.input)
			for _, r := range res {
				if r.Type != TypeVPC {
					continue
				}
				id := r.NativeID[strings.LastIndex(r.NativeID, "/")+1:]
				s := string(r.Attributes)
				if want := `"flow_logs_enabled":` + c.want[id]; !strings.Contains(s, want) {
					t.Errorf("%s: %s, want %s", id, s, want)
				}
			}
		})
	}
}
