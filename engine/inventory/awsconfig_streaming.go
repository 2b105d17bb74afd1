package inventory

import (
	"encoding/json"
	"strings"
)

// Mappers of search and streaming types; property names from
// awslabs/aws-config-resource-schema (AWS::OpenSearch::Domain,
// AWS::Elasticsearch::Domain, AWS::Kinesis::Stream,
// AWS::KinesisFirehose::DeliveryStream, AWS::MSK::Cluster .properties.json).

// cfgOpenSearch maps AWS::OpenSearch::Domain (PascalCase: ClusterConfig,
// EngineVersion) and AWS::Elasticsearch::Domain (camelCase:
// elasticsearchClusterConfig, elasticsearchVersion); the other names agree
// but for case, which encoding/json ignores.
func cfgOpenSearch(_ *configItem, conf []byte, _ *joiner) (string, any, error) {
	type cluster struct {
		InstanceType  string   `json:"InstanceType"`
		InstanceCount flexInt  `json:"InstanceCount"`
		Dedicated     flexBool `json:"DedicatedMasterEnabled"`
		ZoneAware     flexBool `json:"ZoneAwarenessEnabled"`
	}
	type enabled struct {
		Enabled flexBool `json:"Enabled"`
	}
	var c struct {
		DomainName       string   `json:"DomainName"`
		EngineVersion    string   `json:"EngineVersion"`
		ESVersion        string   `json:"elasticsearchVersion"`
		Cluster          *cluster `json:"ClusterConfig"`
		ESCluster        *cluster `json:"elasticsearchClusterConfig"`
		EncryptionAtRest enabled  `json:"EncryptionAtRestOptions"`
		NodeToNode       enabled  `json:"NodeToNodeEncryptionOptions"`
		Endpoint         struct {
			EnforceHTTPS flexBool `json:"EnforceHTTPS"`
			TLSPolicy    string   `json:"TLSSecurityPolicy"`
		} `json:"DomainEndpointOptions"`
		VPC struct {
			Subnets StringList `json:"SubnetIds"`
		} `json:"VPCOptions"`
		Logs             map[string]enabled `json:"LogPublishingOptions"`
		AdvancedSecurity enabled            `json:"AdvancedSecurityOptions"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	d := OpenSearchDomain{DomainName: c.DomainName, EngineVersion: firstNonEmpty(c.EngineVersion, c.ESVersion),
		EncryptionAtRest: bool(c.EncryptionAtRest.Enabled), NodeToNodeEncryption: bool(c.NodeToNode.Enabled),
		EnforceHTTPS: bool(c.Endpoint.EnforceHTTPS), TLSSecurityPolicy: c.Endpoint.TLSPolicy, InVPC: len(c.VPC.Subnets) > 0,
		FineGrainedAccessControl: bool(c.AdvancedSecurity.Enabled)}
	for k, v := range c.Logs {
		switch strings.ToUpper(k) {
		case "AUDIT_LOGS":
			d.AuditLogsEnabled = bool(v.Enabled)
		case "ES_APPLICATION_LOGS":
			d.ErrorLogsEnabled = bool(v.Enabled)
		}
	}
	cl := c.Cluster
	if cl == nil {
		cl = c.ESCluster
	}
	if cl != nil {
		d.InstanceType, d.InstanceCount = cl.InstanceType, int(cl.InstanceCount)
		d.DedicatedMasterEnabled, d.ZoneAwarenessEnabled = bool(cl.Dedicated), bool(cl.ZoneAware)
	}
	return TypeOpenSearchDomain, d, nil
}

// cfgKinesisStream maps AWS::Kinesis::Stream.
func cfgKinesisStream(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name       string  `json:"Name"`
		Retention  flexInt `json:"RetentionPeriodHours"`
		Encryption struct {
			Type string `json:"EncryptionType"`
		} `json:"StreamEncryption"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	return TypeKinesisStream, KinesisStream{Name: firstNonEmpty(c.Name, ci.ResourceName), RetentionPeriodHours: int(c.Retention),
		EncryptionType: c.Encryption.Type}, nil
}

// firehoseDestinations are the destination blocks of a delivery stream.
var firehoseDestinations = []string{"ExtendedS3DestinationConfiguration", "S3DestinationConfiguration", "RedshiftDestinationConfiguration",
	"ElasticsearchDestinationConfiguration", "AmazonopensearchserviceDestinationConfiguration",
	"AmazonOpenSearchServerlessDestinationConfiguration", "SplunkDestinationConfiguration", "HttpEndpointDestinationConfiguration"}

// cfgFirehose maps AWS::KinesisFirehose::DeliveryStream: server-side
// encryption from DeliveryStreamEncryptionConfigurationInput.KeyType, error
// logging from the destination's CloudWatchLoggingOptions.Enabled.
func cfgFirehose(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	type dest struct {
		Logging struct {
			Enabled flexBool `json:"Enabled"`
		} `json:"CloudWatchLoggingOptions"`
	}
	var c struct {
		Name string `json:"DeliveryStreamName"`
		Type string `json:"DeliveryStreamType"`
		SSE  struct {
			KeyType string `json:"KeyType"`
		} `json:"DeliveryStreamEncryptionConfigurationInput"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	f := FirehoseStream{Name: firstNonEmpty(c.Name, ci.ResourceName), SourceType: c.Type, SSEKeyType: c.SSE.KeyType}
	if conf != nil {
		var all map[string]json.RawMessage
		if err := decodeConf(conf, &all); err != nil {
			return "", nil, err
		}
		for k, raw := range all {
			for _, name := range firehoseDestinations {
				if !strings.EqualFold(k, name) {
					continue
				}
				var d dest
				if err := decodeConf(jsonObject(raw), &d); err != nil {
					return "", nil, err
				}
				on := bool(d.Logging.Enabled) || f.ErrorLoggingEnabled != nil && *f.ErrorLoggingEnabled
				f.ErrorLoggingEnabled = &on
			}
		}
	}
	return TypeFirehoseStream, f, nil
}

// cfgMSK maps AWS::MSK::Cluster.
func cfgMSK(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	type enabled struct {
		Enabled flexBool `json:"Enabled"`
	}
	var c struct {
		Name   string `json:"ClusterName"`
		Broker struct {
			Connectivity struct {
				Public struct {
					Type string `json:"Type"`
				} `json:"PublicAccess"`
			} `json:"ConnectivityInfo"`
		} `json:"BrokerNodeGroupInfo"`
		Auth struct {
			Unauthenticated enabled `json:"Unauthenticated"`
		} `json:"ClientAuthentication"`
		Encryption struct {
			Transit struct {
				ClientBroker string    `json:"ClientBroker"`
				InCluster    *flexBool `json:"InCluster"`
			} `json:"EncryptionInTransit"`
		} `json:"EncryptionInfo"`
		Logging struct {
			Broker struct {
				CloudWatch enabled `json:"CloudWatchLogs"`
				Firehose   enabled `json:"Firehose"`
				S3         enabled `json:"S3"`
			} `json:"BrokerLogs"`
		} `json:"LoggingInfo"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	b := c.Logging.Broker
	return TypeMSKCluster, MSKCluster{ClusterName: firstNonEmpty(c.Name, ci.ResourceName),
		ClientBrokerEncryption: c.Encryption.Transit.ClientBroker, InClusterEncryption: c.Encryption.Transit.InCluster.ptr(),
		UnauthenticatedAccess: bool(c.Auth.Unauthenticated.Enabled),
		PublicAccess:          c.Broker.Connectivity.Public.Type == "SERVICE_PROVIDED_EIPS",
		BrokerLogsEnabled:     bool(b.CloudWatch.Enabled) || bool(b.Firehose.Enabled) || bool(b.S3.Enabled)}, nil
}
