package rules

// AWS Config cases of the search and streaming types. Shapes:
// awslabs/aws-config-resource-schema, config/properties/resource-types/
// AWS::OpenSearch::Domain (PascalCase), AWS::Elasticsearch::Domain
// (camelCase), AWS::Kinesis::Stream, AWS::KinesisFirehose::DeliveryStream
// and AWS::MSK::Cluster .properties.json.

func goodOpenSearch() map[string]any {
	return map[string]any{"DomainName": "search", "Arn": "arn:aws:es:eu-west-1:111122223333:domain/search", "EngineVersion": "OpenSearch_2.11",
		"ClusterConfig": map[string]any{"InstanceType": "r7g.large.search", "InstanceCount": 3, "DedicatedMasterEnabled": true,
			"DedicatedMasterCount": 3, "DedicatedMasterType": "m7g.large.search", "ZoneAwarenessEnabled": true,
			"ZoneAwarenessConfig": map[string]any{"AvailabilityZoneCount": 3}},
		"EncryptionAtRestOptions":     map[string]any{"Enabled": true, "KmsKeyId": dataKey},
		"NodeToNodeEncryptionOptions": map[string]any{"Enabled": true},
		"DomainEndpointOptions":       map[string]any{"EnforceHTTPS": true, "TLSSecurityPolicy": "Policy-Min-TLS-1-2-PFS-2023-10"},
		"VPCOptions":                  map[string]any{"SubnetIds": []string{"subnet-0aa11bb22cc33dd44", "subnet-0bb22cc33dd44ee55"}, "SecurityGroupIds": []string{"sg-0search00000001"}},
		"AdvancedSecurityOptions":     map[string]any{"Enabled": true, "InternalUserDatabaseEnabled": false, "AnonymousAuthEnabled": false},
		"LogPublishingOptions": map[string]any{
			"AUDIT_LOGS":          map[string]any{"Enabled": true, "CloudWatchLogsLogGroupArn": "arn:aws:logs:eu-west-1:111122223333:log-group:/aws/opensearch/search/audit"},
			"ES_APPLICATION_LOGS": map[string]any{"Enabled": true, "CloudWatchLogsLogGroupArn": "arn:aws:logs:eu-west-1:111122223333:log-group:/aws/opensearch/search/app"}}}
}

func openSearchItem(conf map[string]any, history bool) string {
	return dataItem("AWS::OpenSearch::Domain", "search", "arn:aws:es:eu-west-1:111122223333:domain/search", conf, nil, history)
}

// elasticsearchItem is the same domain as AWS::Elasticsearch::Domain records
// it (camelCase, elasticsearchClusterConfig, lower-case option names).
func elasticsearchItem(encrypted bool) string {
	return dataItem("AWS::Elasticsearch::Domain", "legacy-search", "arn:aws:es:eu-west-1:111122223333:domain/legacy-search",
		map[string]any{"domainName": "legacy-search", "domainId": "111122223333/legacy-search", "elasticsearchVersion": "7.10",
			"elasticsearchClusterConfig": map[string]any{"instanceType": "r6g.large.elasticsearch", "instanceCount": 3, "dedicatedMasterEnabled": true, "zoneAwarenessEnabled": true},
			"encryptionAtRestOptions":    map[string]any{"enabled": encrypted}, "nodeToNodeEncryptionOptions": map[string]any{"enabled": true},
			"domainEndpointOptions":   map[string]any{"enforceHTTPS": true, "tlssecurityPolicy": "Policy-Min-TLS-1-2-2019-07"},
			"vpcoptions":              map[string]any{"subnetIds": []string{"subnet-0aa11bb22cc33dd44"}, "vpcid": "vpc-0a1b2c3d4e5f60718"},
			"advancedSecurityOptions": map[string]any{"enabled": true},
			"logPublishingOptions":    map[string]any{"AUDIT_LOGS": map[string]any{"enabled": true}, "ES_APPLICATION_LOGS": map[string]any{"enabled": true}}}, nil, true)
}

func kinesisItem(conf map[string]any, history bool) string {
	return dataItem("AWS::Kinesis::Stream", "clicks", "arn:aws:kinesis:eu-west-1:111122223333:stream/clicks", conf, nil, history)
}

func firehoseItem(conf map[string]any, history bool) string {
	return dataItem("AWS::KinesisFirehose::DeliveryStream", "clicks-to-s3", "arn:aws:firehose:eu-west-1:111122223333:deliverystream/clicks-to-s3", conf, nil, history)
}

func goodFirehose() map[string]any {
	return map[string]any{"DeliveryStreamName": "clicks-to-s3", "DeliveryStreamType": "DirectPut",
		"DeliveryStreamEncryptionConfigurationInput": map[string]any{"KeyType": "AWS_OWNED_CMK"},
		"ExtendedS3DestinationConfiguration": map[string]any{"BucketARN": "arn:aws:s3:::acme-clicks", "RoleARN": "arn:aws:iam::111122223333:role/firehose",
			"CloudWatchLoggingOptions": map[string]any{"Enabled": true, "LogGroupName": "/aws/kinesisfirehose/clicks-to-s3", "LogStreamName": "DestinationDelivery"}}}
}

func goodMSK() map[string]any {
	return map[string]any{"ClusterName": "events", "Arn": "arn:aws:kafka:eu-west-1:111122223333:cluster/events/0a1b2c3d-1111-2222-3333-444455556666-1",
		"KafkaVersion": "3.6.0", "NumberOfBrokerNodes": 3,
		"BrokerNodeGroupInfo": map[string]any{"InstanceType": "kafka.m7g.large", "ClientSubnets": []string{"subnet-0aa11bb22cc33dd44"},
			"ConnectivityInfo": map[string]any{"PublicAccess": map[string]any{"Type": "DISABLED"}}},
		"ClientAuthentication": map[string]any{"Sasl": map[string]any{"Iam": map[string]any{"Enabled": true}}, "Unauthenticated": map[string]any{"Enabled": false}},
		"EncryptionInfo": map[string]any{"EncryptionAtRest": map[string]any{"DataVolumeKMSKeyId": dataKey},
			"EncryptionInTransit": map[string]any{"ClientBroker": "TLS", "InCluster": true}},
		"LoggingInfo": map[string]any{"BrokerLogs": map[string]any{"CloudWatchLogs": map[string]any{"Enabled": true, "LogGroup": "/aws/msk/events"},
			"S3": map[string]any{"Enabled": false}, "Firehose": map[string]any{"Enabled": false}}}}
}

func mskItem(conf map[string]any, history bool) string {
	return dataItem("AWS::MSK::Cluster", "arn:aws:kafka:eu-west-1:111122223333:cluster/events/0a1b2c3d-1111-2222-3333-444455556666-1",
		"arn:aws:kafka:eu-west-1:111122223333:cluster/events/0a1b2c3d-1111-2222-3333-444455556666-1", conf, nil, history)
}

func init() {
	o := goodOpenSearch()
	oc := func(kv ...any) map[string]any { return with(o["ClusterConfig"].(map[string]any), kv...) }
	k := map[string]any{"Name": "clicks", "Arn": "arn:aws:kinesis:eu-west-1:111122223333:stream/clicks", "ShardCount": 2,
		"RetentionPeriodHours": 168, "StreamEncryption": map[string]any{"EncryptionType": "KMS", "KeyId": "alias/aws/kinesis"}}
	f := goodFirehose()
	m := goodMSK()
	mt := func(kv ...any) map[string]any {
		return with(m, "EncryptionInfo", map[string]any{"EncryptionInTransit": with(map[string]any{"ClientBroker": "TLS", "InCluster": true}, kv...)})
	}
	addConfigCases(map[string]configCase{
		"aws-opensearch-001": {pass: elasticsearchItem(true), fail: elasticsearchItem(false)},
		"aws-opensearch-002": {pass: openSearchItem(o, false), fail: openSearchItem(with(o, "NodeToNodeEncryptionOptions", map[string]any{"Enabled": false}), true)},
		"aws-opensearch-003": {pass: openSearchItem(o, true), fail: openSearchItem(with(o, "DomainEndpointOptions", map[string]any{"EnforceHTTPS": false, "TLSSecurityPolicy": "Policy-Min-TLS-1-2-2019-07"}), false)},
		"aws-opensearch-004": {pass: openSearchItem(o, false), fail: openSearchItem(with(o, "DomainEndpointOptions", map[string]any{"EnforceHTTPS": true, "TLSSecurityPolicy": "Policy-Min-TLS-1-0-2019-07"}), false)},
		"aws-opensearch-005": {pass: openSearchItem(o, false), fail: openSearchItem(with(o, "VPCOptions", nil), true)},
		"aws-opensearch-006": {pass: openSearchItem(o, false), fail: openSearchItem(with(o, "LogPublishingOptions", map[string]any{"ES_APPLICATION_LOGS": map[string]any{"Enabled": true}}), false)},
		"aws-opensearch-007": {pass: openSearchItem(o, false), fail: openSearchItem(with(o, "AdvancedSecurityOptions", map[string]any{"Enabled": false}), false)},
		"aws-opensearch-008": {pass: openSearchItem(o, false), fail: openSearchItem(with(o, "ClusterConfig", oc("ZoneAwarenessEnabled", false)), true)},
		"aws-opensearch-009": {pass: openSearchItem(o, false), fail: openSearchItem(with(o, "ClusterConfig", oc("DedicatedMasterEnabled", false)), false)},
		"aws-opensearch-010": {pass: openSearchItem(o, false), fail: openSearchItem(with(o, "ClusterConfig", oc("InstanceType", "m4.large.search")), false)},
		"aws-opensearch-011": {pass: openSearchItem(o, true), fail: openSearchItem(with(o, "LogPublishingOptions", map[string]any{"AUDIT_LOGS": map[string]any{"Enabled": true}}), true)},

		"aws-kinesis-001": {pass: kinesisItem(k, false), fail: kinesisItem(with(k, "StreamEncryption", nil), true)},
		"aws-kinesis-002": {pass: kinesisItem(k, true), fail: kinesisItem(with(k, "RetentionPeriodHours", 24), false)},
		"aws-firehose-001": {pass: firehoseItem(with(f, "DeliveryStreamType", "KinesisStreamAsSource", "DeliveryStreamEncryptionConfigurationInput", nil), false),
			fail: firehoseItem(with(f, "DeliveryStreamEncryptionConfigurationInput", nil), true)},
		"aws-firehose-002": {pass: firehoseItem(f, true), fail: firehoseItem(with(f, "ExtendedS3DestinationConfiguration",
			map[string]any{"BucketARN": "arn:aws:s3:::acme-clicks", "CloudWatchLoggingOptions": map[string]any{"Enabled": false}}), false)},

		"aws-msk-001": {pass: mskItem(m, false), fail: mskItem(mt("ClientBroker", "TLS_PLAINTEXT"), true)},
		"aws-msk-002": {pass: mskItem(m, true), fail: mskItem(mt("InCluster", false), false)},
		"aws-msk-003": {pass: mskItem(m, false), fail: mskItem(with(m, "ClientAuthentication", map[string]any{"Unauthenticated": map[string]any{"Enabled": true}}), false)},
		"aws-msk-004": {pass: mskItem(m, false), fail: mskItem(with(m, "BrokerNodeGroupInfo", map[string]any{"InstanceType": "kafka.m7g.large",
			"ConnectivityInfo": map[string]any{"PublicAccess": map[string]any{"Type": "SERVICE_PROVIDED_EIPS"}}}), true)},
		"aws-msk-005": {pass: mskItem(m, false), fail: mskItem(with(m, "LoggingInfo", map[string]any{"BrokerLogs": map[string]any{"CloudWatchLogs": map[string]any{"Enabled": false}}}), false)},
	})
	for id, c := range map[string]struct{ item, missing string }{
		"aws-opensearch-004": {openSearchItem(with(o, "DomainEndpointOptions", map[string]any{"EnforceHTTPS": true}), false), "tls_security_policy"},
		"aws-firehose-002":   {firehoseItem(with(f, "ExtendedS3DestinationConfiguration", nil), true), "error_logging_enabled"},
		"aws-msk-001":        {mskItem(with(m, "EncryptionInfo", nil), false), "client_broker_encryption"},
		"aws-msk-002":        {mskItem(mt("InCluster", nil), true), "in_cluster_encryption"},
	} {
		dataUnknownCases[id] = c
	}
}
