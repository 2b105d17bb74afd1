package rules

import (
	"encoding/json"
	"net/url"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// AWS Config cases of the platform family's checks on older types. Shapes:
// awslabs/aws-config-resource-schema (AWS::GuardDuty::Detector with
// DataSources, AWS::KMS::Key, AWS::ECR::Repository,
// AWS::SecretsManager::Secret, AWS::SQS::Queue, AWS::ECS::Cluster); IAM items
// as AWS Config records them, policy documents URL-encoded
// (policyVersionList[].document, rolePolicyList[].policyDocument, …; see
// testdata/inventory/aws-config-iam.json).

func detector(history bool, conf pobj) string {
	arn := "arn:aws:guardduty:eu-west-1:111122223333:detector/8ab1c2d3e4f5a6b7c8d9e0f1a2b3c4d5"
	c := pobj{"Id": "8ab1c2d3e4f5a6b7c8d9e0f1a2b3c4d5", "Enable": true, "FindingPublishingFrequency": "FIFTEEN_MINUTES",
		"DataSources": pobj{"S3Logs": pobj{"Enable": true}, "Kubernetes": pobj{"AuditLogs": pobj{"Enable": true}}}}
	for k, v := range conf {
		c[k] = v
	}
	return platItem("AWS::GuardDuty::Detector", "8ab1c2d3e4f5a6b7c8d9e0f1a2b3c4d5", arn, c, nil, history)
}

func kmsKey(history bool, state string) string {
	id := "5e6f7a8b-9c0d-1e2f-3a4b-5c6d7e8f9a0b"
	arn := "arn:aws:kms:eu-west-1:111122223333:key/" + id
	return platItem("AWS::KMS::Key", id, arn, pobj{"keyId": id, "arn": arn, "keyManager": "CUSTOMER", "keySpec": "SYMMETRIC_DEFAULT",
		"keyUsage": "ENCRYPT_DECRYPT", "keyState": state, "enabled": state == "Enabled", "origin": "AWS_KMS"}, pobj{"KeyRotationStatus": true}, history)
}

func ecrRepo(history bool, mutability string) string {
	arn := "arn:aws:ecr:eu-west-1:111122223333:repository/acme/web"
	c := pobj{"RepositoryName": "acme/web", "Arn": arn, "ImageScanningConfiguration": pobj{"ScanOnPush": true}}
	if mutability != "" {
		c["ImageTagMutability"] = mutability
	}
	return platItem("AWS::ECR::Repository", "acme/web", arn, c, nil, history)
}

func secret(history, rotation bool) string { return secretEvery(history, rotation, 30) }

// secretEvery is a secret rotated every days days (0: no RotationRules).
func secretEvery(history, rotation bool, days int) string {
	arn := "arn:aws:secretsmanager:eu-west-1:111122223333:secret:acme/db-AbCdEf"
	c := pobj{"Name": "acme/db", "ARN": arn, "KmsKeyId": platKey, "RotationEnabled": rotation,
		"RotationLambdaARN": "arn:aws:lambda:eu-west-1:111122223333:function:rotate-db"}
	if days > 0 {
		c["RotationRules"] = pobj{"AutomaticallyAfterDays": days}
	}
	return platItem("AWS::SecretsManager::Secret", arn, arn, c, nil, history)
}

// queue renders one queue; redrive is its RedrivePolicy ("" for none).
func queue(history bool, name string, retention int, redrive string) string {
	u := "https://sqs.eu-west-1.amazonaws.com/111122223333/" + name
	c := pobj{"QueueUrl": u, "QueueArn": "arn:aws:sqs:eu-west-1:111122223333:" + name, "KmsMasterKeyId": platKey,
		"MessageRetentionPeriod": retention}
	if redrive != "" {
		c["RedrivePolicy"] = redrive
	}
	return platItem("AWS::SQS::Queue", u, "arn:aws:sqs:eu-west-1:111122223333:"+name, c, nil, history)
}

const jobsRedrive = `{"deadLetterTargetArn":"arn:aws:sqs:eu-west-1:111122223333:acme-jobs-dlq","maxReceiveCount":5}`

// queues renders a source queue and its dead-letter queue with the given
// retentions (seconds).
func queues(history bool, src, dlq int) string {
	return items(queue(history, "acme-jobs", src, jobsRedrive), queue(history, "acme-jobs-dlq", dlq, ""))
}

// urlDoc is a policy document as AWS Config's IAM items carry it.
func urlDoc(statements ...pobj) string {
	b, _ := json.Marshal(pobj{"Version": "2012-10-17", "Statement": statements})
	return url.QueryEscape(string(b))
}

func allow(action, resource any) pobj {
	return pobj{"Effect": "Allow", "Action": action, "Resource": resource}
}

func iamPolicy(history bool, doc string) string {
	arn := "arn:aws:iam::111122223333:policy/acme-app"
	c := pobj{"policyName": "acme-app", "policyId": "ANPAEXAMPLEACMEAPP01", "arn": arn, "path": "/", "defaultVersionId": "v1",
		"attachmentCount": 1, "isAttachable": true, "policyVersionList": parr{pobj{"document": doc, "versionId": "v1", "isDefaultVersion": true}}}
	return platItem("AWS::IAM::Policy", "ANPAEXAMPLEACMEAPP01", arn, c, nil, history)
}

func iamRole(history bool, inline string, attached ...string) string {
	arn := "arn:aws:iam::111122223333:role/acme-app"
	trust := urlDoc(pobj{"Effect": "Allow", "Principal": pobj{"Service": "ecs-tasks.amazonaws.com"}, "Action": "sts:AssumeRole"})
	att := parr{}
	for _, a := range attached {
		att = append(att, pobj{"policyArn": a, "policyName": a[len("arn:aws:iam::aws:policy/"):]})
	}
	c := pobj{"roleName": "acme-app", "roleId": "AROAEXAMPLEACMEAPP01", "arn": arn, "path": "/", "assumeRolePolicyDocument": trust,
		"attachedManagedPolicies": att, "rolePolicyList": parr{}, "instanceProfileList": parr{}}
	if inline != "" {
		c["rolePolicyList"] = parr{pobj{"policyName": "inline", "policyDocument": inline}}
	}
	return platItem("AWS::IAM::Role", "AROAEXAMPLEACMEAPP01", arn, c, nil, history)
}

func execCluster(history bool, cwEncrypted bool) string {
	return ecsCluster(history, func(c pobj) {
		c["Configuration"] = pobj{"ExecuteCommandConfiguration": pobj{"Logging": "OVERRIDE", "KmsKeyId": platKey,
			"LogConfiguration": pobj{"CloudWatchLogGroupName": "/ecs/exec", "CloudWatchEncryptionEnabled": cwEncrypted}}}
	})
}

func init() {
	narrowKMS := urlDoc(allow(parr{"kms:Decrypt", "kms:GenerateDataKey"}, platKey))
	addConfigCases(map[string]configCase{
		"aws-guardduty-001": {detector(false, nil), detector(true, pobj{"DataSources": pobj{"S3Logs": pobj{"Enable": false}}})},
		// The newer Features shape on the passing side.
		"aws-guardduty-002": {detector(true, pobj{"DataSources": nil, "Features": parr{pobj{"Name": "S3_DATA_EVENTS", "Status": "ENABLED"},
			pobj{"Name": "EKS_AUDIT_LOGS", "Status": "ENABLED"}}}),
			detector(false, pobj{"DataSources": pobj{"S3Logs": pobj{"Enable": true}, "Kubernetes": pobj{"AuditLogs": pobj{"Enable": false}}}})},
		"aws-kms-004":            {kmsKey(false, "Enabled"), kmsKey(true, "Disabled")},
		"aws-ecr-002":            {ecrRepo(false, "IMMUTABLE"), ecrRepo(true, "MUTABLE")},
		"aws-secretsmanager-002": {secret(true, true), secret(false, false)},
		"aws-sqs-004":            {queues(false, 345600, 1209600), queues(true, 345600, 345600)},
		"aws-secretsmanager-003": {secretEvery(false, true, 90), secretEvery(true, true, 365)},
		"aws-iam-022":            {iamPolicy(false, narrowKMS), iamPolicy(true, urlDoc(allow("kms:Decrypt", "*")))},
		"aws-iam-023":            {iamRole(true, narrowKMS), iamRole(false, urlDoc(allow("kms:*", "*")))},
		// A Deny of the same actions overrides the Allow on the passing side.
		"aws-iam-024": {iamPolicy(false, urlDoc(allow("cloudtrail:*", "*"), pobj{"Effect": "Deny", "Action": parr{"cloudtrail:StopLogging",
			"cloudtrail:DeleteTrail", "cloudtrail:UpdateTrail", "cloudtrail:PutEventSelectors"}, "Resource": "*"})),
			iamRole(true, urlDoc(allow("cloudtrail:Stop*", "*")))},
		"aws-ecs-017": {execCluster(false, true), execCluster(true, false)},
		"aws-iam-021": {items(iamRole(false, "", "arn:aws:iam::aws:policy/AWSSupportAccess")), items(iamRole(true, "", "arn:aws:iam::aws:policy/ReadOnlyAccess"))},
		"aws-config-002": {items(recorder(false, true)), items(platItem("AWS::Config::ConfigurationRecorder", "default",
			"arn:aws:config:eu-west-1:111122223333:config-recorder/default", pobj{"name": "default", "recording": true,
				"recordingGroup": pobj{"allSupported": true, "includeGlobalResourceTypes": false}}, nil, true))},
	})
	accountCases["aws-iam-021"] = struct{ pass, fail []engine.Resource }{
		pass: []engine.Resource{mk(inv.TypeIAMRole, `{"role_name":"support","attached_policy_arns":["arn:aws:iam::aws:policy/AWSSupportAccess"]}`)},
		fail: []engine.Resource{mk(inv.TypeIAMRole, `{"role_name":"app","attached_policy_arns":["arn:aws:iam::aws:policy/ReadOnlyAccess"]}`)},
	}
	accountCases["aws-config-002"] = struct{ pass, fail []engine.Resource }{
		pass: []engine.Resource{in("eu-west-1", mk(inv.TypeConfigRecorder, `{"recording":true,"all_supported":true,"include_global_resource_types":true}`)),
			in("us-east-1", mk(inv.TypeConfigRecorder, `{"recording":true,"all_supported":true}`))},
		fail: []engine.Resource{in("eu-west-1", mk(inv.TypeConfigRecorder, `{"recording":true,"all_supported":true,"include_global_resource_types":false}`)),
			in("us-east-1", mk(inv.TypeConfigRecorder, `{"recording":true,"all_supported":true,"include_global_resource_types":false}`))},
	}
	for id, c := range map[string]struct {
		item    string
		missing []string
	}{
		"aws-guardduty-001":      {detector(false, pobj{"DataSources": nil}), []string{"s3_protection"}},
		"aws-guardduty-002":      {detector(true, pobj{"DataSources": pobj{"S3Logs": pobj{"Enable": true}}}), []string{"eks_audit_logs"}},
		"aws-ecr-002":            {ecrRepo(false, ""), []string{"image_tag_mutability"}},
		"aws-secretsmanager-003": {secretEvery(true, true, 0), []string{"rotation_interval_days"}},
		// Judged alone, the dead-letter queue's retention is unknown.
		"aws-sqs-004": {queue(false, "acme-jobs", 345600, jobsRedrive), []string{"dead_letter_queue.message_retention_seconds"}},
	} {
		platformUnknown[id] = c
	}
	hardened = append(hardened, detector(false, nil), kmsKey(true, "Enabled"), ecrRepo(false, "IMMUTABLE"), secret(false, true), execCluster(true, true),
		iamPolicy(false, narrowKMS), iamRole(true, narrowKMS))
}

// TestPlatformAccountRules_NeedEvidence checks the account rules that
// judge what AWS Config records: without any IAM role, or with a recorder
// listing its types, they are not evaluated rather than failed.
func TestPlatformAccountRules_NeedEvidence(t *testing.T) {
	a := NewAuditor(testNow)
	explicit := platItem("AWS::Config::ConfigurationRecorder", "default", "arn:aws:config:eu-west-1:111122223333:config-recorder/default",
		pobj{"name": "default", "recording": true, "recordingGroup": pobj{"allSupported": false, "resourceTypes": parr{"AWS::IAM::Role", "AWS::S3::Bucket"}}}, nil, false)
	for _, r := range decodeItems(t, items(explicit, alarm(false, nil))) {
		a.Evaluate(r)
	}
	for _, v := range a.Finish() {
		if v.Rule.ID == "aws-iam-021" || v.Rule.ID == "aws-config-002" {
			t.Errorf("%s fired without evidence: %s", v.Rule.ID, v.EvidenceJSON())
		}
	}
	ne := a.NotEvaluated()
	if ne["aws-iam-021"] != 1 || ne["aws-config-002"] != 1 {
		t.Errorf("not evaluated: %v", ne)
	}
}
