package inventory

import "encoding/json"

func tfLambda(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		Name          string   `json:"function_name"`
		Runtime       string   `json:"runtime"`
		MemorySize    int      `json:"memory_size"`
		Timeout       int      `json:"timeout"`
		Architectures []string `json:"architectures"`
		DLQ           tfBlock[struct {
			TargetARN string `json:"target_arn"`
		}] `json:"dead_letter_config"`
		Tracing tfBlock[struct {
			Mode string `json:"mode"`
		}] `json:"tracing_config"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	f := &LambdaFunction{FunctionName: firstNonEmpty(t.Name, c.ID), Runtime: t.Runtime, MemorySize: t.MemorySize,
		Timeout: t.Timeout, Architectures: t.Architectures}
	if len(f.Architectures) == 0 {
		f.Architectures = []string{"x86_64"}
	}
	if d, ok := t.DLQ.first(); ok {
		f.DeadLetterTargetARN = d.TargetARN
	}
	if tr, ok := t.Tracing.first(); ok {
		f.TracingMode = tr.Mode
	}
	return f, nil
}

func tfASG(attrs []byte, c *tfCommon) (any, error) {
	var g AutoScalingGroup
	if err := json.Unmarshal(attrs, &g); err != nil {
		return nil, err
	}
	g.Name = firstNonEmpty(c.Name, c.ID)
	return &g, nil
}

func tfElastiCache(attrs []byte, _ *tfCommon) (any, error) {
	var t struct {
		ClusterID string   `json:"cluster_id"`
		Engine    string   `json:"engine"`
		Version   string   `json:"engine_version"`
		NodeType  string   `json:"node_type"`
		Nodes     int      `json:"num_cache_nodes"`
		AZMode    string   `json:"az_mode"`
		AtRest    flexBool `json:"at_rest_encryption_enabled"`
		Transit   flexBool `json:"transit_encryption_enabled"`
		Snapshots int      `json:"snapshot_retention_limit"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	return &ElastiCacheCluster{ClusterID: t.ClusterID, Engine: t.Engine, EngineVersion: t.Version, NodeType: t.NodeType,
		NumCacheNodes: t.Nodes, AZMode: firstNonEmpty(t.AZMode, "single-az"), AtRestEncryptionEnabled: bool(t.AtRest),
		TransitEncryptionEnabled: bool(t.Transit), SnapshotRetentionLimit: t.Snapshots}, nil
}

func tfDynamoDB(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		BillingMode string `json:"billing_mode"`
		Read        int    `json:"read_capacity"`
		Write       int    `json:"write_capacity"`
		PITR        tfBlock[struct {
			Enabled bool `json:"enabled"`
		}] `json:"point_in_time_recovery"`
		DeletionProtection *bool `json:"deletion_protection_enabled"`
		SSE                tfBlock[struct {
			KMSKeyARN string `json:"kms_key_arn"`
		}] `json:"server_side_encryption"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	d := &DynamoDBTable{Name: c.Name, BillingMode: firstNonEmpty(t.BillingMode, "PROVISIONED"), ReadCapacity: t.Read,
		WriteCapacity: t.Write, DeletionProtectionEnabled: t.DeletionProtection}
	if t.PITR != nil { // an empty block list: not enabled
		p, _ := t.PITR.first()
		d.PointInTimeRecovery = boolPtr(p.Enabled)
	}
	if s, ok := t.SSE.first(); ok {
		d.SSEKMSKeyARN = s.KMSKeyARN
	}
	return d, nil
}

func tfEFS(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		Encrypted bool   `json:"encrypted"`
		KMSKeyID  string `json:"kms_key_id"`
		Mode      string `json:"performance_mode"`
		Lifecycle []struct {
			TransitionToIA string `json:"transition_to_ia"`
		} `json:"lifecycle_policy"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	f := &EFSFileSystem{FileSystemID: c.ID, Encrypted: t.Encrypted, KMSKeyID: t.KMSKeyID, PerformanceMode: t.Mode}
	for _, l := range t.Lifecycle {
		if l.TransitionToIA != "" {
			f.TransitionToIA = l.TransitionToIA
		}
	}
	return f, nil
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

func tfSQS(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		URL       string `json:"url"`
		SSE       *bool  `json:"sqs_managed_sse_enabled"`
		KMSKeyID  string `json:"kms_master_key_id"`
		Redrive   string `json:"redrive_policy"`
		Retention int    `json:"message_retention_seconds"`
		Policy    string `json:"policy"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	q := &SQSQueue{Name: c.Name, URL: firstNonEmpty(t.URL, c.ID), SQSManagedSSEEnabled: t.SSE, KMSMasterKeyID: t.KMSKeyID,
		MessageRetentionSeconds: t.Retention}
	var err error
	if q.Policy, err = tfPolicy(t.Policy); err != nil {
		return nil, err
	}
	if t.Redrive != "" {
		var rp struct {
			Target string `json:"deadLetterTargetArn"`
		}
		if err := json.Unmarshal([]byte(t.Redrive), &rp); err != nil {
			return nil, err
		}
		q.DeadLetterTargetARN = rp.Target
	}
	return q, nil
}

func tfSNS(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		KMSKeyID string `json:"kms_master_key_id"`
		Policy   string `json:"policy"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	p, err := tfPolicy(t.Policy)
	if err != nil {
		return nil, err
	}
	return &SNSTopic{Name: c.Name, KMSMasterKeyID: t.KMSKeyID, Policy: p}, nil
}

// tfRecorder maps a configuration recorder. Its on/off switch is a separate
// resource (aws_config_configuration_recorder_status); a recorder Terraform
// manages is taken to be recording.
func tfRecorder(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		Group tfBlock[struct {
			AllSupported bool `json:"all_supported"`
			Global       bool `json:"include_global_resource_types"`
		}] `json:"recording_group"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	r := &ConfigRecorder{Name: c.Name, Recording: true}
	if g, ok := t.Group.first(); ok {
		r.AllSupported, r.IncludeGlobalResourceTypes = g.AllSupported, g.Global
	}
	return r, nil
}

func tfGuardDuty(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		Enable bool `json:"enable"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	return &GuardDutyDetector{DetectorID: c.ID, Enabled: t.Enable}, nil
}

func tfLogGroup(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		Retention int    `json:"retention_in_days"`
		KMSKeyID  string `json:"kms_key_id"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	return &LogGroup{Name: c.Name, RetentionInDays: t.Retention, KMSKeyID: t.KMSKeyID}, nil
}
