package rules

import inv "github.com/fourd-dev/fourd/engine/inventory"

// dataStreamRules are the checks of Kinesis data streams, Firehose
// delivery streams and MSK clusters (issue 29 §4).
func dataStreamRules() []Rule {
	return []Rule{
		{ID: "aws-kinesis-001", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeKinesisStream},
			Title:       "Kinesis data stream is not encrypted at rest",
			Description: "Records are stored in the stream's shards without server-side encryption.",
			Remediation: "aws kinesis start-stream-encryption --stream-name NAME --encryption-type KMS --key-id alias/aws/kinesis (or a customer key); Terraform: encryption_type = \"KMS\".",
			Check: func(s *Subject) Result {
				k := get[inv.KinesisStream](s)
				return escalateIfSensitive(failIfZero(s, k.EncryptionType != "KMS", k.EncryptionType == "", "encryption_type", func() map[string]any { return map[string]any{"stream": k.Name, "encryption_type": k.EncryptionType} }), s, high)
			}},
		{ID: "aws-kinesis-002", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeKinesisStream},
			Title:       "Kinesis data stream keeps records for less than 7 days",
			Description: "Records expire before 168 hours: a consumer outage over a long weekend loses data for good.",
			Remediation: "aws kinesis increase-stream-retention-period --stream-name NAME --retention-period-hours 168; Terraform: retention_period = 168.",
			Check: func(s *Subject) Result {
				k := get[inv.KinesisStream](s)
				return failIfZero(s, k.RetentionPeriodHours < 168, k.RetentionPeriodHours == 0, "retention_period_hours", func() map[string]any {
					return map[string]any{"stream": k.Name, "retention_period_hours": k.RetentionPeriodHours}
				})
			}},
		{ID: "aws-firehose-001", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeFirehoseStream},
			Title:       "Firehose delivery stream is not encrypted at rest",
			Description: "The delivery stream receives records directly (DirectPut) and buffers them without server-side encryption.",
			Remediation: "aws firehose start-delivery-stream-encryption --delivery-stream-name NAME --delivery-stream-encryption-configuration-input KeyType=AWS_OWNED_CMK (or CUSTOMER_MANAGED_CMK with a key).",
			Check: func(s *Subject) Result {
				f := get[inv.FirehoseStream](s)
				if f.SourceType == "KinesisStreamAsSource" {
					return passed(s, func() map[string]any {
						return map[string]any{"delivery_stream": f.Name, "delivery_stream_type": f.SourceType}
					})
				}
				return escalateIfSensitive(failIfRecordedAll(s, f.SSEKeyType == "", func() map[string]any {
					return map[string]any{"delivery_stream": f.Name, "delivery_stream_type": f.SourceType, "sse_key_type": f.SSEKeyType}
				}, "delivery_stream_type", "sse_key_type"), s, high)
			}},
		{ID: "aws-firehose-002", Dimension: compliance, Severity: low, ResourceTypes: []string{inv.TypeFirehoseStream},
			Title:       "Firehose delivery stream does not log delivery errors",
			Description: "Failed deliveries to the destination are not logged to CloudWatch Logs, so lost or delayed records go unnoticed.",
			Remediation: "Set the destination's CloudWatchLoggingOptions Enabled=true with a log group (aws firehose update-destination …; Terraform: cloudwatch_logging_options { enabled = true }).",
			Check: func(s *Subject) Result {
				f := get[inv.FirehoseStream](s)
				return failUnless(s, f.ErrorLoggingEnabled, "error_logging_enabled", func() map[string]any { return map[string]any{"delivery_stream": f.Name} })
			}},
		{ID: "aws-msk-001", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeMSKCluster},
			Title:       "MSK cluster accepts plaintext client connections",
			Description: "Encryption in transit between clients and brokers is PLAINTEXT or TLS_PLAINTEXT: producers and consumers may send records unencrypted.",
			Remediation: "aws kafka update-security --cluster-arn ARN --current-version V --encryption-info EncryptionInTransit={ClientBroker=TLS}.",
			Check: func(s *Subject) Result {
				m := get[inv.MSKCluster](s)
				if m.ClientBrokerEncryption == "" {
					return notEvaluated("client_broker_encryption")
				}
				return escalateIfSensitive(failIf(s, m.ClientBrokerEncryption != "TLS", func() map[string]any {
					return map[string]any{"cluster": m.ClusterName, "client_broker": m.ClientBrokerEncryption}
				}), s, critical)
			}},
		{ID: "aws-msk-002", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeMSKCluster},
			Title:       "MSK cluster does not encrypt traffic between brokers",
			Description: "Replication traffic between the cluster's brokers is not encrypted (InCluster false).",
			Remediation: "In-cluster encryption is chosen at creation: create a cluster with EncryptionInTransit InCluster=true and migrate with MirrorMaker or MSK Replicator.",
			Check: func(s *Subject) Result {
				m := get[inv.MSKCluster](s)
				return failUnless(s, m.InClusterEncryption, "in_cluster_encryption", func() map[string]any { return map[string]any{"cluster": m.ClusterName} })
			}},
		{ID: "aws-msk-003", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeMSKCluster},
			Title:       "MSK cluster allows unauthenticated clients",
			Description: "Clients may connect without IAM, SASL/SCRAM or TLS authentication and read or write any topic their network reaches.",
			Remediation: "Enable IAM or SASL/SCRAM client authentication and turn unauthenticated access off: aws kafka update-security --client-authentication Sasl={Iam={Enabled=true}},Unauthenticated={Enabled=false}.",
			Check: func(s *Subject) Result {
				m := get[inv.MSKCluster](s)
				return failIf(s, m.UnauthenticatedAccess, func() map[string]any {
					return map[string]any{"cluster": m.ClusterName, "unauthenticated_access": m.UnauthenticatedAccess}
				})
			}},
		{ID: "aws-msk-004", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeMSKCluster},
			Title:       "MSK cluster brokers are publicly accessible",
			Description: "Public access is on (SERVICE_PROVIDED_EIPS): the brokers have public IP addresses reachable from the internet.",
			Remediation: "aws kafka update-connectivity --cluster-arn ARN --current-version V --connectivity-info PublicAccess={Type=DISABLED}.",
			Check: func(s *Subject) Result {
				m := get[inv.MSKCluster](s)
				return escalateIfSensitive(failIf(s, m.PublicAccess, func() map[string]any {
					return map[string]any{"cluster": m.ClusterName, "public_access": m.PublicAccess}
				}), s, critical)
			}},
		{ID: "aws-msk-005", Dimension: compliance, Severity: medium, ResourceTypes: []string{inv.TypeMSKCluster},
			Title:       "MSK cluster broker logging is disabled",
			Description: "Broker logs go to none of CloudWatch Logs, Firehose or S3, which leaves no record of broker errors and client connections.",
			Remediation: "aws kafka update-monitoring --cluster-arn ARN --current-version V --logging-info BrokerLogs={CloudWatchLogs={Enabled=true,LogGroup=NAME}}.",
			Check: func(s *Subject) Result {
				m := get[inv.MSKCluster](s)
				return failIfRecorded(s, !m.BrokerLogsEnabled, "broker_logs_enabled", func() map[string]any {
					return map[string]any{"cluster": m.ClusterName, "broker_logs_enabled": m.BrokerLogsEnabled}
				})
			}},
	}
}
