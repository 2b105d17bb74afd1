package inventory

import (
	"encoding/json"
	"strings"
)

// AWS Config mappers of the edge family. Shapes: awslabs/
// aws-config-resource-schema, config/properties/resource-types/
// AWS::ApiGateway::Stage, AWS::ApiGatewayV2::Stage, AWS::WAFv2::WebACL,
// AWS::Route53::HostedZone (CloudFormation-style capitalized names),
// AWS::ACM::Certificate, AWS::NetworkFirewall::Firewall, and
// AWS::CloudFront::Distribution.

// cfgList is a list AWS Config writes either as a JSON array or, in the
// shapes of the SDK's first version (CloudFront), as {"quantity", "items"}.
type cfgList[T any] []T

func (l *cfgList[T]) UnmarshalJSON(b []byte) error {
	var items []T
	if json.Unmarshal(b, &items) == nil {
		*l = items
		return nil
	}
	var o struct {
		Items []T `json:"items"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return err
	}
	*l = o.Items
	return nil
}

func cfgAPIGatewayStage(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		StageName string `json:"stageName"`
		AccessLog struct {
			DestinationARN string `json:"destinationArn"`
		} `json:"accessLogSettings"`
		WebACLARN      string                     `json:"webAclArn"`
		Tracing        flexBool                   `json:"tracingEnabled"`
		Cache          flexBool                   `json:"cacheClusterEnabled"`
		MethodSettings map[string]json.RawMessage `json:"methodSettings"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	st := APIGatewayStage{StageName: c.StageName, AccessLogDestinationARN: c.AccessLog.DestinationARN, WebACLARN: c.WebACLARN,
		TracingEnabled: bool(c.Tracing), CacheClusterEnabled: bool(c.Cache)}
	if st.StageName == "" {
		st.StageName = ci.ResourceName
	}
	if c.MethodSettings != nil {
		// The settings of all methods ("*/*"); without them the stage's
		// methods run with API Gateway's defaults: logging off, cache
		// unencrypted.
		var all struct {
			LoggingLevel string   `json:"loggingLevel"`
			Encrypted    flexBool `json:"cacheDataEncrypted"`
		}
		if raw, ok := c.MethodSettings["*/*"]; ok {
			if err := json.Unmarshal(raw, &all); err != nil {
				return "", nil, err
			}
		}
		st.ExecutionLoggingLevel = strings.ToUpper(all.LoggingLevel)
		if st.ExecutionLoggingLevel == "" {
			st.ExecutionLoggingLevel = "OFF"
		}
		st.CacheDataEncrypted = boolPtr(bool(all.Encrypted))
	}
	return TypeAPIGatewayStage, recordedOnly(ci, conf, st, "access_log_destination_arn=?accessLogSettings.?destinationArn", "web_acl_arn=?webAclArn", "tracing_enabled=?tracingEnabled", "cache_cluster_enabled=?cacheClusterEnabled",
		"execution_logging_level=?methodSettings.?*/*", "cache_data_encrypted=?methodSettings.?*/*"), nil
}

func cfgAPIGatewayV2Stage(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		StageName string `json:"stageName"`
		AccessLog struct {
			DestinationARN string `json:"destinationArn"`
		} `json:"accessLogSettings"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	st := APIGatewayV2Stage{StageName: c.StageName, AccessLogDestinationARN: c.AccessLog.DestinationARN}
	if st.StageName == "" {
		st.StageName = ci.ResourceName
	}
	return TypeAPIGatewayV2Stage, recordedOnly(ci, conf, st, "access_log_destination_arn=?accessLogSettings.?destinationArn"), nil
}

func cfgWAFv2WebACL(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name          string                     `json:"name"`
		DefaultAction map[string]json.RawMessage `json:"defaultAction"`
		Rules         *[]struct {
			Action   map[string]json.RawMessage `json:"action"`
			Override map[string]json.RawMessage `json:"overrideAction"`
		} `json:"rules"`
		Visibility struct {
			Metrics flexBool `json:"cloudWatchMetricsEnabled"`
		} `json:"visibilityConfig"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	w := WAFv2WebACL{Name: c.Name, CloudWatchMetricsEnabled: bool(c.Visibility.Metrics)}
	if w.Name == "" {
		w.Name = ci.ResourceName
	}
	for k := range c.DefaultAction {
		w.DefaultAction = strings.ToLower(k)
	}
	if c.Rules != nil {
		n := len(*c.Rules)
		w.RuleCount = &n
		for _, r := range *c.Rules {
			if hasKeyFold(r.Action, "count") || hasKeyFold(r.Override, "count") {
				w.CountingRules++
			}
		}
	}
	return TypeWAFv2WebACL, recordedOnly(ci, conf, w, "cloudwatch_metrics_enabled=visibilityConfig.cloudWatchMetricsEnabled"), nil
}

// hasKeyFold reports whether m has key k, ignoring case.
func hasKeyFold(m map[string]json.RawMessage, k string) bool {
	for key := range m {
		if strings.EqualFold(key, k) {
			return true
		}
	}
	return false
}

func cfgRoute53Zone(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		ID       string `json:"Id"`
		Name     string `json:"Name"`
		QueryLog *struct {
			Group json.RawMessage `json:"CloudWatchLogsLogGroupArn"`
		} `json:"QueryLoggingConfig"`
		VPCs []json.RawMessage `json:"VPCs"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	z := Route53HostedZone{ZoneID: c.ID, Name: c.Name, Private: len(c.VPCs) > 0}
	if z.ZoneID == "" {
		z.ZoneID = ci.ResourceID
	}
	if c.QueryLog != nil && len(c.QueryLog.Group) > 0 {
		// The schema nests the group's ARN one level deeper
		// (QueryLoggingConfig.CloudWatchLogsLogGroupArn.CloudWatchLogsLogGroupArn);
		// CloudFormation's shape has it directly: accept both.
		var arn string
		if json.Unmarshal(c.QueryLog.Group, &arn) != nil {
			var o struct {
				ARN string `json:"CloudWatchLogsLogGroupArn"`
			}
			_ = json.Unmarshal(c.QueryLog.Group, &o)
			arn = o.ARN
		}
		z.QueryLogGroupARN = arn
	}
	return TypeRoute53Zone, recordedOnly(ci, conf, z, "query_log_group_arn=?QueryLoggingConfig.CloudWatchLogsLogGroupArn", "private=?VPCs|HostedZoneConfig"), nil
}

func cfgACMCertificate(_ *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		DomainName string   `json:"domainName"`
		Type       string   `json:"type"`
		Status     string   `json:"status"`
		KeyAlgo    string   `json:"keyAlgorithm"`
		NotAfter   flexTime `json:"notAfter"`
		InUseBy    []string `json:"inUseBy"`
		Options    struct {
			CT string `json:"certificateTransparencyLoggingPreference"`
		} `json:"options"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	// ACM writes key algorithms as RSA_2048 (API) or RSA-2048 (console,
	// older items): keep the API's spelling.
	return TypeACMCertificate, ACMCertificate{DomainName: c.DomainName, Type: c.Type, Status: c.Status,
		KeyAlgorithm: strings.ReplaceAll(c.KeyAlgo, "-", "_"), NotAfter: c.NotAfter.t(), InUseBy: c.InUseBy,
		TransparencyLogging: strings.ToUpper(c.Options.CT)}, nil
}

func cfgNetworkFirewall(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	type firewall struct {
		Name    string `json:"firewallName"`
		VPCID   string `json:"vpcId"`
		Subnets []struct {
			SubnetID string `json:"subnetId"`
		} `json:"subnetMappings"`
		DeleteProtection       flexBool `json:"deleteProtection"`
		SubnetChangeProtection flexBool `json:"subnetChangeProtection"`
	}
	var c struct {
		Firewall *firewall `json:"firewall"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	if c.Firewall == nil { // the firewall's fields at the top level
		c.Firewall = new(firewall)
		if err := decodeConf(conf, c.Firewall); err != nil {
			return "", nil, err
		}
	}
	f := c.Firewall
	n := NetworkFirewall{Name: f.Name, VPCID: f.VPCID, SubnetIDs: []string{}, DeleteProtection: bool(f.DeleteProtection),
		SubnetChangeProtection: bool(f.SubnetChangeProtection)}
	if n.Name == "" {
		n.Name = ci.ResourceName
	}
	for _, s := range f.Subnets {
		n.SubnetIDs = append(n.SubnetIDs, s.SubnetID)
	}
	return TypeNetworkFirewall, recordedOnly(ci, conf, n, "delete_protection=firewall.deleteProtection", "subnet_change_protection=firewall.subnetChangeProtection", "subnet_ids=firewall.subnetMappings"), nil
}

// cfgCloudFrontOrigin is one origin of distributionConfig.origins.
type cfgCloudFrontOrigin struct {
	ID       string `json:"id"`
	S3Config *struct {
		OAI string `json:"originAccessIdentity"`
	} `json:"s3OriginConfig"`
	OAC          string `json:"originAccessControlId"`
	CustomConfig *struct {
		ProtocolPolicy string          `json:"originProtocolPolicy"`
		SSLProtocols   cfgList[string] `json:"originSslProtocols"`
	} `json:"customOriginConfig"`
}

// cloudFrontOrigins maps the recorded origins; nil when there are none.
func cloudFrontOrigins(in cfgList[cfgCloudFrontOrigin]) []CloudFrontOrigin {
	if in == nil {
		return nil
	}
	out := []CloudFrontOrigin{}
	for _, o := range in {
		co := CloudFrontOrigin{ID: o.ID, OriginAccess: o.OAC}
		if o.S3Config != nil {
			co.S3 = true
			if co.OriginAccess == "" {
				co.OriginAccess = o.S3Config.OAI
			}
		}
		if o.CustomConfig != nil {
			co.ProtocolPolicy, co.SSLProtocols = o.CustomConfig.ProtocolPolicy, o.CustomConfig.SSLProtocols
		}
		out = append(out, co)
	}
	return out
}

func cfgCloudFront(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		ID     string `json:"id"`
		Domain string `json:"domainName"`
		Config struct {
			Enabled flexBool `json:"enabled"`
			Default struct {
				ViewerProtocolPolicy string `json:"viewerProtocolPolicy"`
			} `json:"defaultCacheBehavior"`
			Certificate struct {
				MinimumProtocolVersion string `json:"minimumProtocolVersion"`
			} `json:"viewerCertificate"`
			Logging struct {
				Enabled flexBool `json:"enabled"`
				Bucket  string   `json:"bucket"`
			} `json:"logging"`
			WebACLID   string                       `json:"webACLId"`
			PriceClass string                       `json:"priceClass"`
			Origins    cfgList[cfgCloudFrontOrigin] `json:"origins"`
		} `json:"distributionConfig"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	d := CloudFrontDistribution{DistributionID: c.ID, DomainName: c.Domain, Enabled: bool(c.Config.Enabled),
		ViewerProtocolPolicy: c.Config.Default.ViewerProtocolPolicy, MinimumProtocolVersion: c.Config.Certificate.MinimumProtocolVersion,
		WebACLID: c.Config.WebACLID, PriceClass: c.Config.PriceClass, Origins: cloudFrontOrigins(c.Config.Origins)}
	if c.Config.Logging.Enabled {
		d.LoggingBucket = c.Config.Logging.Bucket
	}
	return TypeCloudFrontDistribution, recordedOnly(ci, conf, d, "enabled=distributionConfig", "viewer_protocol_policy=distributionConfig", "minimum_protocol_version=distributionConfig", "logging_bucket=distributionConfig.logging", "web_acl_id=distributionConfig.?webACLId", "origins=distributionConfig"), nil
}
