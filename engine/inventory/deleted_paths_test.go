package inventory

import (
	"slices"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
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

// TestAWSConfigHistory_DeletionAfterRelease: when the pending buffer is
// full, versions leave it in input order; a deletion read after its
// resource left it still drops a resource the joiner holds to the end of
// the input (a VPC), and cannot take back a streamed one (a volume: the
// documented limit of awsconfig_pending.go).
func TestAWSConfigHistory_DeletionAfterRelease(t *testing.T) {
	defer func(n int) { maxPendingBytes = n }(maxPendingBytes)
	maxPendingBytes = 1 // every version leaves the buffer at once
	item := func(typ, arn, id, status, captured, conf string) string {
		return `{"version":"1.3","accountId":"111122223333","configurationItemCaptureTime":"` + captured + `","configurationItemStatus":"` + status + `",
		"arn":"` + arn + `","resourceType":"` + typ + `","resourceId":"` + id + `","awsRegion":"eu-west-1","tags":{},"relationships":[],
		"configuration":` + conf + `,"supplementaryConfiguration":{}}`
	}
	const older, newer = "2025-05-01T10:00:00.000Z", "2025-06-01T10:00:00.000Z"
	vpcARN, volARN := "arn:aws:ec2:eu-west-1:111122223333:vpc/vpc-1", "arn:aws:ec2:eu-west-1:111122223333:volume/vol-1"
	in := `{"configurationItems":[` +
		item("AWS::EC2::VPC", vpcARN, "vpc-1", "OK", older, `"{\"vpcId\":\"vpc-1\",\"cidrBlock\":\"10.0.0.0/16\"}"`) + `,` +
		item("AWS::EC2::Volume", volARN, "vol-1", "OK", older, `"{\"volumeId\":\"vol-1\",\"size\":10,\"volumeType\":\"gp3\",\"state\":\"in-use\"}"`) + `,` +
		item("AWS::EC2::VPC", vpcARN, "vpc-1", "ResourceDeleted", newer, "null") + `,` +
		item("AWS::EC2::Volume", volARN, "vol-1", "ResourceDeleted", newer, "null") + `]}`
	got := drain(NewAWSConfigDecoder(strings.NewReader(in)))
	if diff := cmp.Diff([]outcome{{NativeID: volARN}}, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestPendingBuffer pins the buffer's bookkeeping: input order out, a
// newer version replaces the pending one, a dropped version never comes
// out, and the byte count returns to zero.
func TestPendingBuffer(t *testing.T) {
	defer func(n int) { maxPendingBytes = n }(maxPendingBytes)
	maxPendingBytes = 3 * (pendingOverhead + 1)
	res := func(id string) engine.Resource { return engine.Resource{NativeID: id, Attributes: []byte("x")} }
	var p pending
	var out []string
	take := func(rs []engine.Resource) {
		for _, r := range rs {
			out = append(out, r.NativeID)
		}
	}
	take(p.add(1, res("a1")))
	take(p.add(2, res("b1")))
	take(p.add(1, res("a2"))) // replaces a1
	take(p.add(3, res("c1")))
	if p.drop(9) || !p.drop(2) { // b1 deleted
		t.Errorf("drop of an absent or a pending key answered wrongly")
	}
	take(p.add(4, res("d1")))
	take(p.add(5, res("e1"))) // over the bound: a2 leaves
	take(p.all())
	if want := []string{"a2", "c1", "d1", "e1"}; !slices.Equal(out, want) {
		t.Errorf("out %v, want %v", out, want)
	}
	if p.bytes != 0 || len(p.at) != 0 {
		t.Errorf("after all: %d bytes, %d keys", p.bytes, len(p.at))
	}
}
