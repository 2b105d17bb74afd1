package inventory

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAWSConfigEnumAndListShapes checks the two spellings AWS Config uses
// for an enumeration (awslabs/aws-config-resource-schema lists
// AWS::EC2::NatGateway's state as "state.value": {"value": "available"},
// while items from the EC2 API's shape carry "available") and for a list
// (AWS::CloudFront::Distribution's origins as the SDK's {quantity, items} or
// a plain array): both decode to the same canonical attributes.
func TestAWSConfigEnumAndListShapes(t *testing.T) {
	item := func(rtype, conf string) string {
		return `{"configurationItemVersion":"1.3","configurationItemStatus":"OK","awsAccountId":"111122223333","awsRegion":"eu-west-1",
 "resourceType":"` + rtype + `","resourceId":"x","ARN":"arn:aws:ec2:eu-west-1:111122223333:thing/x","configuration":` + conf + `}`
	}
	for name, pair := range map[string][2]string{
		"nat gateway state": {
			item("AWS::EC2::NatGateway", `{"natGatewayId":"nat-1","vpcId":"vpc-1","subnetId":"subnet-1","state":{"value":"available"}}`),
			item("AWS::EC2::NatGateway", `{"natGatewayId":"nat-1","vpcId":"vpc-1","subnetId":"subnet-1","state":"available"}`),
		},
		"cloudfront origins": {
			item("AWS::CloudFront::Distribution", `{"id":"E1","distributionConfig":{"enabled":true,"origins":{"quantity":1,"items":[
  {"id":"o","s3OriginConfig":{"originAccessIdentity":""},"originAccessControlId":"E3"}]}}}`),
			item("AWS::CloudFront::Distribution", `{"id":"E1","distributionConfig":{"enabled":true,"origins":[
  {"id":"o","s3OriginConfig":{"originAccessIdentity":""},"originAccessControlId":"E3"}]}}`),
		},
	} {
		a, b := decodeOne(t, pair[0]), decodeOne(t, pair[1])
		if diff := cmp.Diff(string(a.Attributes), string(b.Attributes)); diff != "" {
			t.Errorf("%s: the two shapes differ (-first +second)\n%s", name, diff)
		}
	}
	var n NATGateway
	r := decodeOne(t, item("AWS::EC2::NatGateway", `{"natGatewayId":"nat-1","state":{"value":"available"}}`))
	if err := json.Unmarshal(r.Attributes, &n); err != nil || n.State != "available" {
		t.Errorf("state: %q (%v)", n.State, err)
	}
	var d CloudFrontDistribution
	r = decodeOne(t, item("AWS::CloudFront::Distribution", `{"id":"E1","distributionConfig":{"enabled":true,"origins":{"quantity":1,"items":[
  {"id":"o","s3OriginConfig":{"originAccessIdentity":""},"originAccessControlId":"E3"}]}}}`))
	if err := json.Unmarshal(r.Attributes, &d); err != nil || len(d.Origins) != 1 || !d.Origins[0].S3 || d.Origins[0].OriginAccess != "E3" {
		t.Errorf("origins: %+v (%v)", d.Origins, err)
	}
}
