package inventory

import "strings"

// Mappers of OpenSearch, SageMaker, Athena and Glue; property names from
// awslabs/aws-config-resource-schema (AWS::OpenSearch::Domain,
// AWS::Elasticsearch::Domain, AWS::SageMaker::NotebookInstance, AWS::SageMaker::EndpointConfig,
// AWS::Athena::WorkGroup, AWS::Glue::Job .properties.json).

// cfgSageMakerNotebook maps AWS::SageMaker::NotebookInstance.
func cfgSageMakerNotebook(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name     string `json:"NotebookInstanceName"`
		Type     string `json:"InstanceType"`
		Direct   string `json:"DirectInternetAccess"`
		Root     string `json:"RootAccess"`
		KMSKeyID string `json:"KmsKeyId"`
		SubnetID string `json:"SubnetId"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	return TypeSageMakerNotebook, recordedOnly(ci, conf, SageMakerNotebook{Name: firstNonEmpty(c.Name, ci.ResourceName), InstanceType: c.Type,
		DirectInternetAccess: c.Direct, RootAccess: c.Root, KMSKeyID: c.KMSKeyID, SubnetID: c.SubnetID},
		"instance_type=InstanceType", "direct_internet_access=DirectInternetAccess", "root_access=RootAccess",
		"kms_key_id=?KmsKeyId", "subnet_id=?SubnetId"), nil
}

// cfgSageMakerEndpointConfig maps AWS::SageMaker::EndpointConfig.
func cfgSageMakerEndpointConfig(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name     string `json:"EndpointConfigName"`
		KMSKeyID string `json:"KmsKeyId"`
		Variants []struct {
			Name       string   `json:"VariantName"`
			Count      *flexInt `json:"InitialInstanceCount"`
			Serverless *struct {
				MaxConcurrency flexInt `json:"MaxConcurrency"`
			} `json:"ServerlessConfig"`
		} `json:"ProductionVariants"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	e := SageMakerEndpointConfig{Name: firstNonEmpty(c.Name, ci.ResourceName), KMSKeyID: c.KMSKeyID}
	partialVariant := false
	for _, v := range c.Variants {
		n := 0
		if v.Count != nil {
			n = int(*v.Count)
		}
		// A variant has an instance count or a serverless configuration;
		// one without either was not recorded whole.
		partialVariant = partialVariant || v.Count == nil && v.Serverless == nil
		e.Variants = append(e.Variants, SageMakerVariant{VariantName: v.Name, InitialInstanceCount: n, Serverless: v.Serverless != nil})
	}
	out := recordedOnly(ci, conf, e, "kms_key_id=?KmsKeyId", "production_variants=ProductionVariants")
	if partialVariant {
		out = withUnknown(out, "production_variants")
	}
	return TypeSageMakerEndpointConfig, out, nil
}

// cfgAthenaWorkgroup maps AWS::Athena::WorkGroup.
func cfgAthenaWorkgroup(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name  string `json:"Name"`
		State string `json:"State"`
		Conf  struct {
			Cutoff  flexInt  `json:"BytesScannedCutoffPerQuery"`
			Enforce flexBool `json:"EnforceWorkGroupConfiguration"`
			Metrics flexBool `json:"PublishCloudWatchMetricsEnabled"`
			Result  struct {
				Encryption struct {
					Option string `json:"EncryptionOption"`
				} `json:"EncryptionConfiguration"`
			} `json:"ResultConfiguration"`
		} `json:"WorkGroupConfiguration"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	return TypeAthenaWorkgroup, recordedOnly(ci, conf, AthenaWorkgroup{Name: firstNonEmpty(c.Name, ci.ResourceName), State: c.State,
		ResultEncryption: c.Conf.Result.Encryption.Option, EnforceConfiguration: bool(c.Conf.Enforce),
		BytesScannedCutoffPerQuery: int64(c.Conf.Cutoff), PublishCloudWatchMetrics: bool(c.Conf.Metrics)},
		"state=State", "result_encryption=WorkGroupConfiguration.ResultConfiguration", "enforce_workgroup_configuration=WorkGroupConfiguration.EnforceWorkGroupConfiguration",
		"bytes_scanned_cutoff_per_query=WorkGroupConfiguration.?BytesScannedCutoffPerQuery", "publish_cloudwatch_metrics_enabled=WorkGroupConfiguration.PublishCloudWatchMetricsEnabled"), nil
}

// cfgGlueJob maps AWS::Glue::Job.
func cfgGlueJob(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name     string `json:"Name"`
		Version  string `json:"GlueVersion"`
		Security string `json:"SecurityConfiguration"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	return TypeGlueJob, recordedOnly(ci, conf, GlueJob{Name: firstNonEmpty(c.Name, ci.ResourceName), GlueVersion: c.Version, SecurityConfiguration: c.Security},
		"security_configuration=?SecurityConfiguration"), nil
}

// cfgOpenSearch maps AWS::OpenSearch::Domain (PascalCase: ClusterConfig,
// EngineVersion) and AWS::Elasticsearch::Domain (camelCase:
// elasticsearchClusterConfig, elasticsearchVersion); the other names agree
// but for case, which encoding/json ignores.
func cfgOpenSearch(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
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
	clusterKeys := "ClusterConfig|elasticsearchClusterConfig"
	return TypeOpenSearchDomain, recordedOnly(ci, conf, d, "encryption_at_rest_enabled=EncryptionAtRestOptions.Enabled",
		"node_to_node_encryption_enabled=NodeToNodeEncryptionOptions.Enabled", "enforce_https=DomainEndpointOptions.EnforceHTTPS",
		"in_vpc=?VPCOptions.?SubnetIds", "audit_logs_enabled=?LogPublishingOptions.?AUDIT_LOGS", "error_logs_enabled=?LogPublishingOptions.?ES_APPLICATION_LOGS",
		"fine_grained_access_control=AdvancedSecurityOptions.Enabled", "instance_type="+clusterKeys, "instance_count="+clusterKeys,
		"dedicated_master_enabled=ClusterConfig.DedicatedMasterEnabled|elasticsearchClusterConfig.DedicatedMasterEnabled", "zone_awareness_enabled=ClusterConfig.ZoneAwarenessEnabled|elasticsearchClusterConfig.ZoneAwarenessEnabled"), nil
}
