package inventory

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// s3Snapshot is an AWS::S3::Bucket configuration item as snapshot files
// delivered to S3 and rule-invocation events carry it: configuration and
// supplementaryConfiguration values are objects. Property names follow
// awslabs/aws-config-resource-schema
// (config/properties/resource-types/AWS::S3::Bucket.properties.json:
// supplementaryConfiguration.PublicAccessBlockConfiguration.blockPublicAcls
// …, BucketVersioningConfiguration.status, ServerSideEncryptionConfiguration
// .rules.applyServerSideEncryptionByDefault.sseAlgorithm); the item's
// envelope follows the AWS Config Developer Guide's "Example Configuration
// Snapshot" (example-s3-snapshot.html).
const s3Snapshot = `{"fileVersion":"1.0","configSnapshotId":"16da64e4-cb65-4846-b061-e6c3ba43cb96","configurationItems":[{
 "configurationItemVersion":"1.3","configurationItemCaptureTime":"2025-06-01T07:23:00.000Z","configurationStateId":1748761043037,
 "awsAccountId":"111122223333","configurationItemStatus":"OK","resourceType":"AWS::S3::Bucket","resourceId":"shop-assets",
 "resourceName":"shop-assets","ARN":"arn:aws:s3:::shop-assets","awsRegion":"eu-west-1","availabilityZone":"Regional",
 "resourceCreationTime":"2024-04-27T08:00:00.000Z","tags":{"team":"web"},"relatedEvents":[],"relationships":[],
 "configuration":{"name":"shop-assets","owner":{"displayName":null,"id":"cdc98e52b531907c0dc603986cfa5197f7708056c08e9f701d164d48b54f5d18"},"creationDate":"2024-04-27T08:00:00.000Z"},
 "supplementaryConfiguration":{
  "AccessControlList":"{\"grantSet\":null,\"grantList\":[{\"grantee\":{\"id\":\"cdc98e52b531907c0dc603986cfa5197f7708056c08e9f701d164d48b54f5d18\",\"displayName\":null},\"permission\":\"FullControl\"},{\"grantee\":\"AllUsers\",\"permission\":\"Read\"}],\"owner\":{\"displayName\":null,\"id\":\"cdc98e52b531907c0dc603986cfa5197f7708056c08e9f701d164d48b54f5d18\"},\"isRequesterCharged\":false}",
  "BucketLoggingConfiguration":{"destinationBucketName":"shop-logs","logFilePrefix":"s3/"},
  "BucketPolicy":{"policyText":null},
  "BucketVersioningConfiguration":{"status":"Suspended","isMfaDeleteEnabled":null},
  "IsRequesterPaysEnabled":false,
  "PublicAccessBlockConfiguration":{"blockPublicAcls":true,"ignorePublicAcls":true,"blockPublicPolicy":true,"restrictPublicBuckets":false},
  "ServerSideEncryptionConfiguration":{"rules":[{"applyServerSideEncryptionByDefault":{"sseAlgorithm":"AES256","kmsMasterKeyID":null},"bucketKeyEnabled":false}]}
 }}]}`

// s3History is the same bucket as get-resource-config-history,
// batch-get-resource-config and aggregators return it: the lower-case
// envelope keys (version, accountId, arn), configuration and every
// supplementary value a JSON string, AccessControlList encoded twice and
// IsRequesterPaysEnabled the string "false" — as in the public sample of a
// history item for bucket cf-templates-1mfb6u5ip16se-eu-west-1 (AWS Config
// API Reference, ConfigurationItem: "configuration" and
// "supplementaryConfiguration" values are strings).
const s3History = `{"configurationItems":[{"version":"1.3","accountId":"111122223333","configurationItemCaptureTime":"2025-06-01T07:23:00.000Z",
 "configurationItemStatus":"ResourceDiscovered","configurationStateId":"1566454962646","configurationItemMD5Hash":"",
 "arn":"arn:aws:s3:::shop-assets","resourceType":"AWS::S3::Bucket","resourceId":"shop-assets","resourceName":"shop-assets",
 "awsRegion":"eu-west-1","availabilityZone":"Regional","resourceCreationTime":"2024-04-27T08:00:00.000Z","tags":{"team":"web"},"relatedEvents":[],
 "configuration":"{\"name\":\"shop-assets\",\"owner\":{\"displayName\":null,\"id\":\"cdc98e52b531907c0dc603986cfa5197f7708056c08e9f701d164d48b54f5d18\"},\"creationDate\":\"2024-04-27T08:00:00.000Z\"}",
 "supplementaryConfiguration":{
  "AccessControlList":"\"{\\\"grantSet\\\":null,\\\"grantList\\\":[{\\\"grantee\\\":{\\\"id\\\":\\\"cdc98e52b531907c0dc603986cfa5197f7708056c08e9f701d164d48b54f5d18\\\",\\\"displayName\\\":null},\\\"permission\\\":\\\"FullControl\\\"},{\\\"grantee\\\":\\\"AllUsers\\\",\\\"permission\\\":\\\"Read\\\"}],\\\"owner\\\":{\\\"displayName\\\":null,\\\"id\\\":\\\"cdc98e52b531907c0dc603986cfa5197f7708056c08e9f701d164d48b54f5d18\\\"},\\\"isRequesterCharged\\\":false}\"",
  "BucketAccelerateConfiguration":"{\"status\":null}",
  "BucketLoggingConfiguration":"{\"destinationBucketName\":\"shop-logs\",\"logFilePrefix\":\"s3/\"}",
  "BucketNotificationConfiguration":"{\"configurations\":{}}",
  "BucketPolicy":"{\"policyText\":null}",
  "BucketVersioningConfiguration":"{\"status\":\"Suspended\",\"isMfaDeleteEnabled\":null}",
  "IsRequesterPaysEnabled":"false",
  "PublicAccessBlockConfiguration":"{\"blockPublicAcls\":true,\"ignorePublicAcls\":true,\"blockPublicPolicy\":true,\"restrictPublicBuckets\":false}",
  "ServerSideEncryptionConfiguration":"{\"rules\":[{\"applyServerSideEncryptionByDefault\":{\"sseAlgorithm\":\"AES256\",\"kmsMasterKeyID\":null}}]}"
 }}]}`

// TestAWSConfigS3Bucket decodes one bucket in both encodings AWS Config
// delivers and checks every attribute the rules read. The public access
// block switches failed before the decoder read AWS's camelCase keys (all
// four came out false), and the history encoding's doubly encoded ACL
// rejected the whole item.
func TestAWSConfigS3Bucket(t *testing.T) {
	want := S3Bucket{Bucket: "shop-assets",
		ACLGrants: []ACLGrant{{Grantee: "cdc98e52b531907c0dc603986cfa5197f7708056c08e9f701d164d48b54f5d18", Permission: "FullControl"},
			{Grantee: "AllUsers", Permission: "Read"}},
		PublicAccessBlock: &PublicAccessBlock{BlockPublicACLs: true, IgnorePublicACLs: true, BlockPublicPolicy: true},
		SSEAlgorithm:      "AES256", Versioning: "Suspended", LoggingTargetBucket: "shop-logs"}
	for name, input := range map[string]string{"snapshot (objects)": s3Snapshot, "history (JSON strings)": s3History} {
		t.Run(name, func(t *testing.T) {
			got := decodeOne(t, input)
			if got.NativeID != "arn:aws:s3:::shop-assets" || got.Account != "111122223333" || got.Region != "eu-west-1" {
				t.Errorf("envelope: native id %q, account %q, region %q", got.NativeID, got.Account, got.Region)
			}
			var b S3Bucket
			if err := json.Unmarshal(got.Attributes, &b); err != nil {
				t.Fatal(err)
			}
			b.CreationDate = b.CreationDate.UTC()
			w := want
			w.CreationDate = b.CreationDate
			if b.CreationDate.Format("2006-01-02") != "2024-04-27" {
				t.Errorf("creation date %v", b.CreationDate)
			}
			if diff := cmp.Diff(w, b); diff != "" {
				t.Errorf("attributes (-want +got)\n%s", diff)
			}
		})
	}
}

// decodeOne decodes an input holding exactly one resource.
func decodeOne(t *testing.T, input string) (r resourceView) {
	t.Helper()
	d := NewAWSConfigDecoder(strings.NewReader(input))
	got, err := d.Next()
	if err != nil {
		t.Fatalf("decoding: %v", err)
	}
	if _, err := d.Next(); err == nil {
		t.Fatalf("more than one resource")
	}
	return resourceView{NativeID: got.NativeID, Account: got.Account, Region: got.Region, Type: got.Type, Attributes: got.Attributes}
}

type resourceView struct {
	NativeID, Account, Region, Type string
	Attributes                      json.RawMessage
}
