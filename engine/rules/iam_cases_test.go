package rules

import "encoding/json"

// AWS Config cases of the original IAM and resource-policy checks. Shapes:
// awslabs/aws-config-resource-schema, config/properties/resource-types/
// AWS::IAM::User (userName, userPolicyList[].policyName/policyDocument,
// attachedManagedPolicies[].policyArn, groupList), AWS::IAM::Group
// (groupPolicyList, attachedManagedPolicies), AWS::IAM::Role
// (assumeRolePolicyDocument, rolePolicyList), AWS::IAM::Policy
// (policyVersionList[].document/isDefaultVersion, attachmentCount),
// AWS::SQS::Queue and AWS::SNS::Topic (Policy, a JSON string),
// AWS::ECR::Repository (RepositoryPolicyText) and AWS::KMS::Key (the Policy
// supplement). IAM items are global (awsRegion "global") and carry their
// policy documents URL-encoded, as in the sample events of
// awslabs/aws-iam-access-analyzer-policy-validation-config-rule.

const iamAcct = "111122223333"

// jsonDoc is a policy document as resource items hold it: a JSON string.
func jsonDoc(statements ...map[string]any) string {
	b, _ := json.Marshal(map[string]any{"Version": "2012-10-17", "Statement": statements})
	return string(b)
}

var (
	stAdmin   = map[string]any{"Effect": "Allow", "Action": "*", "Resource": "*"}
	stRead    = map[string]any{"Effect": "Allow", "Action": []string{"s3:GetObject", "s3:ListBucket"}, "Resource": []string{"arn:aws:s3:::acme-reports", "arn:aws:s3:::acme-reports/*"}}
	stPassRun = map[string]any{"Effect": "Allow", "Action": []string{"iam:PassRole", "ec2:RunInstances"}, "Resource": "*"}
)

func iamItem(rtype, id, arn string, conf map[string]any, history bool) string {
	return configItemJSON(iamAcct, "global", map[string]string{}, rtype, id, arn, conf, nil, history)
}

func userItem(conf map[string]any, history bool) string {
	base := map[string]any{"userName": "alice", "userId": "AIDAJQABLZS4A3QDU576Q", "arn": "arn:aws:iam::111122223333:user/alice",
		"path": "/", "createDate": "2024-03-01T08:00:00.000Z", "groupList": []string{"developers"}, "userPolicyList": []any{},
		"attachedManagedPolicies": []any{}, "permissionsBoundary": nil}
	for k, v := range conf {
		base[k] = v
	}
	return iamItem("AWS::IAM::User", "AIDAJQABLZS4A3QDU576Q", "arn:aws:iam::111122223333:user/alice", base, history)
}

func groupItem(conf map[string]any, history bool) string {
	base := map[string]any{"groupName": "developers", "groupId": "AGPAJQABLZS4A3QDU576Q", "arn": "arn:aws:iam::111122223333:group/developers",
		"path": "/", "createDate": "2024-03-01T08:00:00.000Z", "groupPolicyList": []any{}, "attachedManagedPolicies": []any{}}
	for k, v := range conf {
		base[k] = v
	}
	return iamItem("AWS::IAM::Group", "AGPAJQABLZS4A3QDU576Q", "arn:aws:iam::111122223333:group/developers", base, history)
}

func roleItem(trust map[string]any, inline []any, history bool) string {
	return iamItem("AWS::IAM::Role", "AROAJQABLZS4A3QDU576Q", "arn:aws:iam::111122223333:role/deployer",
		map[string]any{"roleName": "deployer", "roleId": "AROAJQABLZS4A3QDU576Q", "arn": "arn:aws:iam::111122223333:role/deployer",
			"path": "/", "createDate": "2024-03-01T08:00:00.000Z", "assumeRolePolicyDocument": urlDoc(trust),
			"rolePolicyList": inline, "attachedManagedPolicies": []any{}, "instanceProfileList": []any{}, "permissionsBoundary": nil}, history)
}

func managedPolicyItem(doc string, history bool) string {
	return iamItem("AWS::IAM::Policy", "ANPAJQABLZS4A3QDU576Q", "arn:aws:iam::111122223333:policy/deploy",
		map[string]any{"policyName": "deploy", "policyId": "ANPAJQABLZS4A3QDU576Q", "arn": "arn:aws:iam::111122223333:policy/deploy",
			"path": "/", "defaultVersionId": "v2", "attachmentCount": 1, "isAttachable": true,
			"createDate": "2024-03-01T08:00:00.000Z", "updateDate": "2025-02-01T08:00:00.000Z",
			"policyVersionList": []any{
				map[string]any{"document": urlDoc(stRead), "versionId": "v1", "isDefaultVersion": false, "createDate": "2024-03-01T08:00:00.000Z"},
				map[string]any{"document": doc, "versionId": "v2", "isDefaultVersion": true, "createDate": "2025-02-01T08:00:00.000Z"}}}, history)
}

func inline(name string, statements ...map[string]any) map[string]any {
	return map[string]any{"policyName": name, "policyDocument": urlDoc(statements...)}
}

func trustOf(principal any, action string, cond map[string]any) map[string]any {
	st := map[string]any{"Effect": "Allow", "Principal": principal, "Action": action}
	if cond != nil {
		st["Condition"] = cond
	}
	return st
}

func init() {
	ec2Trust := trustOf(map[string]any{"Service": "ec2.amazonaws.com"}, "sts:AssumeRole", nil)
	github := map[string]any{"Federated": "arn:aws:iam::111122223333:oidc-provider/token.actions.githubusercontent.com"}
	orgOnly := map[string]any{"Effect": "Allow", "Principal": "*", "Action": "*", "Resource": "*",
		"Condition": map[string]any{"StringEquals": map[string]any{"aws:PrincipalOrgID": "o-a1b2c3d4e5"}}}
	anyone := map[string]any{"Effect": "Allow", "Principal": map[string]any{"AWS": "*"}, "Action": "*", "Resource": "*"}
	queue := func(policy string, history bool) string {
		return dataItem("AWS::SQS::Queue", "https://sqs.eu-west-1.amazonaws.com/111122223333/orders", "arn:aws:sqs:eu-west-1:111122223333:orders",
			map[string]any{"QueueUrl": "https://sqs.eu-west-1.amazonaws.com/111122223333/orders", "QueueArn": "arn:aws:sqs:eu-west-1:111122223333:orders",
				"SqsManagedSseEnabled": "true", "MessageRetentionPeriod": "345600", "Policy": policy,
				"RedrivePolicy": `{"deadLetterTargetArn":"arn:aws:sqs:eu-west-1:111122223333:orders-dlq","maxReceiveCount":5}`}, nil, history)
	}
	topic := func(policy string, history bool) string {
		return dataItem("AWS::SNS::Topic", "arn:aws:sns:eu-west-1:111122223333:alerts", "arn:aws:sns:eu-west-1:111122223333:alerts",
			map[string]any{"TopicArn": "arn:aws:sns:eu-west-1:111122223333:alerts", "KmsMasterKeyId": "alias/aws/sns", "Policy": policy}, nil, history)
	}
	repo := func(policy string, history bool) string {
		return dataItem("AWS::ECR::Repository", "orders-api", "arn:aws:ecr:eu-west-1:111122223333:repository/orders-api",
			map[string]any{"RepositoryName": "orders-api", "ImageTagMutability": "IMMUTABLE",
				"ImageScanningConfiguration": map[string]any{"ScanOnPush": true}, "RepositoryPolicyText": policy}, nil, history)
	}
	key := func(policy string, history bool) string {
		return dataItem("AWS::KMS::Key", "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0", dataKey,
			map[string]any{"keyId": "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0", "keyManager": "CUSTOMER", "keySpec": "SYMMETRIC_DEFAULT",
				"keyUsage": "ENCRYPT_DECRYPT", "keyState": "Enabled", "enabled": true, "origin": "AWS_KMS"},
			map[string]any{"KeyRotationStatus": true, "Policy": policy}, history)
	}
	rootOnly := map[string]any{"Sid": "Enable IAM User Permissions", "Effect": "Allow", "Principal": map[string]any{"AWS": "arn:aws:iam::111122223333:root"},
		"Action": "kms:*", "Resource": "*"}
	addConfigCases(map[string]configCase{
		"aws-iam-006": {userItem(nil, false), userItem(map[string]any{"attachedManagedPolicies": []any{
			map[string]any{"policyName": "AdministratorAccess", "policyArn": "arn:aws:iam::aws:policy/AdministratorAccess"}}}, true)},
		"aws-iam-010": {userItem(nil, false), userItem(map[string]any{"userPolicyList": []any{inline("reports", stRead)}}, false)},
		"aws-iam-012": {managedPolicyItem(urlDoc(stRead), false), managedPolicyItem(urlDoc(stAdmin), true)},
		"aws-iam-013": {roleItem(ec2Trust, []any{inline("reports", stRead)}, false), roleItem(ec2Trust, []any{inline("everything", stAdmin)}, true)},
		"aws-iam-014": {groupItem(map[string]any{"attachedManagedPolicies": []any{
			map[string]any{"policyName": "ReadOnlyAccess", "policyArn": "arn:aws:iam::aws:policy/ReadOnlyAccess"}}}, false),
			groupItem(map[string]any{"attachedManagedPolicies": []any{
				map[string]any{"policyName": "AdministratorAccess", "policyArn": "arn:aws:iam::aws:policy/AdministratorAccess"}}}, false)},
		"aws-iam-015": {roleItem(ec2Trust, []any{}, false), roleItem(trustOf(map[string]any{"AWS": "*"}, "sts:AssumeRole", nil), []any{}, true)},
		"aws-iam-016": {roleItem(trustOf(map[string]any{"AWS": "arn:aws:iam::999988887777:root"}, "sts:AssumeRole",
			map[string]any{"StringEquals": map[string]any{"sts:ExternalId": "acme-7d1f"}}), []any{}, false),
			roleItem(trustOf(map[string]any{"AWS": "arn:aws:iam::999988887777:root"}, "sts:AssumeRole", nil), []any{}, false)},
		"aws-iam-017": {managedPolicyItem(urlDoc(stRead), false), managedPolicyItem(urlDoc(stPassRun), true)},
		"aws-iam-018": {roleItem(trustOf(github, "sts:AssumeRoleWithWebIdentity",
			map[string]any{"StringLike": map[string]any{"token.actions.githubusercontent.com:sub": "repo:acme/app:ref:refs/heads/main"}}), []any{}, false),
			roleItem(trustOf(github, "sts:AssumeRoleWithWebIdentity",
				map[string]any{"StringEquals": map[string]any{"token.actions.githubusercontent.com:aud": "sts.amazonaws.com"}}), []any{}, true)},
		"aws-sqs-003": {queue(jsonDoc(orgOnly), false), queue(jsonDoc(anyone), true)},
		"aws-sns-002": {topic(jsonDoc(orgOnly), false), topic(jsonDoc(anyone), false)},
		"aws-ecr-001": {repo(jsonDoc(orgOnly), false), repo(jsonDoc(anyone), true)},
		"aws-kms-003": {key(jsonDoc(rootOnly), false), key(jsonDoc(rootOnly, anyone), true)},
	})
}
