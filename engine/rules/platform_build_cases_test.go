package rules

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// AWS Config cases of CodeBuild, Step Functions, CloudWatch alarms,
// Cognito, AWS Private CA and IAM Access Analyzer. Shapes: awslabs/aws-
// config-resource-schema (AWS::CodeBuild::Project and AWS::CloudWatch::Alarm
// record the service API's camelCase; the others CloudFormation's
// PascalCase).

const platKey = "arn:aws:kms:eu-west-1:111122223333:key/0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"

func codebuild(history bool, edit func(pobj)) string {
	arn := "arn:aws:codebuild:eu-west-1:111122223333:project/acme-web-build"
	c := pobj{"name": "acme-web-build", "arn": arn,
		"source":    pobj{"type": "GITHUB", "location": "https://github.com/acme/web.git", "gitCloneDepth": 1, "buildspec": "buildspec.yml"},
		"artifacts": pobj{"type": "S3", "location": "acme-prod-artifacts", "encryptionDisabled": false, "packaging": "ZIP"},
		"environment": pobj{"type": "LINUX_CONTAINER", "image": "aws/codebuild/amazonlinux2-x86_64-standard:5.0", "computeType": "BUILD_GENERAL1_SMALL",
			"privilegedMode": false, "imagePullCredentialsType": "CODEBUILD",
			"environmentVariables": parr{pobj{"name": "STAGE", "value": "prod", "type": "PLAINTEXT"},
				pobj{"name": "NPM_TOKEN", "value": "/acme/npm-token", "type": "PARAMETER_STORE"}}},
		"serviceRole": "arn:aws:iam::111122223333:role/codebuild-web", "timeoutInMinutes": 30, "encryptionKey": platKey,
		"logsConfig": pobj{"cloudWatchLogs": pobj{"status": "ENABLED", "groupName": "/codebuild/web"},
			"s3Logs": pobj{"status": "ENABLED", "location": "acme-prod-access-logs/codebuild", "encryptionDisabled": false}}}
	if edit != nil {
		edit(c)
	}
	return platItem("AWS::CodeBuild::Project", "acme-web-build", arn, c, nil, history)
}

func stateMachine(history bool, edit func(pobj)) string {
	arn := "arn:aws:states:eu-west-1:111122223333:stateMachine:orders"
	c := pobj{"StateMachineName": "orders", "Arn": arn, "StateMachineType": "STANDARD", "RoleArn": "arn:aws:iam::111122223333:role/orders-sfn",
		"LoggingConfiguration": pobj{"Level": "ERROR", "IncludeExecutionData": false,
			"Destinations": parr{pobj{"CloudWatchLogsLogGroup": pobj{"LogGroupArn": "arn:aws:logs:eu-west-1:111122223333:log-group:/sfn/orders:*"}}}},
		"TracingConfiguration": pobj{"Enabled": true}}
	if edit != nil {
		edit(c)
	}
	return platItem("AWS::StepFunctions::StateMachine", arn, arn, c, nil, history)
}

func alarm(history bool, edit func(pobj)) string {
	arn := "arn:aws:cloudwatch:eu-west-1:111122223333:alarm:acme-web-5xx"
	c := pobj{"alarmName": "acme-web-5xx", "alarmArn": arn, "actionsEnabled": true,
		"alarmActions": parr{"arn:aws:sns:eu-west-1:111122223333:acme-prod-alerts"}, "okactions": parr{}, "insufficientDataActions": parr{},
		"metricName": "HTTPCode_Target_5XX_Count", "namespace": "AWS/ApplicationELB", "statistic": "Sum", "period": 60,
		"evaluationPeriods": 5, "threshold": 10.0, "comparisonOperator": "GreaterThanThreshold", "treatMissingData": "notBreaching"}
	if edit != nil {
		edit(c)
	}
	return platItem("AWS::CloudWatch::Alarm", "acme-web-5xx", arn, c, nil, history)
}

func identityPool(history bool, edit func(pobj)) string {
	id := "eu-west-1:0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b"
	c := pobj{"IdentityPoolName": "acme_app", "Id": id, "AllowUnauthenticatedIdentities": false, "AllowClassicFlow": false,
		"CognitoIdentityProviders": parr{pobj{"ClientId": "1example23456789", "ProviderName": "cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf123", "ServerSideTokenCheck": true}}}
	if edit != nil {
		edit(c)
	}
	return platItem("AWS::Cognito::IdentityPool", id, "arn:aws:cognito-identity:eu-west-1:111122223333:identitypool/"+id, c, nil, history)
}

func userPoolClient(history bool, edit func(pobj)) string {
	c := pobj{"ClientName": "acme-web", "ClientId": "1example23456789", "UserPoolId": "eu-west-1_AbCdEf123",
		"PreventUserExistenceErrors": "ENABLED", "EnableTokenRevocation": true, "AllowedOAuthFlows": parr{"code"},
		"AllowedOAuthFlowsUserPoolClient": true, "AllowedOAuthScopes": parr{"openid", "email"},
		"CallbackURLs": parr{"https://app.example.com/callback"}, "ExplicitAuthFlows": parr{"ALLOW_USER_SRP_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"}}
	if edit != nil {
		edit(c)
	}
	return platItem("AWS::Cognito::UserPoolClient", "1example23456789", "", c, nil, history)
}

func privateCA(history bool, edit func(pobj)) string {
	arn := "arn:aws:acm-pca:eu-west-1:111122223333:certificate-authority/12345678-1234-1234-1234-123456789012"
	c := pobj{"Arn": arn, "Type": "SUBORDINATE", "KeyAlgorithm": "EC_prime256v1", "SigningAlgorithm": "SHA256WITHECDSA",
		"KeyStorageSecurityStandard": "FIPS_140_2_LEVEL_3_OR_HIGHER", "Subject": pobj{"CommonName": "acme issuing CA", "Organization": "Acme"},
		"RevocationConfiguration": pobj{"CrlConfiguration": pobj{"Enabled": false}, "OcspConfiguration": pobj{"Enabled": true}}}
	if edit != nil {
		edit(c)
	}
	return platItem("AWS::ACMPCA::CertificateAuthority", arn, arn, c, nil, history)
}

func analyzer(history bool) string {
	arn := "arn:aws:access-analyzer:eu-west-1:111122223333:analyzer/account"
	return platItem("AWS::AccessAnalyzer::Analyzer", arn, arn, pobj{"AnalyzerName": "account", "Arn": arn, "Type": "ACCOUNT", "ArchiveRules": parr{}}, nil, history)
}

func recorder(history, all bool) string {
	arn := "arn:aws:config:eu-west-1:111122223333:config-recorder/default"
	return platItem("AWS::Config::ConfigurationRecorder", "default", arn, pobj{"name": "default",
		"roleARN":        "arn:aws:iam::111122223333:role/aws-service-role/config.amazonaws.com/AWSServiceRoleForConfig",
		"recordingGroup": pobj{"allSupported": all, "includeGlobalResourceTypes": true, "resourceTypes": parr{}}, "recording": true}, nil, history)
}

func items(xs ...string) string { return "[" + strings.Join(xs, ",") + "]" }

func init() {
	addConfigCases(map[string]configCase{
		"aws-codebuild-001": {codebuild(false, nil), codebuild(true, func(c pobj) { c["environment"].(pobj)["privilegedMode"] = true })},
		"aws-codebuild-002": {codebuild(true, nil), codebuild(false, func(c pobj) {
			c["environment"].(pobj)["environmentVariables"] = parr{pobj{"name": "AWS_ACCESS_KEY_ID", "value": "AKIAIOSFODNN7EXAMPLE", "type": "PLAINTEXT"}}
		})},
		"aws-codebuild-003": {codebuild(false, nil), codebuild(true, func(c pobj) {
			c["source"] = pobj{"type": "GITHUB", "location": "https://ghp_exampletoken0000@github.com/acme/web.git"}
		})},
		"aws-codebuild-004": {codebuild(false, func(c pobj) {
			c["artifacts"] = pobj{"type": "NO_ARTIFACTS", "encryptionDisabled": true} // nothing stored
		}), codebuild(false, func(c pobj) { c["artifacts"].(pobj)["encryptionDisabled"] = true })},
		"aws-codebuild-005": {codebuild(true, nil), codebuild(false, func(c pobj) {
			c["logsConfig"].(pobj)["s3Logs"].(pobj)["encryptionDisabled"] = true
		})},
		"aws-codebuild-006": {codebuild(false, func(c pobj) {
			c["logsConfig"] = pobj{"cloudWatchLogs": pobj{"status": "DISABLED"}, "s3Logs": pobj{"status": "ENABLED", "location": "acme-prod-access-logs/codebuild"}}
		}), codebuild(true, func(c pobj) {
			c["logsConfig"] = pobj{"cloudWatchLogs": pobj{"status": "DISABLED"}, "s3Logs": pobj{"status": "DISABLED"}}
		})},
		"aws-sfn-001":        {stateMachine(false, nil), stateMachine(true, func(c pobj) { c["LoggingConfiguration"] = pobj{"Level": "OFF"} })},
		"aws-sfn-002":        {stateMachine(true, nil), stateMachine(false, func(c pobj) { c["TracingConfiguration"] = pobj{"Enabled": false} })},
		"aws-cloudwatch-001": {alarm(false, nil), alarm(true, func(c pobj) { c["alarmActions"] = parr{} })},
		"aws-cognito-001":    {identityPool(false, nil), identityPool(true, func(c pobj) { c["AllowUnauthenticatedIdentities"] = true })},
		"aws-cognito-002":    {identityPool(true, nil), identityPool(false, func(c pobj) { c["AllowClassicFlow"] = true })},
		"aws-cognito-003":    {userPoolClient(false, nil), userPoolClient(true, func(c pobj) { c["PreventUserExistenceErrors"] = "LEGACY" })},
		"aws-cognito-004":    {userPoolClient(true, nil), userPoolClient(false, func(c pobj) { c["EnableTokenRevocation"] = false })},
		"aws-cognito-005":    {userPoolClient(false, nil), userPoolClient(false, func(c pobj) { c["AllowedOAuthFlows"] = parr{"code", "implicit"} })},
		"aws-cognito-006": {userPoolClient(true, nil), userPoolClient(false, func(c pobj) {
			c["ExplicitAuthFlows"] = parr{"ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"}
		})},
		"aws-acmpca-001": {privateCA(false, nil), privateCA(true, func(c pobj) {
			c["RevocationConfiguration"] = pobj{"CrlConfiguration": pobj{"Enabled": false}}
		})},
		// The account rule, judged over the region's items: a recorder of
		// every type with an analyzer passes; without one it fails.
		"aws-iam-020": {items(recorder(false, true), analyzer(true), alarm(false, nil)), items(recorder(true, true), alarm(false, nil))},
	})
	accountCases["aws-iam-020"] = struct{ pass, fail []engine.Resource }{
		pass: []engine.Resource{in("eu-west-1", mk(inv.TypeConfigRecorder, `{"recording":true,"all_supported":true,"delivered_by_config":true}`)),
			in("eu-west-1", mk(inv.TypeAccessAnalyzerAnalyzer, `{"type":"ORGANIZATION"}`)), in("eu-west-1", mk(inv.TypeInstance, `{}`))},
		fail: []engine.Resource{in("eu-west-1", mk(inv.TypeConfigRecorder, `{"recording":true,"all_supported":true,"delivered_by_config":true}`)),
			in("eu-west-1", mk(inv.TypeAccessAnalyzerAnalyzer, `{"type":"ACCOUNT_UNUSED_ACCESS"}`)), in("eu-west-1", mk(inv.TypeInstance, `{}`))},
	}
	for id, c := range map[string]struct {
		item    string
		missing []string
	}{
		"aws-codebuild-006":  {codebuild(false, func(c pobj) { delete(c, "logsConfig") }), []string{"cloudwatch_logs_status", "s3_logs_status"}},
		"aws-sfn-001":        {stateMachine(true, func(c pobj) { delete(c, "LoggingConfiguration") }), []string{"logging_level"}},
		"aws-sfn-002":        {stateMachine(false, func(c pobj) { delete(c, "TracingConfiguration") }), []string{"tracing_enabled"}},
		"aws-cloudwatch-001": {alarm(true, func(c pobj) { delete(c, "actionsEnabled") }), []string{"actions_enabled"}},
		"aws-cognito-003":    {userPoolClient(false, func(c pobj) { delete(c, "PreventUserExistenceErrors") }), []string{"prevent_user_existence_errors"}},
		"aws-cognito-004":    {userPoolClient(true, func(c pobj) { delete(c, "EnableTokenRevocation") }), []string{"enable_token_revocation"}},
		"aws-acmpca-001":     {privateCA(false, func(c pobj) { delete(c, "RevocationConfiguration") }), []string{"crl_enabled", "ocsp_enabled"}},
	} {
		platformUnknown[id] = c
	}
	hardened = append(hardened, codebuild(false, nil), codebuild(true, nil), stateMachine(false, nil), alarm(true, nil),
		identityPool(false, nil), userPoolClient(true, nil), privateCA(false, nil), analyzer(false))
}

// TestAccessAnalyzerRule_NeedsConfigDelivery checks that a recorder of
// every type is evidence of a missing analyzer only in an import AWS
// Config delivered itself (issue 29): a Terraform state that manages a
// recorder (AWS provider: aws_config_configuration_recorder with
// recording_group all_supported, and its
// aws_config_configuration_recorder_status) but no analyzer, and an
// Advanced Query that selected the recorder, say nothing about analyzers,
// so the check is not evaluated there. The same recorder in a snapshot
// without an analyzer still fails (the configCase), with one passes.
func TestAccessAnalyzerRule_NeedsConfigDelivery(t *testing.T) {
	tf := `{"version":4,"terraform_version":"1.9.5","resources":[
 {"mode":"managed","type":"aws_config_configuration_recorder","name":"main","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]",
  "instances":[{"attributes":{"id":"default","name":"default","region":"eu-west-1","role_arn":"arn:aws:iam::111122223333:role/config",
  "recording_group":[{"all_supported":true,"include_global_resource_types":true}]}}]},
 {"mode":"managed","type":"aws_config_configuration_recorder_status","name":"main","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]",
  "instances":[{"attributes":{"id":"default","name":"default","region":"eu-west-1","is_enabled":true}}]},
 {"mode":"managed","type":"aws_sns_topic","name":"t","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]",
  "instances":[{"attributes":{"id":"arn:aws:sns:eu-west-1:111122223333:t","arn":"arn:aws:sns:eu-west-1:111122223333:t","name":"t"}}]}]}`
	quoted := func(xs ...string) string {
		var q []string
		for _, x := range xs {
			b, _ := json.Marshal(x)
			q = append(q, string(b))
		}
		return `{"QueryInfo":{"SelectFields":[{"Name":"*"}]},"Results":[` + strings.Join(q, ",") + `]}`
	}
	for name, input := range map[string]string{
		"terraform state": tf,
		"advanced query":  quoted(recorder(false, true), alarm(false, nil)),
	} {
		a := NewAuditor(testNow)
		for _, r := range loadReader(t, strings.NewReader(input)) {
			a.Evaluate(r)
		}
		for _, v := range a.Finish() {
			if v.Rule.ID == "aws-iam-020" {
				t.Errorf("%s: fired without evidence that the source records analyzers: %s", name, v.EvidenceJSON())
			}
		}
		if n := a.NotEvaluated()["aws-iam-020"]; n != 1 {
			t.Errorf("%s: not evaluated %d times, want 1", name, n)
		}
	}
	if n := len(auditAll(decodeItems(t, items(recorder(false, true), alarm(false, nil))), "aws-iam-020")); n != 1 {
		t.Errorf("a snapshot's recorder of every type without an analyzer: %d findings, want 1", n)
	}
	if n := len(auditAll(decodeItems(t, items(recorder(false, true), analyzer(false), alarm(false, nil))), "aws-iam-020")); n != 0 {
		t.Errorf("a snapshot's recorder of every type with an analyzer: %d findings, want 0", n)
	}
}

// TestAccessAnalyzerRule_NeedsFullRecording checks that a region whose
// AWS Config recorder records only some types is not judged: an analyzer
// missing from the inventory there may simply be unrecorded.
func TestAccessAnalyzerRule_NeedsFullRecording(t *testing.T) {
	a := NewAuditor(testNow)
	for _, r := range decodeItems(t, items(recorder(false, false), alarm(false, nil))) {
		a.Evaluate(r)
	}
	for _, v := range a.Finish() {
		if v.Rule.ID == "aws-iam-020" {
			t.Fatalf("fired without evidence: %s", v.EvidenceJSON())
		}
	}
	if n := a.NotEvaluated()["aws-iam-020"]; n != 1 {
		t.Errorf("not evaluated %d times, want 1", n)
	}
}
