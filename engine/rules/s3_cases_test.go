package rules

import "encoding/json"

// AWS Config cases of the original S3 checks. Shape: awslabs/aws-config-
// resource-schema, config/properties/resource-types/
// AWS::S3::Bucket.properties.json (configuration name/owner/creationDate;
// supplementaryConfiguration AccessControlList, BucketPolicy.policyText,
// BucketVersioningConfiguration.status/isMfaDeleteEnabled,
// BucketLoggingConfiguration.destinationBucketName,
// BucketLifecycleConfiguration.rules[].status,
// PublicAccessBlockConfiguration.blockPublicAcls…,
// ServerSideEncryptionConfiguration.rules[].applyServerSideEncryptionByDefault);
// the values as the AWS Config Developer Guide's "Example Configuration
// Snapshot" (example-s3-snapshot.html) writes them: AccessControlList a JSON
// string (encoded twice in the history encoding), policyText a JSON string,
// versioning "Off" for a bucket never versioned. AWS Config leaves
// PublicAccessBlockConfiguration, ServerSideEncryptionConfiguration and
// BucketLifecycleConfiguration out of a bucket that has none.

const s3Owner = "cdc98e52b531907c0dc603986cfa5197f7708056c08e9f701d164d48b54f5d18"

// goodBucketSupp is a hardened bucket's supplementary configuration.
func goodBucketSupp() map[string]any {
	return map[string]any{
		"AccessControlList":               aclJSON(),
		"BucketAccelerateConfiguration":   map[string]any{"status": nil},
		"BucketLoggingConfiguration":      map[string]any{"destinationBucketName": "acme-access-logs", "logFilePrefix": "orders/"},
		"BucketNotificationConfiguration": map[string]any{"configurations": map[string]any{}},
		"BucketPolicy":                    map[string]any{"policyText": policyJSON(tlsOnly)},
		"BucketVersioningConfiguration":   map[string]any{"status": "Enabled", "isMfaDeleteEnabled": true},
		"IsRequesterPaysEnabled":          false,
		"PublicAccessBlockConfiguration":  map[string]any{"blockPublicAcls": true, "ignorePublicAcls": true, "blockPublicPolicy": true, "restrictPublicBuckets": true},
		"ServerSideEncryptionConfiguration": map[string]any{"rules": []any{map[string]any{
			"applyServerSideEncryptionByDefault": map[string]any{"sseAlgorithm": "aws:kms", "kmsMasterKeyID": dataKey}, "bucketKeyEnabled": true}}},
		"BucketLifecycleConfiguration": map[string]any{"rules": []any{map[string]any{"id": "expire-noncurrent", "status": "Enabled",
			"noncurrentVersionExpirationInDays": 90}}},
	}
}

// The bucket policy statements: TLS only, and a public read.
var (
	tlsOnly = map[string]any{"Sid": "DenyInsecureTransport", "Effect": "Deny", "Principal": "*", "Action": "s3:*",
		"Resource":  []string{"arn:aws:s3:::acme-orders", "arn:aws:s3:::acme-orders/*"},
		"Condition": map[string]any{"Bool": map[string]any{"aws:SecureTransport": "false"}}}
	publicRead = map[string]any{"Sid": "PublicRead", "Effect": "Allow", "Principal": "*", "Action": "s3:GetObject",
		"Resource": "arn:aws:s3:::acme-orders/*"}
)

// policyJSON is a bucket policy as policyText holds it: a JSON string.
func policyJSON(statements ...map[string]any) string {
	b, _ := json.Marshal(map[string]any{"Version": "2012-10-17", "Statement": statements})
	return string(b)
}

// aclJSON is the bucket's ACL as AccessControlList holds it (a JSON
// string): the owner's full control and the extra grants, grantee a
// canonical user or a group name.
func aclJSON(extra ...map[string]any) string {
	grants := []any{map[string]any{"grantee": map[string]any{"id": s3Owner, "displayName": nil}, "permission": "FullControl"}}
	for _, g := range extra {
		grants = append(grants, g)
	}
	b, _ := json.Marshal(map[string]any{"grantSet": nil, "grantList": grants,
		"owner": map[string]any{"displayName": nil, "id": s3Owner}, "isRequesterCharged": false})
	return string(b)
}

// bucketItem renders the bucket acme-orders with supp as its
// supplementary configuration.
func bucketItem(supp map[string]any, history bool) string {
	return dataItem("AWS::S3::Bucket", "acme-orders", "arn:aws:s3:::acme-orders",
		map[string]any{"name": "acme-orders", "owner": map[string]any{"displayName": nil, "id": s3Owner}, "creationDate": "2024-04-27T08:00:00.000Z"},
		supp, history)
}

func init() {
	good := bucketItem(goodBucketSupp(), false)
	open := map[string]any{"blockPublicAcls": false, "ignorePublicAcls": false, "blockPublicPolicy": false, "restrictPublicBuckets": false}
	addConfigCases(map[string]configCase{
		"aws-s3-001": {good, bucketItem(with(goodBucketSupp(), "PublicAccessBlockConfiguration", nil), true)},
		"aws-s3-002": {bucketItem(with(goodBucketSupp(), "AccessControlList", aclJSON(map[string]any{"grantee": "AllUsers", "permission": "Read"})), false),
			bucketItem(with(goodBucketSupp(), "PublicAccessBlockConfiguration", open,
				"AccessControlList", aclJSON(map[string]any{"grantee": "AllUsers", "permission": "Read"})), false)},
		"aws-s3-003": {bucketItem(with(goodBucketSupp(), "BucketPolicy", map[string]any{"policyText": policyJSON(tlsOnly, publicRead)}), false),
			bucketItem(with(goodBucketSupp(), "PublicAccessBlockConfiguration", open,
				"BucketPolicy", map[string]any{"policyText": policyJSON(tlsOnly, publicRead)}), true)},
		"aws-s3-004": {good, bucketItem(with(goodBucketSupp(), "ServerSideEncryptionConfiguration", nil), false)},
		"aws-s3-005": {good, bucketItem(with(goodBucketSupp(), "BucketPolicy", map[string]any{"policyText": nil}), true)},
		"aws-s3-006": {good, bucketItem(with(goodBucketSupp(), "BucketLifecycleConfiguration", nil), false)},
		"aws-s3-007": {good, bucketItem(with(goodBucketSupp(), "BucketVersioningConfiguration", map[string]any{"status": "Off", "isMfaDeleteEnabled": nil}), true)},
		"aws-s3-008": {good, bucketItem(with(goodBucketSupp(), "BucketLoggingConfiguration", map[string]any{"destinationBucketName": nil, "logFilePrefix": nil}), false)},
		"aws-s3-009": {good, bucketItem(with(goodBucketSupp(), "BucketVersioningConfiguration", map[string]any{"status": "Enabled", "isMfaDeleteEnabled": false}), true)},
	})
}
