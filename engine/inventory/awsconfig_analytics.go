package inventory

// Mappers of Backup, SageMaker, Athena and Glue; property names from
// awslabs/aws-config-resource-schema (AWS::Backup::BackupPlan,
// AWS::Backup::BackupVault, AWS::Backup::RecoveryPoint,
// AWS::SageMaker::NotebookInstance, AWS::SageMaker::EndpointConfig,
// AWS::Athena::WorkGroup, AWS::Glue::Job .properties.json).

type cfgLifecycle struct {
	DeleteAfterDays flexInt `json:"DeleteAfterDays"`
}

// cfgBackupPlan maps AWS::Backup::BackupPlan.
func cfgBackupPlan(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Plan struct {
			Name  string `json:"BackupPlanName"`
			Rules []struct {
				Name      string       `json:"RuleName"`
				Lifecycle cfgLifecycle `json:"Lifecycle"`
			} `json:"BackupPlanRule"`
		} `json:"BackupPlan"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	p := BackupPlan{Name: firstNonEmpty(c.Plan.Name, ci.ResourceName)}
	for _, r := range c.Plan.Rules {
		p.Rules = append(p.Rules, BackupPlanRule{RuleName: r.Name, DeleteAfterDays: int(r.Lifecycle.DeleteAfterDays)})
	}
	return TypeBackupPlan, p, nil
}

// cfgBackupVault maps AWS::Backup::BackupVault.
func cfgBackupVault(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name          string `json:"BackupVaultName"`
		Notifications struct {
			Events StringList `json:"BackupVaultEvents"`
		} `json:"Notifications"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	return TypeBackupVault, BackupVault{Name: firstNonEmpty(c.Name, ci.ResourceName), NotificationEvents: c.Notifications.Events}, nil
}

// cfgRecoveryPoint maps AWS::Backup::RecoveryPoint.
func cfgRecoveryPoint(_ *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Vault     string       `json:"BackupVaultName"`
		Type      string       `json:"ResourceType"`
		Encrypted flexBool     `json:"IsEncrypted"`
		Status    string       `json:"Status"`
		Created   flexTime     `json:"CreationDate"`
		Lifecycle cfgLifecycle `json:"Lifecycle"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	return TypeBackupRecoveryPoint, BackupRecoveryPoint{BackupVaultName: c.Vault, ResourceType: c.Type, IsEncrypted: bool(c.Encrypted),
		Status: c.Status, CreationDate: c.Created.t(), DeleteAfterDays: int(c.Lifecycle.DeleteAfterDays)}, nil
}

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
	return TypeSageMakerNotebook, SageMakerNotebook{Name: firstNonEmpty(c.Name, ci.ResourceName), InstanceType: c.Type,
		DirectInternetAccess: c.Direct, RootAccess: c.Root, KMSKeyID: c.KMSKeyID, SubnetID: c.SubnetID}, nil
}

// cfgSageMakerEndpointConfig maps AWS::SageMaker::EndpointConfig.
func cfgSageMakerEndpointConfig(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name     string `json:"EndpointConfigName"`
		KMSKeyID string `json:"KmsKeyId"`
		Variants []struct {
			Name       string  `json:"VariantName"`
			Count      flexInt `json:"InitialInstanceCount"`
			Serverless *struct {
				MaxConcurrency flexInt `json:"MaxConcurrency"`
			} `json:"ServerlessConfig"`
		} `json:"ProductionVariants"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	e := SageMakerEndpointConfig{Name: firstNonEmpty(c.Name, ci.ResourceName), KMSKeyID: c.KMSKeyID}
	for _, v := range c.Variants {
		e.Variants = append(e.Variants, SageMakerVariant{VariantName: v.Name, InitialInstanceCount: int(v.Count), Serverless: v.Serverless != nil})
	}
	return TypeSageMakerEndpointConfig, e, nil
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
	return TypeAthenaWorkgroup, AthenaWorkgroup{Name: firstNonEmpty(c.Name, ci.ResourceName), State: c.State,
		ResultEncryption: c.Conf.Result.Encryption.Option, EnforceConfiguration: bool(c.Conf.Enforce),
		BytesScannedCutoffPerQuery: int64(c.Conf.Cutoff), PublishCloudWatchMetrics: bool(c.Conf.Metrics)}, nil
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
	return TypeGlueJob, GlueJob{Name: firstNonEmpty(c.Name, ci.ResourceName), GlueVersion: c.Version, SecurityConfiguration: c.Security}, nil
}
