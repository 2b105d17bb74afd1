package inventory

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAWSConfigDeletedItemsEveryPath (issue 29 §1): a configuration item
// whose configurationItemStatus is ResourceDeleted, ResourceDeletedNotRecorded
// or ResourceNotRecorded (AWS Config API Reference, ConfigurationItem:
// configurationItemStatus) is not a live resource on any of the decoder's
// paths: a snapshot file delivered to S3 (objects, configSnapshotId),
// configuration history and batch-get (JSON strings), an Advanced Query's
// Results and the bare array (items as JSON strings), a plain array of
// items, an item stream one a line, a change notification and a rule
// invocation event. A live item of another key next to it still comes out
// (the clean twin), and a deleted item completes no other record: a
// deleted flow log does not turn its VPC's flow logs on.
func TestAWSConfigDeletedItemsEveryPath(t *testing.T) {
	const otherID = "5678efgh-12ab-34cd-56ef-1234567890ab"
	otherARN := strings.Replace(kmsARN, "1234abcd", "5678efgh", 1)
	other := func(item string) string {
		return strings.ReplaceAll(item, "1234abcd-12ab-34cd-56ef-1234567890ab", otherID)
	}
	for _, status := range []string{"ResourceDeleted", "ResourceDeletedNotRecorded", "ResourceNotRecorded"} {
		hist := strings.Replace(kmsHistoryItem, `"OK"`, `"`+status+`"`, 1)
		event := strings.Replace(kmsEventItem, `"OK"`, `"`+status+`"`, 1)
		for name, c := range map[string]struct {
			input string
			want  []outcome
		}{
			"snapshot file": {`{"fileVersion":"1.0","configSnapshotId":"0123abcd","configurationItems":[` + event + `,` + other(kmsEventItem) + `]}`,
				[]outcome{{NativeID: otherARN}}},
			"history (JSON strings)":       {`{"configurationItems":[` + hist + `,` + other(kmsHistoryItem) + `],"nextToken":null}`, []outcome{{NativeID: otherARN}}},
			"batch-get-resource-config":    {`{"baseConfigurationItems":[` + hist + `],"unprocessedResourceKeys":[]}`, nil},
			"advanced query Results":       {`{"Results":[` + jsonStr(hist) + `,` + jsonStr(other(kmsHistoryItem)) + `],"QueryInfo":{"SelectFields":[{"Name":"*"}]}}`, []outcome{{NativeID: otherARN}}},
			"advanced query array alone":   {`[` + jsonStr(hist) + `,` + jsonStr(other(kmsHistoryItem)) + `]`, []outcome{{NativeID: otherARN}}},
			"plain array of items":         {`[` + event + `,` + other(kmsEventItem) + `]`, []outcome{{NativeID: otherARN}}},
			"item stream, one a line":      {strings.ReplaceAll(event, "\n", "") + "\n" + strings.ReplaceAll(other(kmsEventItem), "\n", "") + "\n", []outcome{{NativeID: otherARN}}},
			"change notification":          {`{"configurationItem":` + event + `,"messageType":"ConfigurationItemChangeNotification","notificationCreationTime":"2025-06-01T07:24:00.000Z"}`, nil},
			"rule invocation event":        {ruleEvent(event), nil},
			"rule invocation event (live)": {ruleEvent(other(kmsEventItem)), []outcome{{NativeID: otherARN}}},
		} {
			d, f, err := Open(strings.NewReader(c.input))
			if err != nil || f != FormatAWSConfig {
				t.Fatalf("%s %s: Open: %v, %s", status, name, err, f)
			}
			if diff := cmp.Diff(c.want, drain(d)); diff != "" {
				t.Errorf("%s, %s: (-want +got)\n%s", status, name, diff)
			}
		}
		// A deleted flow log of the VPC does not turn its flow logs on.
		flow := `{"resourceType":"AWS::EC2::FlowLog","resourceId":"fl-1","awsAccountId":"111122223333","awsRegion":"eu-west-1","configurationItemStatus":"` + status + `",
 "configuration":{"flowLogId":"fl-1","resourceId":"vpc-1","flowLogStatus":"ACTIVE","trafficType":"ALL"}}`
		res, _ := decodeAll(t, []byte(`{"configurationItems":[`+flow+`,`+ciVPC+`]}`))
		if len(res) != 1 || strings.Contains(string(res[0].Attributes), `"flow_logs_enabled":true`) {
			t.Errorf("%s flow log: %d resources, VPC %s", status, len(res), res[0].Attributes)
		}
	}
}
