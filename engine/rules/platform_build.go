package rules

import (
	"strings"

	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// awsCredentialEnv are the variables the AWS SDKs and CLI read credentials
// from: in plaintext they hand the build's credentials to anyone who can
// read the project.
var awsCredentialEnv = map[string]bool{"AWS_ACCESS_KEY_ID": true, "AWS_SECRET_ACCESS_KEY": true, "AWS_SESSION_TOKEN": true}

// buildRules are the checks of CodeBuild projects, Step Functions state
// machines and CloudWatch alarms.
func buildRules() []Rule {
	cb := []string{inv.TypeCodeBuildProject}
	return []Rule{
		{ID: "aws-codebuild-001", Dimension: security, Severity: medium, ResourceTypes: cb,
			Title:       "CodeBuild project runs builds in privileged mode",
			Description: "Privileged mode gives the build container root access to the build host's Docker daemon; a malicious dependency or pull request can escape the build.",
			Remediation: "Turn privileged mode off (aws codebuild update-project --environment …privilegedMode=false; Terraform: privileged_mode = false) unless the project builds Docker images, and then limit who can change its buildspec.",
			Check: func(s *Subject) Result {
				p := get[inv.CodeBuildProject](s)
				return failIf(s, p.PrivilegedMode, func() map[string]any { return map[string]any{"project": p.Name, "privileged_mode": p.PrivilegedMode} })
			}},
		{ID: "aws-codebuild-002", Dimension: security, Severity: critical, ResourceTypes: cb,
			Title:       "CodeBuild project holds credentials in plaintext environment variables",
			Description: "A PLAINTEXT environment variable of the build is named like a credential (AWS_SECRET_ACCESS_KEY, …PASSWORD, …TOKEN): its value is visible to anyone who can read the project and in every build log that prints the environment.",
			Remediation: "Store the value in Secrets Manager or SSM Parameter Store and reference it with type SECRETS_MANAGER / PARAMETER_STORE; use the project's service role instead of access keys; rotate the exposed credential.",
			Check: func(s *Subject) Result {
				p := get[inv.CodeBuildProject](s)
				var found []string
				for _, n := range p.PlaintextEnvironmentNames {
					if awsCredentialEnv[strings.ToUpper(n)] || secretEnvName(n) {
						found = append(found, n)
					}
				}
				return failIf(s, len(found) > 0, func() map[string]any { return map[string]any{"project": p.Name, "variables": found} })
			}},
		{ID: "aws-codebuild-003", Dimension: security, Severity: critical, ResourceTypes: cb,
			Title:       "CodeBuild project source URL embeds credentials",
			Description: "A source location is a URL carrying a user name or personal access token (https://user:token@host/…), readable by anyone who can read the project.",
			Remediation: "Connect the repository through a CodeConnections connection or CodeBuild's OAuth source credentials (aws codebuild import-source-credentials), set the plain URL as the location, and revoke the token.",
			Check: func(s *Subject) Result {
				p := get[inv.CodeBuildProject](s)
				return failIf(s, p.SourceURLCredentials, func() map[string]any {
					return map[string]any{"project": p.Name, "source_url_credentials": p.SourceURLCredentials}
				})
			}},
		{ID: "aws-codebuild-004", Dimension: security, Severity: medium, ResourceTypes: cb,
			Title:       "CodeBuild project stores unencrypted artifacts",
			Description: "An S3 build artifact has encryptionDisabled set: build outputs, often containing configuration and binaries, are stored without encryption.",
			Remediation: "Set encryptionDisabled = false on the artifacts (Terraform: artifacts { encryption_disabled = false }) and give the project a KMS key.",
			Check: func(s *Subject) Result {
				p := get[inv.CodeBuildProject](s)
				return failIf(s, p.ArtifactsEncryptionDisabled, func() map[string]any {
					return map[string]any{"project": p.Name, "artifacts_encryption_disabled": p.ArtifactsEncryptionDisabled}
				})
			}},
		{ID: "aws-codebuild-005", Dimension: security, Severity: low, ResourceTypes: cb,
			Title:       "CodeBuild project writes unencrypted S3 logs",
			Description: "The build's S3 logs are enabled with encryptionDisabled: build output, which can include secrets a step printed, is stored unencrypted.",
			Remediation: "aws codebuild update-project --logs-config s3Logs={status=ENABLED,location=…,encryptionDisabled=false}; Terraform: logs_config { s3_logs { encryption_disabled = false } }.",
			Check: func(s *Subject) Result {
				p := get[inv.CodeBuildProject](s)
				return failIf(s, p.S3LogsStatus == "ENABLED" && p.S3LogsEncryptionDisabled, func() map[string]any {
					return map[string]any{"project": p.Name, "s3_logs_status": p.S3LogsStatus, "s3_logs_encryption_disabled": p.S3LogsEncryptionDisabled}
				})
			}},
		{ID: "aws-codebuild-006", Dimension: compliance, Severity: medium, ResourceTypes: cb,
			Title:       "CodeBuild project keeps no build logs",
			Description: "Both CloudWatch Logs and S3 logs are disabled: what the builds did, and which code they ran, cannot be reviewed after the fact.",
			Remediation: "Enable CloudWatch Logs (aws codebuild update-project --logs-config cloudWatchLogs={status=ENABLED}) or S3 logs for the project.",
			Check: func(s *Subject) Result {
				p := get[inv.CodeBuildProject](s)
				if p.CloudWatchLogsStatus == "" && p.S3LogsStatus == "" {
					return notEvaluated("cloudwatch_logs_status", "s3_logs_status")
				}
				if m := s.unrecorded("cloudwatch_logs_status", "s3_logs_status"); len(m) > 0 && p.CloudWatchLogsStatus != "ENABLED" && p.S3LogsStatus != "ENABLED" {
					return notEvaluated(m...)
				}
				return failIf(s, p.CloudWatchLogsStatus != "ENABLED" && p.S3LogsStatus != "ENABLED",
					func() map[string]any {
						return map[string]any{"project": p.Name, "cloudwatch_logs_status": p.CloudWatchLogsStatus, "s3_logs_status": p.S3LogsStatus}
					})
			}},
		{ID: "aws-sfn-001", Dimension: compliance, Severity: medium, ResourceTypes: []string{inv.TypeSFNStateMachine},
			Title:       "Step Functions state machine does not log executions",
			Description: "The state machine's logging level is OFF: failed and completed executions leave no history in CloudWatch Logs beyond the service's own retention.",
			Remediation: "aws stepfunctions update-state-machine --state-machine-arn ARN --logging-configuration level=ERROR,includeExecutionData=false,destinations=[{cloudWatchLogsLogGroup={logGroupArn=…}}].",
			Check: func(s *Subject) Result {
				m := get[inv.SFNStateMachine](s)
				if m.LoggingLevel == "" {
					return notEvaluated("logging_level")
				}
				return failIf(s, m.LoggingLevel == "OFF", func() map[string]any {
					return map[string]any{"state_machine": m.Name, "type": m.Type, "logging_level": m.LoggingLevel}
				})
			}},
		{ID: "aws-sfn-002", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeSFNStateMachine},
			Title:       "Step Functions state machine has X-Ray tracing off",
			Description: "Without tracing, a slow or failing execution cannot be followed through the Lambda functions and services it calls.",
			Remediation: "aws stepfunctions update-state-machine --state-machine-arn ARN --tracing-configuration enabled=true; Terraform: tracing_configuration { enabled = true }.",
			Check: func(s *Subject) Result {
				m := get[inv.SFNStateMachine](s)
				return failUnless(s, m.TracingEnabled, "tracing_enabled", func() map[string]any { return map[string]any{"state_machine": m.Name} })
			}},
		{ID: "aws-cloudwatch-001", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeCloudWatchAlarm},
			Title:       "CloudWatch alarm notifies no one",
			Description: "The alarm has no alarm action, or its actions are disabled: it can go into ALARM without anyone or anything reacting.",
			Remediation: "Add an alarm action (an SNS topic with subscribers, an Auto Scaling or EC2 action): aws cloudwatch put-metric-alarm … --alarm-actions TOPIC_ARN --actions-enabled.",
			Check: func(s *Subject) Result {
				a := get[inv.CloudWatchAlarm](s)
				if a.ActionsEnabled == nil {
					return notEvaluated("actions_enabled")
				}
				if *a.ActionsEnabled && len(a.AlarmActions) == 0 && !s.recorded("alarm_actions") {
					return notEvaluated("alarm_actions")
				}
				return failIf(s, !*a.ActionsEnabled || len(a.AlarmActions) == 0,
					func() map[string]any {
						return map[string]any{"alarm": a.AlarmName, "actions_enabled": *a.ActionsEnabled, "alarm_actions": len(a.AlarmActions)}
					})
			}},
	}
}
