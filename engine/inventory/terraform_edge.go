package inventory

import (
	"encoding/json"
	"strings"
)

// Terraform mappers of the edge family: aws_cloudfront_distribution, and,
// from the AWS provider's attribute references (registry.terraform.io/
// providers/hashicorp/aws/latest/docs), aws_api_gateway_stage,
// aws_apigatewayv2_stage, aws_networkfirewall_firewall and
// aws_wafv2_web_acl. Facts kept in other resources the importer does not
// join (a stage's aws_api_gateway_method_settings) stay unknown.

type tfAccessLogs = tfBlock[struct {
	DestinationARN string `json:"destination_arn"`
}]

func tfAPIGatewayStage(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		StageName string       `json:"stage_name"`
		AccessLog tfAccessLogs `json:"access_log_settings"`
		Tracing   bool         `json:"xray_tracing_enabled"`
		Cache     bool         `json:"cache_cluster_enabled"`
		WebACLARN string       `json:"web_acl_arn"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	st := &APIGatewayStage{StageName: firstNonEmpty(t.StageName, c.ID), TracingEnabled: t.Tracing, CacheClusterEnabled: t.Cache, WebACLARN: t.WebACLARN}
	if l, ok := t.AccessLog.first(); ok {
		st.AccessLogDestinationARN = l.DestinationARN
	}
	return st, nil
}

func tfAPIGatewayV2Stage(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		AccessLog tfAccessLogs `json:"access_log_settings"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	st := &APIGatewayV2Stage{StageName: firstNonEmpty(c.Name, c.ID)}
	if l, ok := t.AccessLog.first(); ok {
		st.AccessLogDestinationARN = l.DestinationARN
	}
	return st, nil
}

func tfNetworkFirewall(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		VPCID   string `json:"vpc_id"`
		Subnets []struct {
			SubnetID string `json:"subnet_id"`
		} `json:"subnet_mapping"`
		DeleteProtection       bool `json:"delete_protection"`
		SubnetChangeProtection bool `json:"subnet_change_protection"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	f := &NetworkFirewall{Name: firstNonEmpty(c.Name, c.ID), VPCID: t.VPCID, SubnetIDs: []string{}, DeleteProtection: t.DeleteProtection,
		SubnetChangeProtection: t.SubnetChangeProtection}
	for _, s := range t.Subnets {
		f.SubnetIDs = append(f.SubnetIDs, s.SubnetID)
	}
	return f, nil
}

// tfChosen is a Terraform block of alternatives ({"allow": [{}], "block":
// []}): the one that is set, "" when none is.
func tfChosen(alts map[string]json.RawMessage) string {
	for k, v := range alts {
		var set []json.RawMessage
		if json.Unmarshal(v, &set) == nil && len(set) > 0 {
			return strings.ToLower(k)
		}
	}
	return ""
}

func tfWAFv2WebACL(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		DefaultAction tfBlock[map[string]json.RawMessage] `json:"default_action"`
		Rules         []struct {
			Action   tfBlock[map[string]json.RawMessage] `json:"action"`
			Override tfBlock[map[string]json.RawMessage] `json:"override_action"`
		} `json:"rule"`
		Visibility tfBlock[struct {
			Metrics bool `json:"cloudwatch_metrics_enabled"`
		}] `json:"visibility_config"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	w := &WAFv2WebACL{Name: firstNonEmpty(c.Name, c.ID)}
	if d, ok := t.DefaultAction.first(); ok {
		w.DefaultAction = tfChosen(d)
	}
	if n := len(t.Rules); n > 0 {
		// No rule block may also mean rules kept by other resources
		// (aws_wafv2_web_acl_rule_group_association) that the state of the
		// web ACL does not list: unknown, not zero.
		w.RuleCount = &n
	}
	for _, r := range t.Rules {
		a, _ := r.Action.first()
		o, _ := r.Override.first()
		if tfChosen(a) == "count" || tfChosen(o) == "count" {
			w.CountingRules++
		}
	}
	if v, ok := t.Visibility.first(); ok {
		w.CloudWatchMetricsEnabled = v.Metrics
	}
	return w, nil
}

func tfCloudFront(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		DomainName string `json:"domain_name"`
		Enabled    bool   `json:"enabled"`
		Default    tfBlock[struct {
			ViewerProtocolPolicy string `json:"viewer_protocol_policy"`
		}] `json:"default_cache_behavior"`
		Cert tfBlock[struct {
			MinimumProtocolVersion string `json:"minimum_protocol_version"`
			DefaultCertificate     bool   `json:"cloudfront_default_certificate"`
		}] `json:"viewer_certificate"`
		Logging tfBlock[struct {
			Bucket string `json:"bucket"`
		}] `json:"logging_config"`
		WebACLID   string `json:"web_acl_id"`
		PriceClass string `json:"price_class"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	d := &CloudFrontDistribution{DistributionID: c.ID, DomainName: t.DomainName, Enabled: t.Enabled,
		WebACLID: t.WebACLID, PriceClass: t.PriceClass}
	if b, ok := t.Default.first(); ok {
		d.ViewerProtocolPolicy = b.ViewerProtocolPolicy
	}
	if cert, ok := t.Cert.first(); ok {
		d.MinimumProtocolVersion = cert.MinimumProtocolVersion
		if cert.DefaultCertificate {
			d.MinimumProtocolVersion = "TLSv1" // the default certificate allows TLS 1.0
		}
	}
	if l, ok := t.Logging.first(); ok {
		d.LoggingBucket = l.Bucket
	}
	return d, nil
}
