package rules

import (
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

var testNow = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// mk builds a resource of typ with the given attributes and tag pairs.
func mk(typ, attrs string, tags ...string) engine.Resource {
	t := map[string]string{}
	for i := 0; i+1 < len(tags); i += 2 {
		t[tags[i]] = tags[i+1]
	}
	return engine.Resource{Provider: "aws", Account: "111122223333", Region: "eu-west-1", Type: typ,
		NativeID: "arn:aws:test:eu-west-1:111122223333:thing/x", Name: "x", Tags: engine.TagsFromMap(t), Attributes: []byte(attrs)}
}

const (
	pabOn    = `"public_access_block":{"block_public_acls":true,"ignore_public_acls":true,"block_public_policy":true,"restrict_public_buckets":true}`
	denyHTTP = `"policy":{"Statement":[{"Effect":"Deny","Principal":"*","Action":"s3:*","Resource":"*","Condition":{"Bool":{"aws:SecureTransport":"false"}}}]}`
	sshOpen  = `{"group_id":"sg-1","group_name":"web","ingress":[{"protocol":"tcp","from_port":22,"to_port":22,"cidr_blocks":["0.0.0.0/0"]}],"egress":[]}`
	sshPriv  = `{"group_id":"sg-1","group_name":"web","ingress":[{"protocol":"tcp","from_port":22,"to_port":22,"cidr_blocks":["10.0.0.0/8"]}],"egress":[]}`
)

// ruleCases holds, for every resource rule, a resource that passes and one
// that fails.
var ruleCases = map[string]struct{ pass, fail engine.Resource }{
	"aws-s3-001": {mk(inv.TypeS3Bucket, `{"bucket":"b",`+pabOn+`}`), mk(inv.TypeS3Bucket, `{"bucket":"b","public_access_block":{"block_public_acls":true}}`)},
	"aws-s3-002": {mk(inv.TypeS3Bucket, `{"bucket":"b","acl":"public-read",`+pabOn+`}`), mk(inv.TypeS3Bucket, `{"bucket":"b","acl_grants":[{"grantee":"AllUsers","permission":"READ"}],"public_access_block":null}`)},
	"aws-s3-003": {mk(inv.TypeS3Bucket, `{"bucket":"b","policy":{"Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Condition":{"StringEquals":{"aws:SourceVpce":"vpce-1"}}}]}}`),
		mk(inv.TypeS3Bucket, `{"bucket":"b","public_access_block":null,"policy":{"Statement":{"Effect":"Allow","Principal":{"AWS":"*"},"Action":"s3:GetObject"}}}`)},
	"aws-s3-004":          {mk(inv.TypeS3Bucket, `{"bucket":"b","sse_algorithm":"aws:kms"}`), mk(inv.TypeS3Bucket, `{"bucket":"b","sse_algorithm":""}`)},
	"aws-s3-005":          {mk(inv.TypeS3Bucket, `{"bucket":"b",`+denyHTTP+`}`), mk(inv.TypeS3Bucket, `{"bucket":"b","policy":null}`)},
	"aws-s3-006":          {mk(inv.TypeS3Bucket, `{"bucket":"b","lifecycle_rule_count":2}`), mk(inv.TypeS3Bucket, `{"lifecycle_rule_count":0,"bucket":"b"}`)},
	"aws-s3-007":          {mk(inv.TypeS3Bucket, `{"bucket":"b","versioning":"Enabled"}`), mk(inv.TypeS3Bucket, `{"bucket":"b","versioning":"Suspended"}`)},
	"aws-s3-008":          {mk(inv.TypeS3Bucket, `{"bucket":"b","logging_target_bucket":"logs"}`), mk(inv.TypeS3Bucket, `{"logging_target_bucket":"","bucket":"b"}`)},
	"aws-s3-009":          {mk(inv.TypeS3Bucket, `{"bucket":"b","versioning":"Enabled","mfa_delete":true}`), mk(inv.TypeS3Bucket, `{"mfa_delete":false,"bucket":"b","versioning":"Enabled"}`)},
	"aws-ec2-001":         {mk(inv.TypeSecurityGroup, sshPriv), mk(inv.TypeSecurityGroup, sshOpen)},
	"aws-ec2-002":         {mk(inv.TypeSecurityGroup, sshOpen), mk(inv.TypeSecurityGroup, `{"group_id":"sg-1","ingress":[{"protocol":"tcp","from_port":3000,"to_port":4000,"cidr_blocks":["0.0.0.0/0"]}]}`)},
	"aws-ec2-003":         {mk(inv.TypeSecurityGroup, sshOpen), mk(inv.TypeSecurityGroup, `{"group_id":"sg-1","ingress":[{"protocol":"tcp","from_port":22,"to_port":22,"ipv6_cidr_blocks":["::/0"]}]}`)},
	"aws-ec2-004":         {mk(inv.TypeSecurityGroup, sshOpen), mk(inv.TypeSecurityGroup, `{"group_id":"sg-1","ingress":[{"protocol":"-1","from_port":0,"to_port":0,"cidr_blocks":["0.0.0.0/0"]}]}`)},
	"aws-ec2-005":         {mk(inv.TypeSecurityGroup, sshOpen), mk(inv.TypeSecurityGroup, `{"group_id":"sg-1","ingress":[{"protocol":"tcp","from_port":5432,"to_port":5432,"cidr_blocks":["0.0.0.0/0"]}]}`)},
	"aws-ec2-006":         {mk(inv.TypeSecurityGroup, `{"group_id":"sg-1","group_name":"default","ingress":[],"egress":[]}`), mk(inv.TypeSecurityGroup, `{"group_id":"sg-1","group_name":"default","ingress":[],"egress":[{"protocol":"-1","cidr_blocks":["0.0.0.0/0"]}]}`)},
	"aws-ec2-007":         {mk(inv.TypeInstance, `{"instance_id":"i-1","state":"running","metadata_http_tokens":"required"}`), mk(inv.TypeInstance, `{"instance_id":"i-1","state":"running","metadata_http_tokens":"optional"}`)},
	"aws-ec2-008":         {mk(inv.TypeInstance, `{"instance_id":"i-1"}`), mk(inv.TypeInstance, `{"instance_id":"i-1","public_ip":"203.0.113.9"}`)},
	"aws-ec2-009":         {mk(inv.TypeEIP, `{"allocation_id":"eipalloc-1","association_id":"eipassoc-1"}`), mk(inv.TypeEIP, `{"allocation_id":"eipalloc-1","association_id":""}`)},
	"aws-ec2-010":         {mk(inv.TypeInstance, `{"instance_id":"i-1","instance_type":"m7g.large","state":"running"}`), mk(inv.TypeInstance, `{"instance_id":"i-1","instance_type":"m4.xlarge","state":"running"}`)},
	"aws-ec2-011":         {mk(inv.TypeInstance, `{"instance_id":"i-1","state":"stopped","state_changed_at":"2025-05-30T00:00:00Z","volume_ids":["vol-1"]}`), mk(inv.TypeInstance, `{"instance_id":"i-1","state":"stopped","state_changed_at":"2025-01-01T00:00:00Z","volume_ids":["vol-1"]}`)},
	"aws-ec2-012":         {mk(inv.TypeInstance, `{"instance_id":"i-1","state":"running","autoscaling_group":"web"}`), mk(inv.TypeInstance, `{"autoscaling_group":"","instance_id":"i-1","state":"running"}`)},
	"aws-ebs-001":         {mk(inv.TypeEBSVolume, `{"volume_id":"vol-1","encrypted":true}`), mk(inv.TypeEBSVolume, `{"volume_id":"vol-1","encrypted":false}`)},
	"aws-ebs-002":         {mk(inv.TypeEBSSnapshot, `{"snapshot_id":"snap-1","public":false}`), mk(inv.TypeEBSSnapshot, `{"snapshot_id":"snap-1","public":true}`)},
	"aws-ebs-003":         {mk(inv.TypeEBSSnapshot, `{"snapshot_id":"snap-1","encrypted":true}`), mk(inv.TypeEBSSnapshot, `{"snapshot_id":"snap-1","encrypted":false}`)},
	"aws-ebs-004":         {mk(inv.TypeEBSVolume, `{"volume_id":"vol-1","state":"in-use"}`), mk(inv.TypeEBSVolume, `{"volume_id":"vol-1","state":"available","size":100,"type":"gp2"}`)},
	"aws-ebs-005":         {mk(inv.TypeEBSVolume, `{"volume_id":"vol-1","type":"gp3"}`), mk(inv.TypeEBSVolume, `{"volume_id":"vol-1","type":"gp2","size":500}`)},
	"aws-ebs-006":         {mk(inv.TypeEBSSnapshot, `{"snapshot_id":"snap-1","start_time":"2025-05-01T00:00:00Z"}`), mk(inv.TypeEBSSnapshot, `{"snapshot_id":"snap-1","start_time":"2024-01-01T00:00:00Z"}`)},
	"aws-rds-001":         {mk(inv.TypeDBInstance, `{"identifier":"db"}`), mk(inv.TypeDBInstance, `{"identifier":"db","publicly_accessible":true}`)},
	"aws-rds-002":         {mk(inv.TypeDBInstance, `{"identifier":"db","storage_encrypted":true}`), mk(inv.TypeDBInstance, `{"identifier":"db","storage_encrypted":false}`)},
	"aws-rds-003":         {mk(inv.TypeDBInstance, `{"identifier":"db","instance_class":"db.r7g.large"}`), mk(inv.TypeDBInstance, `{"identifier":"db","instance_class":"db.t2.medium"}`)},
	"aws-rds-004":         {mk(inv.TypeDBInstance, `{"identifier":"db","storage_type":"gp3"}`), mk(inv.TypeDBInstance, `{"identifier":"db","storage_type":"gp2"}`)},
	"aws-rds-005":         {mk(inv.TypeDBInstance, `{"identifier":"db","multi_az":true}`), mk(inv.TypeDBInstance, `{"identifier":"db","multi_az":false}`)},
	"aws-rds-006":         {mk(inv.TypeDBInstance, `{"identifier":"db","backup_retention_period":7}`), mk(inv.TypeDBInstance, `{"identifier":"db","backup_retention_period":0}`)},
	"aws-rds-007":         {mk(inv.TypeDBInstance, `{"identifier":"db","deletion_protection":true}`), mk(inv.TypeDBInstance, `{"deletion_protection":false,"identifier":"db"}`)},
	"aws-rds-009":         {mk(inv.TypeDBSnapshot, `{"db_snapshot_identifier":"s","public":false}`), mk(inv.TypeDBSnapshot, `{"db_snapshot_identifier":"s","public":true}`)},
	"aws-rds-010":         {mk(inv.TypeDBSnapshot, `{"db_snapshot_identifier":"s","encrypted":true}`), mk(inv.TypeDBSnapshot, `{"db_snapshot_identifier":"s","encrypted":false}`)},
	"aws-rds-008":         {mk(inv.TypeDBInstance, `{"identifier":"db","auto_minor_version_upgrade":true}`), mk(inv.TypeDBInstance, `{"auto_minor_version_upgrade":false,"identifier":"db"}`)},
	"aws-iam-001":         {mk(inv.TypeIAMUser, `{"user_name":"u","password_enabled":true,"mfa_active":true}`), mk(inv.TypeIAMUser, `{"user_name":"u","password_enabled":true,"mfa_active":false}`)},
	"aws-iam-002":         {mk(inv.TypeIAMAccessKey, `{"access_key_id":"AKIA1","status":"Active","create_date":"2025-04-01T00:00:00Z"}`), mk(inv.TypeIAMAccessKey, `{"access_key_id":"AKIA1","status":"Active","create_date":"2025-01-01T00:00:00Z"}`)},
	"aws-iam-003":         {mk(inv.TypeIAMAccessKey, `{"access_key_id":"AKIA1","status":"Active","create_date":"2024-01-01T00:00:00Z","last_used_date":"2025-05-31T00:00:00Z"}`), mk(inv.TypeIAMAccessKey, `{"access_key_id":"AKIA1","status":"Active","create_date":"2025-01-01T00:00:00Z","last_used_date":null}`)},
	"aws-iam-004":         {mk(inv.TypeIAMAccount, `{"root_mfa_enabled":true,"root_access_keys_present":false}`), mk(inv.TypeIAMAccount, `{"root_access_keys_present":true}`)},
	"aws-iam-005":         {mk(inv.TypeIAMAccount, `{"root_mfa_enabled":true}`), mk(inv.TypeIAMAccount, `{"root_mfa_enabled":false}`)},
	"aws-iam-006":         {mk(inv.TypeIAMUser, `{"user_name":"u","attached_policy_arns":["arn:aws:iam::aws:policy/ReadOnlyAccess"]}`), mk(inv.TypeIAMUser, `{"user_name":"u","attached_policy_arns":["arn:aws:iam::aws:policy/AdministratorAccess"]}`)},
	"aws-iam-007":         {mk(inv.TypeIAMAccount, `{"root_last_used":"2024-01-01T00:00:00Z"}`), mk(inv.TypeIAMAccount, `{"root_last_used":"2025-05-20T00:00:00Z"}`)},
	"aws-iam-008":         {mk(inv.TypeIAMAccount, `{"password_policy":{"minimum_password_length":14}}`), mk(inv.TypeIAMAccount, `{"password_policy":{"minimum_password_length":8}}`)},
	"aws-iam-009":         {mk(inv.TypeIAMAccount, `{"password_policy":{"password_reuse_prevention":24}}`), mk(inv.TypeIAMAccount, `{"password_policy":null}`)},
	"aws-iam-010":         {mk(inv.TypeIAMUser, `{"user_name":"u","groups":["dev"]}`), mk(inv.TypeIAMUser, `{"user_name":"u","inline_policy_names":["x"]}`)},
	"aws-iam-011":         {mk(inv.TypeIAMAccount, `{"root_mfa_enabled":true,"root_hardware_mfa":true}`), mk(inv.TypeIAMAccount, `{"root_hardware_mfa":false,"root_mfa_enabled":true}`)},
	"aws-kms-001":         {mk(inv.TypeKMSKey, `{"key_id":"k","key_manager":"CUSTOMER","key_spec":"SYMMETRIC_DEFAULT","key_state":"Enabled","key_rotation_enabled":true}`), mk(inv.TypeKMSKey, `{"key_id":"k","key_manager":"CUSTOMER","key_spec":"SYMMETRIC_DEFAULT","key_state":"Enabled","key_rotation_enabled":false}`)},
	"aws-kms-002":         {mk(inv.TypeKMSKey, `{"key_id":"k","key_state":"Enabled"}`), mk(inv.TypeKMSKey, `{"key_id":"k","key_state":"PendingDeletion","deletion_date":"2025-06-08T00:00:00Z"}`)},
	"aws-lambda-001":      {mk(inv.TypeLambdaFunction, `{"function_name":"f","function_url_auth_type":"AWS_IAM"}`), mk(inv.TypeLambdaFunction, `{"function_name":"f","function_url_auth_type":"NONE"}`)},
	"aws-lambda-002":      {mk(inv.TypeLambdaFunction, `{"function_name":"f","runtime":"python3.12"}`), mk(inv.TypeLambdaFunction, `{"function_name":"f","runtime":"nodejs14.x"}`)},
	"aws-lambda-003":      {mk(inv.TypeLambdaFunction, `{"function_name":"f","architectures":["arm64"]}`), mk(inv.TypeLambdaFunction, `{"function_name":"f","architectures":["x86_64"]}`)},
	"aws-lambda-004":      {mk(inv.TypeLambdaFunction, `{"function_name":"f","dead_letter_target_arn":"arn:aws:sqs:eu-west-1:111122223333:f-dlq"}`), mk(inv.TypeLambdaFunction, `{"dead_letter_target_arn":"","function_name":"f"}`)},
	"aws-cloudtrail-001":  {mk(inv.TypeCloudTrail, `{"name":"t","is_logging":true}`), mk(inv.TypeCloudTrail, `{"name":"t","is_logging":false}`)},
	"aws-cloudtrail-002":  {mk(inv.TypeCloudTrail, `{"name":"t","log_file_validation_enabled":true}`), mk(inv.TypeCloudTrail, `{"log_file_validation_enabled":false,"name":"t"}`)},
	"aws-cloudtrail-003":  {mk(inv.TypeCloudTrail, `{"name":"t","kms_key_id":"arn:aws:kms:eu-west-1:111122223333:key/1"}`), mk(inv.TypeCloudTrail, `{"kms_key_id":"","name":"t"}`)},
	"aws-cloudtrail-004":  {mk(inv.TypeCloudTrail, `{"name":"t","cloud_watch_logs_log_group_arn":"arn:aws:logs:eu-west-1:111122223333:log-group:ct"}`), mk(inv.TypeCloudTrail, `{"cloud_watch_logs_log_group_arn":"","name":"t"}`)},
	"aws-cloudtrail-005":  {mk(inv.TypeCloudTrail, `{"name":"t","s3_data_events":true}`), mk(inv.TypeCloudTrail, `{"name":"t","s3_data_events":false}`)},
	"aws-cloudfront-001":  {mk(inv.TypeCloudFrontDistribution, `{"distribution_id":"E1","viewer_protocol_policy":"redirect-to-https"}`), mk(inv.TypeCloudFrontDistribution, `{"distribution_id":"E1","viewer_protocol_policy":"allow-all"}`)},
	"aws-cloudfront-002":  {mk(inv.TypeCloudFrontDistribution, `{"distribution_id":"E1","minimum_protocol_version":"TLSv1.2_2021"}`), mk(inv.TypeCloudFrontDistribution, `{"distribution_id":"E1","minimum_protocol_version":"TLSv1_2016"}`)},
	"aws-cloudfront-003":  {mk(inv.TypeCloudFrontDistribution, `{"distribution_id":"E1","logging_bucket":"logs.s3.amazonaws.com"}`), mk(inv.TypeCloudFrontDistribution, `{"logging_bucket":"","distribution_id":"E1"}`)},
	"aws-elasticache-001": {mk(inv.TypeElastiCacheCluster, `{"cluster_id":"c","engine":"redis","transit_encryption_enabled":true}`), mk(inv.TypeElastiCacheCluster, `{"cluster_id":"c","engine":"redis","transit_encryption_enabled":false}`)},
	"aws-elasticache-002": {mk(inv.TypeElastiCacheCluster, `{"cluster_id":"c","node_type":"cache.r7g.large"}`), mk(inv.TypeElastiCacheCluster, `{"cluster_id":"c","node_type":"cache.m3.medium"}`)},
	"aws-elasticache-003": {mk(inv.TypeElastiCacheCluster, `{"cluster_id":"c","num_cache_nodes":2,"az_mode":"cross-az"}`), mk(inv.TypeElastiCacheCluster, `{"cluster_id":"c","num_cache_nodes":1,"az_mode":"single-az"}`)},
	"aws-elasticache-004": {mk(inv.TypeElastiCacheCluster, `{"cluster_id":"c","engine":"redis","snapshot_retention_limit":5}`), mk(inv.TypeElastiCacheCluster, `{"snapshot_retention_limit":0,"cluster_id":"c","engine":"redis"}`)},
	"aws-elasticache-005": {mk(inv.TypeElastiCacheCluster, `{"cluster_id":"c","engine":"redis","at_rest_encryption_enabled":true}`), mk(inv.TypeElastiCacheCluster, `{"at_rest_encryption_enabled":false,"cluster_id":"c","engine":"valkey"}`)},
	"aws-elb-001":         {mk(inv.TypeLB, `{"name":"lb","target_count":3}`), mk(inv.TypeLB, `{"name":"lb","target_count":0}`)},
	"aws-elb-002":         {mk(inv.TypeLB, `{"name":"lb","deletion_protection":true}`), mk(inv.TypeLB, `{"name":"lb","deletion_protection":false}`)},
	"aws-elb-003":         {mk(inv.TypeLB, `{"name":"lb","availability_zones":["eu-west-1a","eu-west-1b"]}`), mk(inv.TypeLB, `{"name":"lb","availability_zones":["eu-west-1a"]}`)},
	"aws-elb-004":         {mk(inv.TypeLB, `{"name":"lb","access_logs_enabled":true}`), mk(inv.TypeLB, `{"name":"lb","access_logs_enabled":false}`)},
	"aws-asg-001":         {mk(inv.TypeAutoScalingGroup, `{"name":"g","availability_zones":["eu-west-1a","eu-west-1b"]}`), mk(inv.TypeAutoScalingGroup, `{"name":"g","availability_zones":["eu-west-1a"]}`)},
	"aws-asg-002":         {mk(inv.TypeAutoScalingGroup, `{"name":"g","health_check_type":"ELB","target_group_arns":["tg"]}`), mk(inv.TypeAutoScalingGroup, `{"name":"g","health_check_type":"EC2","target_group_arns":["tg"]}`)},
	"aws-dynamodb-001":    {mk(inv.TypeDynamoDBTable, `{"name":"t","billing_mode":"PAY_PER_REQUEST"}`), mk(inv.TypeDynamoDBTable, `{"name":"t","billing_mode":"PROVISIONED","read_capacity":100,"autoscaling_enabled":false}`)},
	"aws-dynamodb-002":    {mk(inv.TypeDynamoDBTable, `{"name":"t","point_in_time_recovery":true}`), mk(inv.TypeDynamoDBTable, `{"name":"t","point_in_time_recovery":false}`)},
	"aws-dynamodb-003":    {mk(inv.TypeDynamoDBTable, `{"name":"t","deletion_protection_enabled":true}`), mk(inv.TypeDynamoDBTable, `{"name":"t","deletion_protection_enabled":false}`)},
	"aws-efs-001":         {mk(inv.TypeEFSFileSystem, `{"file_system_id":"fs-1","transition_to_ia":"AFTER_30_DAYS"}`), mk(inv.TypeEFSFileSystem, `{"transition_to_ia":"","file_system_id":"fs-1"}`)},
	"aws-efs-002":         {mk(inv.TypeEFSFileSystem, `{"file_system_id":"fs-1","backup_policy":"ENABLED"}`), mk(inv.TypeEFSFileSystem, `{"file_system_id":"fs-1","backup_policy":"DISABLED"}`)},
	"aws-efs-003":         {mk(inv.TypeEFSFileSystem, `{"file_system_id":"fs-1","encrypted":true}`), mk(inv.TypeEFSFileSystem, `{"encrypted":false,"file_system_id":"fs-1"}`)},
	"aws-sqs-001":         {mk(inv.TypeSQSQueue, `{"name":"jobs-dlq"}`), mk(inv.TypeSQSQueue, `{"dead_letter_target_arn":"","name":"jobs"}`)},
	"aws-sqs-002":         {mk(inv.TypeSQSQueue, `{"name":"q","sqs_managed_sse_enabled":true}`), mk(inv.TypeSQSQueue, `{"name":"q","sqs_managed_sse_enabled":false}`)},
	"aws-sns-001":         {mk(inv.TypeSNSTopic, `{"name":"t","kms_master_key_id":"alias/aws/sns"}`), mk(inv.TypeSNSTopic, `{"kms_master_key_id":"","name":"t"}`)},
	"aws-vpc-001":         {mk(inv.TypeVPC, `{"vpc_id":"vpc-1","flow_logs_enabled":true}`), mk(inv.TypeVPC, `{"vpc_id":"vpc-1","flow_logs_enabled":false}`)},
	"aws-config-001":      {mk(inv.TypeConfigRecorder, `{"name":"default","recording":true,"all_supported":true}`), mk(inv.TypeConfigRecorder, `{"all_supported":false,"name":"default","recording":true}`)},
	"aws-logs-001":        {mk(inv.TypeLogGroup, `{"name":"/app","retention_in_days":30}`), mk(inv.TypeLogGroup, `{"name":"/app","retention_in_days":0}`)},
	"aws-logs-002":        {mk(inv.TypeLogGroup, `{"name":"/app","kms_key_id":"arn:aws:kms:eu-west-1:111122223333:key/1"}`), mk(inv.TypeLogGroup, `{"kms_key_id":"","name":"/app"}`)},
	"aws-tag-001": {mk(inv.TypeInstance, `{}`, "Owner", "team-a", "Environment", "prod", "Cost-Center", "cc-1"),
		mk(inv.TypeInstance, `{}`, "owner", "team-a", "env", "prod")},
}

func firedIDs(vs []Violation) map[string]Violation {
	out := map[string]Violation{}
	for _, v := range vs {
		out[v.Rule.ID] = v
	}
	return out
}

func TestRules_PassAndFail(t *testing.T) {
	for _, r := range All() {
		if r.Account {
			continue
		}
		t.Run(r.ID, func(t *testing.T) {
			c, ok := ruleCases[r.ID]
			if !ok {
				c, ok = policyRuleCases[r.ID]
			}
			if _, cfg := configRuleCases[r.ID]; !ok && cfg {
				t.Skip("has AWS Config cases: TestConfigRules_PassAndFail")
			}
			if _, join := joinRuleCases[r.ID]; !ok && join {
				t.Skip("judged with its account's other resources: TestJoinRules_PassAndFail")
			}
			if !ok {
				t.Fatalf("rule %s has no test case", r.ID)
			}
			if v, fired := firedIDs(Evaluate(c.pass, testNow))[r.ID]; fired {
				t.Errorf("passing resource fired %s: %v", r.ID, v.Evidence)
			}
			v, fired := firedIDs(Evaluate(c.fail, testNow))[r.ID]
			if !fired {
				t.Fatalf("failing resource did not fire %s", r.ID)
			}
			if !v.Severity.Valid() || len(v.EvidenceJSON()) < 2 {
				t.Errorf("violation: severity %q, evidence %s", v.Severity, v.EvidenceJSON())
			}
		})
	}
	for id := range policyRuleCases {
		if _, ok := ruleCases[id]; ok {
			t.Errorf("rule %s has cases in both ruleCases and policyRuleCases", id)
		}
	}
	for id := range ruleCases {
		if _, ok := ByID(id); !ok {
			t.Errorf("test case for unknown rule %s", id)
		}
	}
}
