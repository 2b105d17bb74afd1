package inventory

import (
	"encoding/json"
	"strings"
)

// Mappers of queues, topics and streams: AWS::SQS::Queue, AWS::SNS::Topic,
// and the streams, whose property names come from
// awslabs/aws-config-resource-schema (AWS::Kinesis::Stream,
// AWS::KinesisFirehose::DeliveryStream, AWS::MSK::Cluster .properties.json).

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
	return TypeKinesisStream, recordedOnly(ci, conf, KinesisStream{Name: firstNonEmpty(c.Name, ci.ResourceName), RetentionPeriodHours: int(c.Retention),
		EncryptionType: c.Encryption.Type}, "retention_period_hours=RetentionPeriodHours", "encryption_type=?StreamEncryption.EncryptionType"), nil
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
		Logging *struct {
			Enabled *flexBool `json:"Enabled"`
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
	// A destination without CloudWatchLoggingOptions.Enabled has error
	// logging off in a whole item; in a partial one it is unknown.
	unknownLogging := false
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
				enabled := d.Logging != nil && d.Logging.Enabled != nil && bool(*d.Logging.Enabled)
				unknownLogging = unknownLogging || ci.partial && (d.Logging == nil || d.Logging.Enabled == nil)
				on := enabled || f.ErrorLoggingEnabled != nil && *f.ErrorLoggingEnabled
				f.ErrorLoggingEnabled = &on
			}
		}
	}
	if unknownLogging && !*f.ErrorLoggingEnabled {
		f.ErrorLoggingEnabled = nil
	}
	return TypeFirehoseStream, recordedOnly(ci, conf, f, "sse_key_type=?DeliveryStreamEncryptionConfigurationInput.KeyType", "delivery_stream_type=DeliveryStreamType"), nil
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
	return TypeMSKCluster, recordedOnly(ci, conf, MSKCluster{ClusterName: firstNonEmpty(c.Name, ci.ResourceName),
		ClientBrokerEncryption: c.Encryption.Transit.ClientBroker, InClusterEncryption: c.Encryption.Transit.InCluster.ptr(),
		UnauthenticatedAccess: bool(c.Auth.Unauthenticated.Enabled),
		PublicAccess:          c.Broker.Connectivity.Public.Type == "SERVICE_PROVIDED_EIPS",
		BrokerLogsEnabled:     bool(b.CloudWatch.Enabled) || bool(b.Firehose.Enabled) || bool(b.S3.Enabled)}, "broker_logs_enabled=?LoggingInfo.?BrokerLogs"), nil
}

func cfgSQS(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		URL       string          `json:"QueueUrl"`
		SSE       *flexBool       `json:"SqsManagedSseEnabled"`
		KMSKeyID  string          `json:"KmsMasterKeyId"`
		Redrive   string          `json:"RedrivePolicy"`
		Retention flexInt         `json:"MessageRetentionPeriod"`
		Policy    *PolicyDocument `json:"Policy"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	q := SQSQueue{Name: ci.ResourceName, URL: c.URL, SQSManagedSSEEnabled: c.SSE.ptr(), KMSMasterKeyID: c.KMSKeyID,
		MessageRetentionSeconds: int(c.Retention), Policy: c.Policy}
	if ci.partial && q.SQSManagedSSEEnabled != nil && !*q.SQSManagedSSEEnabled && !carries(ci, conf, "KmsMasterKeyId") {
		q.SQSManagedSSEEnabled = nil // SQS-managed SSE off says nothing while the KMS key is unknown
	}
	if q.Name == "" {
		q.Name = c.URL[strings.LastIndexByte(c.URL, '/')+1:]
	}
	if c.Redrive != "" {
		var rp struct {
			Target string `json:"deadLetterTargetArn"`
		}
		if err := json.Unmarshal([]byte(c.Redrive), &rp); err == nil {
			q.DeadLetterTargetARN = rp.Target
		}
	}
	return TypeSQSQueue, recordedOnly(ci, conf, q, "dead_letter_target_arn=?RedrivePolicy",
		"message_retention_seconds=MessageRetentionPeriod"), nil
}

func cfgSNS(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		TopicARN string          `json:"TopicArn"`
		KMSKeyID string          `json:"KmsMasterKeyId"`
		Policy   *PolicyDocument `json:"Policy"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	name := ci.ResourceName
	if name == "" {
		name = c.TopicARN[strings.LastIndexByte(c.TopicARN, ':')+1:]
	}
	return TypeSNSTopic, recordedOnly(ci, conf, SNSTopic{Name: name, KMSMasterKeyID: c.KMSKeyID, Policy: c.Policy},
		"kms_master_key_id=?KmsMasterKeyId"), nil
}
