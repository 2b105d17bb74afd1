package inventory

import (
	"strings"
	"testing"
	"time"
)

// An AWS Config item's configurationItemCaptureTime becomes the resource's
// CapturedAt, however AWS wrote it (RFC 3339 in S3 deliveries and the
// CLI's output, epoch seconds in the APIs' raw answers, epoch
// milliseconds); an item without one, and Terraform state (which records
// no time), leave it nil.
func TestCapturedAt(t *testing.T) {
	want := time.Date(2025, 6, 1, 7, 23, 0, 0, time.UTC)
	item := func(capture string) string {
		c := ""
		if capture != "" {
			c = `"configurationItemCaptureTime":` + capture + `,`
		}
		return `{` + c + `"resourceType":"AWS::EC2::VPC","resourceId":"vpc-1","awsAccountId":"111122223333","awsRegion":"eu-west-1",` +
			`"ARN":"arn:aws:ec2:eu-west-1:111122223333:vpc/vpc-1","configuration":{"vpcId":"vpc-1","cidrBlock":"10.0.0.0/16"}}`
	}
	for _, tt := range []struct {
		name, capture string
		want          time.Time
	}{
		{"RFC 3339", `"2025-06-01T07:23:00.000Z"`, want},
		{"epoch seconds", `1748762580.0`, want},
		{"epoch milliseconds", `1748762580000`, want},
		{"absent", ``, time.Time{}},
		{"null", `null`, time.Time{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewAWSConfigDecoder(strings.NewReader(item(tt.capture))).Next()
			if err != nil {
				t.Fatal(err)
			}
			if got := r.CapturedAt; (got == nil) != tt.want.IsZero() || got != nil && !got.Equal(tt.want) {
				t.Errorf("CapturedAt %v, want %v", r.CapturedAt, tt.want)
			}
		})
	}
	r, err := NewTerraformDecoder(strings.NewReader(`{"version":4,"resources":[` + tfVPCJSON + `]}`)).Next()
	if err != nil {
		t.Fatal(err)
	}
	if r.CapturedAt != nil {
		t.Errorf("Terraform: CapturedAt %v, want none", r.CapturedAt)
	}
}
