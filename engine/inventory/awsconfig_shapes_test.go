package inventory

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/go-cmp/cmp"
)

// kmsHistoryItem is an AWS::KMS::Key item in the history encoding
// (get-resource-config-history, batch-get-resource-config, aggregators):
// lower-case envelope keys, configuration and supplementary values as JSON
// strings. Properties from awslabs/aws-config-resource-schema
// (AWS::KMS::Key.properties.json: configuration.keyId, keyManager,
// keyState, supplementaryConfiguration.KeyRotationStatus boolean).
const kmsHistoryItem = `{"version":"1.3","accountId":"111122223333","configurationItemCaptureTime":"2025-06-01T07:23:00.000Z",
 "configurationItemStatus":"OK","configurationStateId":"1748761043001","arn":"arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab",
 "resourceType":"AWS::KMS::Key","resourceId":"1234abcd-12ab-34cd-56ef-1234567890ab","awsRegion":"eu-west-1","availabilityZone":"Not Applicable",
 "tags":{},"relatedEvents":[],"relationships":[],
 "configuration":"{\"keyId\":\"1234abcd-12ab-34cd-56ef-1234567890ab\",\"keyManager\":\"CUSTOMER\",\"keyState\":\"Enabled\",\"keyUsage\":\"ENCRYPT_DECRYPT\",\"customerMasterKeySpec\":\"SYMMETRIC_DEFAULT\",\"origin\":\"AWS_KMS\"}",
 "supplementaryConfiguration":{"KeyRotationStatus":"true"}}`

const kmsARN = "arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab"

// ruleEvent is the event AWS Config sends a custom rule's Lambda function,
// in the shape of the AWS Lambda Developer Guide's sample Config event
// (services-config.html; aws-lambda-go events.ConfigEvent): invokingEvent is
// a JSON string holding a ConfigurationItemChangeNotification whose item
// has objects, and the envelope has its own accountId and version keys.
func ruleEvent(item string) string {
	inv, _ := json.Marshal(`{"configurationItem":` + item + `,"notificationCreationTime":"2025-06-01T07:24:00.000Z","messageType":"ConfigurationItemChangeNotification","recordVersion":"1.3"}`)
	return `{"invokingEvent":` + string(inv) + `,"ruleParameters":"{}","resultToken":"myResultToken","eventLeftScope":false,` +
		`"executionRoleArn":"arn:aws:iam::111122223333:role/config-role","configRuleArn":"arn:aws:config:eu-west-1:111122223333:config-rule/config-rule-0123456",` +
		`"configRuleName":"change-triggered-config-rule","configRuleId":"config-rule-0123456","accountId":"111122223333","version":"1.0"}`
}

// kmsEventItem is the same key as a rule event carries it (objects, ARN and
// awsAccountId spellings).
const kmsEventItem = `{"configurationItemVersion":"1.3","configurationItemCaptureTime":"2025-06-01T07:23:00.000Z","awsAccountId":"111122223333",
 "configurationItemStatus":"OK","resourceId":"1234abcd-12ab-34cd-56ef-1234567890ab","ARN":"arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab",
 "awsRegion":"eu-west-1","availabilityZone":"Not Applicable","resourceType":"AWS::KMS::Key","tags":{},"relationships":[],
 "configuration":{"keyId":"1234abcd-12ab-34cd-56ef-1234567890ab","keyManager":"CUSTOMER","keyState":"Enabled","keyUsage":"ENCRYPT_DECRYPT","customerMasterKeySpec":"SYMMETRIC_DEFAULT"},
 "supplementaryConfiguration":{"KeyRotationStatus":true}}`

func jsonStr(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestAWSConfigShapes opens every envelope AWS Config's APIs and deliveries
// use (format detection included) and checks the one key in each decodes.
func TestAWSConfigShapes(t *testing.T) {
	ok := []outcome{{NativeID: kmsARN}}
	tests := []struct {
		name, input string
		want        []outcome
	}{
		{"get-resource-config-history", `{"configurationItems":[` + kmsHistoryItem + `],"nextToken":"abc"}`, ok},
		{"batch-get-resource-config", `{"baseConfigurationItems":[` + kmsHistoryItem + `],"unprocessedResourceKeys":[]}`, ok},
		{"batch-get-aggregate-resource-config", `{"BaseConfigurationItems":[` + kmsHistoryItem + `],"UnprocessedResourceIdentifiers":[]}`, ok},
		{"get-aggregate-resource-config", `{"ConfigurationItem":` + kmsHistoryItem + `}`, ok},
		{"select-resource-config", `{"Results":[` + jsonStr(kmsHistoryItem) + `],"QueryInfo":{"SelectFields":[{"Name":"*"}]}}`, ok},
		{"select-resource-config Results alone", `[` + jsonStr(kmsHistoryItem) + `]`, ok},
		{"rule invocation event", ruleEvent(kmsEventItem), ok},
		{"advanced query tags as a list", `[` + strings.Replace(kmsHistoryItem, `"tags":{}`, `"tags":[{"key":"team","value":"core"}]`, 1) + `]`, ok},
		{"not-recorded and deleted items are not live resources", `{"configurationItems":[` +
			strings.Replace(kmsHistoryItem, `"OK"`, `"ResourceNotRecorded"`, 1) + `,` +
			strings.Replace(kmsHistoryItem, `"OK"`, `"ResourceDeletedNotRecorded"`, 1) + `,` +
			strings.Replace(kmsHistoryItem, `"OK"`, `"ResourceDeleted"`, 1) + `]}`, nil},
		{"oversized notification is reported", `{"invokingEvent":` + jsonStr(`{"configurationItemSummary":{"resourceType":"AWS::KMS::Key","resourceId":"k"},"messageType":"OversizedConfigurationItemChangeNotification"}`) + `}`,
			[]outcome{{Code: engine.CodeValidationFailed}}},
		{"scheduled notification names no resource", `{"invokingEvent":` + jsonStr(`{"awsAccountId":"111122223333","notificationCreationTime":"2025-06-01T07:24:00.000Z","messageType":"ScheduledNotification"}`) + `,"accountId":"111122223333"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, f, err := Open(strings.NewReader(tt.input))
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			if f != FormatAWSConfig {
				t.Fatalf("detected %s", f)
			}
			if diff := cmp.Diff(tt.want, drain(d)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestAWSConfigSupplementaryFacts checks the facts AWS Config keeps in
// supplementaryConfiguration (or in items of their own), in both
// encodings.
func TestAWSConfigSupplementaryFacts(t *testing.T) {
	t.Run("KMS KeyRotationStatus", func(t *testing.T) {
		for name, in := range map[string]string{"history": kmsHistoryItem, "event": ruleEvent(kmsEventItem)} {
			var k KMSKey
			mustAttrs(t, decodeOne(t, in), &k)
			if k.KeyRotationEnabled == nil || !*k.KeyRotationEnabled {
				t.Errorf("%s: key_rotation_enabled = %v, want true", name, k.KeyRotationEnabled)
			}
		}
		var k KMSKey
		mustAttrs(t, decodeOne(t, strings.Replace(kmsHistoryItem, `"supplementaryConfiguration":{"KeyRotationStatus":"true"}`, `"supplementaryConfiguration":{}`, 1)), &k)
		if k.KeyRotationEnabled != nil {
			t.Errorf("without KeyRotationStatus: key_rotation_enabled = %v, want unknown (null)", *k.KeyRotationEnabled)
		}
	})
	// An RDS snapshot item (awslabs/aws-config-resource-schema,
	// AWS::RDS::DBSnapshot.properties.json: supplementaryConfiguration
	// .DBSnapshotAttributes.attributeName / attributeValues).
	snap := func(attrs string, asString bool) string {
		conf := `{"dBSnapshotIdentifier":"rds:orders-2025-06-01","dBInstanceIdentifier":"orders","engine":"postgres","snapshotType":"manual","encrypted":true,"snapshotCreateTime":"2025-06-01T03:00:00.000Z"}`
		supp := `{}`
		if attrs != "" {
			supp = `{"DBSnapshotAttributes":` + attrs + `}`
		}
		if asString {
			conf, attrs = jsonStr(conf), jsonStr(attrs)
			if supp != `{}` {
				supp = `{"DBSnapshotAttributes":` + attrs + `}`
			}
		}
		return `{"version":"1.3","accountId":"111122223333","configurationItemStatus":"OK","arn":"arn:aws:rds:eu-west-1:111122223333:snapshot:orders-2025-06-01",` +
			`"resourceType":"AWS::RDS::DBSnapshot","resourceId":"orders-2025-06-01","resourceName":"orders-2025-06-01","awsRegion":"eu-west-1",` +
			`"configuration":` + conf + `,"supplementaryConfiguration":` + supp + `}`
	}
	public := `[{"attributeName":"restore","attributeValues":["all"]}]`
	shared := `[{"attributeName":"restore","attributeValues":["444455556666"]}]`
	for _, tt := range []struct {
		name string
		in   string
		want *bool
	}{
		{"public (objects)", snap(public, false), ptr(true)},
		{"public (JSON strings)", snap(public, true), ptr(true)},
		{"shared with one account", snap(shared, false), ptr(false)},
		{"attributes not recorded", snap("", false), nil},
	} {
		t.Run("RDS snapshot "+tt.name, func(t *testing.T) {
			r := decodeOne(t, tt.in)
			var s DBSnapshot
			mustAttrs(t, r, &s)
			if r.Type != TypeDBSnapshot || s.Identifier != "rds:orders-2025-06-01" || !s.Encrypted {
				t.Errorf("decoded %s %+v", r.Type, s)
			}
			if diff := cmp.Diff(tt.want, s.Public); diff != "" {
				t.Errorf("public (-want +got)\n%s", diff)
			}
		})
	}
	t.Run("S3 account public access block", func(t *testing.T) {
		// awslabs/aws-config-resource-schema,
		// AWS::S3::AccountPublicAccessBlock.properties.json.
		for name, conf := range map[string]string{
			"objects":      `{"blockPublicAcls":true,"ignorePublicAcls":true,"blockPublicPolicy":true,"restrictPublicBuckets":true}`,
			"JSON strings": jsonStr(`{"blockPublicAcls":true,"ignorePublicAcls":true,"blockPublicPolicy":true,"restrictPublicBuckets":true}`),
		} {
			r := decodeOne(t, `{"version":"1.3","accountId":"111122223333","configurationItemStatus":"OK","resourceType":"AWS::S3::AccountPublicAccessBlock",`+
				`"resourceId":"111122223333","awsRegion":"eu-west-1","configuration":`+conf+`,"supplementaryConfiguration":{}}`)
			var a S3AccountPublicAccessBlock
			mustAttrs(t, r, &a)
			want := S3AccountPublicAccessBlock{AccountID: "111122223333", PublicAccessBlock: PublicAccessBlock{true, true, true, true}}
			if r.Type != TypeS3AccountPublicAccessBlock || a != want {
				t.Errorf("%s: %s %+v", name, r.Type, a)
			}
		}
	})
	t.Run("S3 versioning Off is never enabled", func(t *testing.T) {
		var b S3Bucket
		mustAttrs(t, decodeOne(t, strings.Replace(s3History, `\"status\":\"Suspended\"`, `\"status\":\"Off\"`, 1)), &b)
		if b.Versioning != "" {
			t.Errorf("versioning %q, want \"\" for Off", b.Versioning)
		}
	})
	t.Run("IAM items are global", func(t *testing.T) {
		r := decodeOne(t, `{"version":"1.3","accountId":"111122223333","configurationItemStatus":"OK","arn":"arn:aws:iam::111122223333:user/ci",`+
			`"resourceType":"AWS::IAM::User","resourceId":"AIDAEXAMPLE","resourceName":"ci","awsRegion":"global",`+
			`"configuration":"{\"userName\":\"ci\",\"userId\":\"AIDAEXAMPLE\"}","supplementaryConfiguration":{}}`)
		if r.Region != RegionGlobal || r.Type != TypeIAMUser {
			t.Errorf("%s in %q", r.Type, r.Region)
		}
	})
}

func ptr[T any](v T) *T { return &v }

func mustAttrs(t *testing.T, r resourceView, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Attributes, v); err != nil {
		t.Fatalf("%s: %v", r.Attributes, err)
	}
}

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
