package rules

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// passesWithoutData are the checks that still pass on a resource whose
// source recorded none of its attributes ({}), one "rule type" per line.
// Their failing condition needs a non-zero value (an open port, a
// privileged container, a public principal), so an absent attribute cannot
// make them fire, but a pass on nothing read is not evidence either: the
// compliance posture counts these resources as passing and the evidence
// report may sample them. Issue 29 §2 asks for "not evaluated" here. The
// list only shrinks: TestRules_PassNeedsData fails on a new entry and on
// an entry that no longer passes without data.
var passesWithoutData = strings.Fields(`
aws-acm-001/aws_acm_certificate aws-acm-002/aws_acm_certificate aws-acm-003/aws_acm_certificate
aws-apigateway-005/aws_api_gateway_stage aws-asg-001/aws_autoscaling_group aws-asg-002/aws_autoscaling_group
aws-asg-005/aws_autoscaling_group aws-asg-006/aws_launch_configuration aws-asg-007/aws_autoscaling_group
aws-backup-001/aws_backup_plan aws-backup-002/aws_backup_plan aws-cloudfront-001/aws_cloudfront_distribution
aws-cloudfront-002/aws_cloudfront_distribution aws-cloudfront-004/aws_cloudfront_distribution
aws-codebuild-001/aws_codebuild_project aws-codebuild-002/aws_codebuild_project aws-codebuild-003/aws_codebuild_project
aws-codebuild-004/aws_codebuild_project aws-codebuild-005/aws_codebuild_project
aws-cognito-001/aws_cognito_identity_pool aws-cognito-002/aws_cognito_identity_pool
aws-cognito-005/aws_cognito_user_pool_client aws-cognito-006/aws_cognito_user_pool_client
aws-dynamodb-001/aws_dynamodb_table aws-dynamodb-004/aws_dynamodb_table aws-ebs-004/aws_ebs_volume
aws-ebs-005/aws_ebs_volume aws-ebs-006/aws_ebs_snapshot aws-ebs-007/aws_ebs_volume aws-ebs-008/aws_ebs_volume
aws-ec2-001/aws_security_group aws-ec2-002/aws_security_group aws-ec2-003/aws_security_group
aws-ec2-004/aws_security_group aws-ec2-005/aws_security_group aws-ec2-006/aws_security_group
aws-ec2-008/aws_instance aws-ec2-010/aws_instance aws-ec2-011/aws_instance aws-ec2-012/aws_instance
aws-ec2-014/aws_launch_template aws-ec2-015/aws_launch_template aws-ec2-016/aws_instance
aws-ecr-001/aws_ecr_repository aws-ecs-001/aws_ecs_task_definition aws-ecs-002/aws_ecs_task_definition
aws-ecs-003/aws_ecs_task_definition aws-ecs-004/aws_ecs_task_definition aws-ecs-005/aws_ecs_task_definition
aws-ecs-006/aws_ecs_task_definition aws-ecs-007/aws_ecs_task_definition aws-ecs-008/aws_ecs_task_definition
aws-ecs-009/aws_ecs_task_definition aws-ecs-010/aws_ecs_task_definition aws-ecs-012/aws_ecs_cluster
aws-ecs-013/aws_ecs_service aws-ecs-014/aws_ecs_service aws-ecs-016/aws_ecs_service aws-ecs-017/aws_ecs_cluster
aws-efs-002/aws_efs_file_system aws-eks-004/aws_eks_cluster aws-eks-005/aws_eks_cluster
aws-elasticache-002/aws_elasticache_cluster aws-elasticache-006/aws_elasticache_cluster aws-elb-001/aws_lb
aws-elb-003/aws_lb aws-elb-007/aws_elb_classic aws-elb-008/aws_elb_classic aws-elb-010/aws_lb_listener
aws-elb-011/aws_lb_listener aws-elb-012/aws_lb aws-elb-013/aws_lb aws-elb-014/aws_lb
aws-guardduty-001/aws_guardduty_detector aws-guardduty-002/aws_guardduty_detector aws-iam-002/aws_iam_access_key
aws-iam-003/aws_iam_access_key aws-iam-006/aws_iam_user aws-iam-007/aws_iam_account aws-iam-010/aws_iam_user
aws-iam-013/aws_iam_role aws-iam-014/aws_iam_group aws-iam-017/aws_iam_group aws-iam-017/aws_iam_role
aws-iam-017/aws_iam_user aws-iam-023/aws_iam_group aws-iam-023/aws_iam_role aws-iam-023/aws_iam_user
aws-iam-024/aws_iam_group aws-iam-024/aws_iam_role aws-iam-024/aws_iam_user aws-kms-001/aws_kms_key
aws-kms-002/aws_kms_key aws-kms-004/aws_kms_key aws-lambda-001/aws_lambda_function aws-lambda-002/aws_lambda_function
aws-lambda-006/aws_lambda_function aws-msk-003/aws_msk_cluster aws-msk-004/aws_msk_cluster
aws-opensearch-010/aws_opensearch_domain aws-rds-001/aws_db_instance aws-rds-003/aws_db_instance
aws-rds-004/aws_db_instance aws-rds-014/aws_rds_cluster aws-rds-017/aws_rds_cluster aws-rds-018/aws_rds_cluster
aws-redshift-001/aws_redshift_cluster aws-redshift-007/aws_redshift_cluster aws-redshift-008/aws_redshift_cluster
aws-redshift-009/aws_redshift_cluster aws-s3-009/aws_s3_bucket aws-sagemaker-001/aws_sagemaker_notebook_instance
aws-sagemaker-005/aws_sagemaker_notebook_instance aws-sagemaker-006/aws_sagemaker_endpoint_configuration
aws-sagemaker-007/aws_sagemaker_endpoint_configuration aws-secretsmanager-003/aws_secretsmanager_secret
aws-sns-002/aws_sns_topic aws-sqs-003/aws_sqs_queue aws-vpc-002/aws_network_acl aws-vpc-003/aws_subnet
aws-vpc-005/aws_route_table aws-vpc-006/aws_nat_gateway aws-vpc-007/aws_vpc_endpoint aws-vpc-008/aws_transit_gateway
aws-vpc-009/aws_vpn_connection
`)

// TestRules_PassNeedsData runs every check that reads a resource alone on
// each of its types with no attributes (and the tags aws-tag-001 asks for)
// and asks that it not pass: with nothing recorded it is not evaluated.
// The checks listed in passesWithoutData are the known exceptions.
func TestRules_PassNeedsData(t *testing.T) {
	var types []string
	for _, r := range All() {
		for _, typ := range r.ResourceTypes {
			if !slices.Contains(types, typ) {
				types = append(types, typ)
			}
		}
	}
	got := map[string]bool{}
	for _, typ := range types {
		for _, c := range Explain(mk(typ, `{}`, fullyTagged...), nil, testNow) {
			if c.Outcome != OutcomePassed || c.Scope != ScopeResource || c.Rule.ID == "aws-tag-001" {
				continue // aws-tag-001 reads the tags, which are given
			}
			got[c.Rule.ID+"/"+typ] = true
		}
	}
	for k := range got {
		if !slices.Contains(passesWithoutData, k) {
			t.Errorf("%s passes on a resource with no recorded attributes: report it not evaluated", k)
		}
	}
	for _, k := range passesWithoutData {
		if !got[k] {
			t.Errorf("%s no longer passes without data: remove it from passesWithoutData", k)
		}
	}
	if t.Failed() {
		fmt.Printf("%d checks pass without data, %d listed\n", len(got), len(passesWithoutData))
	}
}
