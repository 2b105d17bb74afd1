package inventory

import (
	"strings"
	"testing"
)

// TestAWSConfigHistory_NewestWins decodes configuration history with two
// versions of a resource in both orders: the last resource the decoder
// yields for it is the newest by configurationItemCaptureTime (an older
// version after a newer one is skipped), for a streamed type (a volume) and
// a held one (a VPC, completed by flow logs). A newer ResourceDeleted item
// keeps an older live version out, and so does one that comes after it
// (forward order). Items in get-resource-config-history's
// shape (lower-case arn/accountId, configuration as a JSON string; AWS
// Config API Reference, ConfigurationItem).
func TestAWSConfigHistory_NewestWins(t *testing.T) {
	item := func(typ, id, status, captured, conf string) string {
		return `{"version":"1.3","accountId":"111122223333","configurationItemCaptureTime":"` + captured + `","configurationItemStatus":"` + status + `",
		"arn":"arn:aws:ec2:eu-west-1:111122223333:` + map[string]string{"AWS::EC2::Volume": "volume/", "AWS::EC2::VPC": "vpc/"}[typ] + id + `",
		"resourceType":"` + typ + `","resourceId":"` + id + `","awsRegion":"eu-west-1","tags":{},"relationships":[],
		"configuration":` + conf + `,"supplementaryConfiguration":{}}`
	}
	vol := func(captured, typ string) string {
		return item("AWS::EC2::Volume", "vol-1", "OK", captured, `"{\"volumeId\":\"vol-1\",\"size\":10,\"volumeType\":\"`+typ+`\",\"state\":\"in-use\"}"`)
	}
	vpc := func(captured, cidr string) string {
		return item("AWS::EC2::VPC", "vpc-1", "OK", captured, `"{\"vpcId\":\"vpc-1\",\"cidrBlock\":\"`+cidr+`\",\"isDefault\":false}"`)
	}
	const older, newer = "2025-05-01T10:00:00.000Z", "2025-06-01T10:00:00.000Z"
	for name, c := range map[string]struct {
		items []string
		want  map[string]string // native id suffix → substring of the last attributes; "" for none
	}{
		"newest first": {[]string{vol(newer, "gp3"), vol(older, "gp2"), vpc(newer, "10.1.0.0/16"), vpc(older, "10.0.0.0/16")},
			map[string]string{"vol-1": `"type":"gp3"`, "vpc-1": `"cidr_block":"10.1.0.0/16"`}},
		"oldest first": {[]string{vol(older, "gp2"), vol(newer, "gp3"), vpc(older, "10.0.0.0/16"), vpc(newer, "10.1.0.0/16")},
			map[string]string{"vol-1": `"type":"gp3"`, "vpc-1": `"cidr_block":"10.1.0.0/16"`}},
		"deleted since": {[]string{item("AWS::EC2::Volume", "vol-1", "ResourceDeleted", newer, "null"), vol(older, "gp2")},
			map[string]string{"vol-1": ""}},
		// Forward order (a history file delivered to S3, or
		// --chronological-order Forward): the deletion comes after the
		// live version, which was yielded on the old code.
		"deleted later": {[]string{vol(older, "gp2"), vpc(older, "10.0.0.0/16"), item("AWS::EC2::Volume", "vol-1", "ResourceDeleted", newer, "null"),
			item("AWS::EC2::VPC", "vpc-1", "ResourceDeleted", newer, "null")},
			map[string]string{"vol-1": "", "vpc-1": ""}},
		"deleted, then created again": {[]string{vol(older, "gp2"), item("AWS::EC2::Volume", "vol-1", "ResourceDeleted", "2025-05-15T10:00:00.000Z", "null"),
			vol(newer, "gp3")},
			map[string]string{"vol-1": `"type":"gp3"`}},
	} {
		t.Run(name, func(t *testing.T) {
			res, _ := decodeAll(t, []byte(`{"configurationItems":[`+strings.Join(c.items, ",")+`],"nextToken":null}`))
			last := map[string]string{}
			for _, r := range res {
				last[r.NativeID[strings.LastIndex(r.NativeID, "/")+1:]] = string(r.Attributes)
			}
			for id, want := range c.want {
				got, ok := last[id]
				switch {
				case want == "" && ok:
					t.Errorf("%s: an older live version came back after its deletion: %s", id, got)
				case want != "" && !strings.Contains(got, want):
					t.Errorf("%s: last version %s, want %s", id, got, want)
				}
			}
		})
	}
}
