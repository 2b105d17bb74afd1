package inventory

import "strings"

// The absent-key rule for Terraform: the AWS provider writes every
// attribute of its schema into the state (null when unset), so a key
// missing from a resource's attributes is a fact the state does not hold
// (a state written by an older provider, or by hand), not "off". For the
// attributes checks judge with, tfSources names the Terraform attribute
// each canonical attribute comes from ("canonical=tf_attr", several
// Terraform names joined by "|"); tfRecordedOnly leaves a canonical
// attribute out when none of its sources is in the state. A source may
// name an attribute of a nested block, "block.attr": every element of the
// block must carry it (an empty block list records "none").
var tfSources = map[string][]string{
	"aws_db_instance": {"storage_encrypted=storage_encrypted", "multi_az=multi_az", "backup_retention_period=backup_retention_period",
		"deletion_protection=deletion_protection", "auto_minor_version_upgrade=auto_minor_version_upgrade",
		"publicly_accessible=publicly_accessible"},
	"aws_db_snapshot":         {"encrypted=encrypted"},
	"aws_ebs_snapshot":        {"encrypted=encrypted"},
	"aws_ebs_volume":          {"encrypted=encrypted"},
	"aws_efs_file_system":     {"encrypted=encrypted", "transition_to_ia=lifecycle_policy.transition_to_ia"},
	"aws_elasticache_cluster": {"az_mode=az_mode", "num_cache_nodes=num_cache_nodes", "snapshot_retention_limit=snapshot_retention_limit"},
	"aws_cloudtrail": {"cloud_watch_logs_log_group_arn=cloud_watch_logs_group_arn", "log_file_validation_enabled=enable_log_file_validation",
		"kms_key_id=kms_key_id", "is_multi_region_trail=is_multi_region_trail", "s3_data_events=event_selector.data_resource"},
	"aws_cloudwatch_log_group":          {"kms_key_id=kms_key_id", "retention_in_days=retention_in_days"},
	"aws_config_configuration_recorder": {"all_supported=recording_group.all_supported", "include_global_resource_types=recording_group.include_global_resource_types"},
	"aws_api_gateway_stage": {"access_log_destination_arn=access_log_settings.destination_arn", "web_acl_arn=web_acl_arn",
		"tracing_enabled=xray_tracing_enabled"},
	"aws_apigatewayv2_stage":      {"access_log_destination_arn=access_log_settings.destination_arn"},
	"aws_autoscaling_group":       {"health_check_type=health_check_type", "min_size=min_size"},
	"aws_cloudfront_distribution": {"logging_bucket=logging_config"},
	"aws_eks_cluster": {"logging_enabled=enabled_cluster_log_types", "secrets_kms_key_arn=encryption_config.provider",
		"secrets_kms_key_arn=encryption_config.resources"},
	"aws_elb":                      {"availability_zones=availability_zones", "instance_ids=instances"},
	"aws_instance":                 {"metadata_http_tokens=metadata_options.http_tokens"},
	"aws_kms_key":                  {"key_state=is_enabled"},
	"aws_lambda_function":          {"architectures=architectures", "dead_letter_target_arn=dead_letter_config.target_arn", "tracing_mode=tracing_config.mode"},
	"aws_network_acl":              {"subnet_ids=subnet_ids"},
	"aws_networkfirewall_firewall": {"delete_protection=delete_protection", "subnet_change_protection=subnet_change_protection", "subnet_ids=subnet_mapping"},
	"aws_sns_topic":                {"kms_master_key_id=kms_master_key_id"},
	"aws_sqs_queue":                {"dead_letter_target_arn=redrive_policy"},
	"aws_vpc_endpoint":             {"subnet_ids=subnet_ids"},
	"aws_wafv2_web_acl":            {"cloudwatch_metrics_enabled=visibility_config.cloudwatch_metrics_enabled"},
	"aws_guardduty_detector":       {"enabled=enable"},
	"aws_iam_role":                 {"attached_policy_arns=managed_policy_arns", "inline_policies=inline_policy"},
	"aws_security_group": {"ingress=ingress.from_port", "ingress=ingress.to_port", "ingress=ingress.protocol",
		"egress=egress.from_port", "egress=egress.to_port", "egress=egress.protocol"},
	"aws_dynamodb_table": {"point_in_time_recovery=point_in_time_recovery.enabled"},
	"aws_lb":             {"access_logs_enabled=access_logs.enabled"},
}

// tfRecordedOnly returns v without the canonical attributes of a resource
// of Terraform type typ whose sources its attributes lack.
func tfRecordedOnly(typ string, attrs []byte, v any) any {
	sources, ok := tfSources[typ]
	if !ok {
		return v
	}
	if unknown := tfMissing(attrs, sources); len(unknown) > 0 {
		return unrecorded{attrs: v, keys: unknown}
	}
	return v
}

// tfMissing returns the canonical attributes of sources ("canonical=tf_attr")
// whose Terraform attributes attrs lacks.
func tfMissing(attrs []byte, sources []string) []string {
	var unknown []string
	for _, s := range sources {
		attr, keys, _ := strings.Cut(s, "=")
		found := false
		for k := range strings.SplitSeq(keys, "|") {
			if strings.Contains(k, ".") { // a block's attribute: in every element of the block
				found = found || hasPath(attrs, k)
			} else {
				found = found || hasExactKey(attrs, k)
			}
		}
		if !found {
			unknown = append(unknown, attr)
		}
	}
	return unknown
}

// hasExactKey reports whether the JSON object b has key at its top level,
// spelled exactly (Terraform's attribute names), without allocating.
func hasExactKey(b []byte, key string) bool {
	found := false
	eachKey(b, func(name []byte) bool {
		found = string(name) == key
		return !found
	})
	return found
}
