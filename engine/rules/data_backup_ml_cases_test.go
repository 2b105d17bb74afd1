package rules

// AWS Config cases of Backup, SageMaker, Athena and Glue. Shapes:
// awslabs/aws-config-resource-schema, config/properties/resource-types/
// AWS::Backup::BackupPlan, AWS::Backup::BackupVault,
// AWS::Backup::RecoveryPoint, AWS::SageMaker::NotebookInstance,
// AWS::SageMaker::EndpointConfig, AWS::Athena::WorkGroup and AWS::Glue::Job
// .properties.json.

func backupPlanItem(rules []map[string]any, history bool) string {
	return dataItem("AWS::Backup::BackupPlan", "8f2b7c3e-1a2b-4c3d-9e8f-0a1b2c3d4e5f", "arn:aws:backup:eu-west-1:111122223333:backup-plan:8f2b7c3e-1a2b-4c3d-9e8f-0a1b2c3d4e5f",
		map[string]any{"BackupPlanId": "8f2b7c3e-1a2b-4c3d-9e8f-0a1b2c3d4e5f", "VersionId": "ZmI4NjE5", "BackupPlan": map[string]any{"BackupPlanName": "daily", "BackupPlanRule": rules}}, nil, history)
}

func planRule(name string, deleteAfter int) map[string]any {
	r := map[string]any{"RuleName": name, "TargetBackupVault": "prod", "ScheduleExpression": "cron(0 3 * * ? *)", "StartWindowMinutes": 60}
	if deleteAfter > 0 {
		r["Lifecycle"] = map[string]any{"DeleteAfterDays": deleteAfter}
	}
	return r
}

func backupVaultItem(events []string, history bool) string {
	c := map[string]any{"BackupVaultName": "prod", "BackupVaultArn": "arn:aws:backup:eu-west-1:111122223333:backup-vault:prod", "EncryptionKeyArn": dataKey}
	if events != nil {
		c["Notifications"] = map[string]any{"BackupVaultEvents": events, "SNSTopicArn": "arn:aws:sns:eu-west-1:111122223333:backup-alerts"}
	}
	return dataItem("AWS::Backup::BackupVault", "prod", "arn:aws:backup:eu-west-1:111122223333:backup-vault:prod", c, nil, history)
}

func recoveryPointItem(conf map[string]any, history bool) string {
	arn := "arn:aws:ec2:eu-west-1::snapshot/snap-0a1b2c3d4e5f60718"
	return dataItem("AWS::Backup::RecoveryPoint", arn, arn, conf, nil, history)
}

func goodRecoveryPoint() map[string]any {
	return map[string]any{"RecoveryPointArn": "arn:aws:ec2:eu-west-1::snapshot/snap-0a1b2c3d4e5f60718", "BackupVaultName": "prod",
		"ResourceArn": "arn:aws:ec2:eu-west-1:111122223333:volume/vol-0c1d2e3f405162738", "ResourceType": "EBS", "IsEncrypted": true,
		"EncryptionKeyArn": dataKey, "Status": "COMPLETED", "CreationDate": "2025-05-31T03:00:00.000Z", "Lifecycle": map[string]any{"DeleteAfterDays": 35}}
}

func goodNotebook() map[string]any {
	return map[string]any{"NotebookInstanceName": "research", "InstanceType": "ml.t3.medium", "DirectInternetAccess": "Disabled",
		"RootAccess": "Disabled", "KmsKeyId": dataKey, "SubnetId": "subnet-0aa11bb22cc33dd44", "SecurityGroupIds": []string{"sg-0web0000000000001"},
		"RoleArn": "arn:aws:iam::111122223333:role/sagemaker-research", "VolumeSizeInGB": 20}
}

func notebookItem(conf map[string]any, history bool) string {
	return dataItem("AWS::SageMaker::NotebookInstance", "research", "arn:aws:sagemaker:eu-west-1:111122223333:notebook-instance/research", conf, nil, history)
}

func endpointConfigItem(conf map[string]any, history bool) string {
	return dataItem("AWS::SageMaker::EndpointConfig", "churn-v3", "arn:aws:sagemaker:eu-west-1:111122223333:endpoint-config/churn-v3", conf, nil, history)
}

func goodEndpointConfig() map[string]any {
	return map[string]any{"EndpointConfigName": "churn-v3", "KmsKeyId": dataKey, "ProductionVariants": []map[string]any{
		{"VariantName": "primary", "ModelName": "churn-v3", "InstanceType": "ml.m6i.large", "InitialInstanceCount": 2, "InitialVariantWeight": 1}}}
}

func workgroupItem(conf map[string]any, history bool) string {
	return dataItem("AWS::Athena::WorkGroup", "analysts", "arn:aws:athena:eu-west-1:111122223333:workgroup/analysts", conf, nil, history)
}

func goodWorkgroup() map[string]any {
	return map[string]any{"Name": "analysts", "State": "ENABLED", "WorkGroupConfiguration": goodWorkgroupConf()}
}

func goodWorkgroupConf() map[string]any {
	return map[string]any{"EnforceWorkGroupConfiguration": true, "PublishCloudWatchMetricsEnabled": true, "BytesScannedCutoffPerQuery": 10737418240,
		"ResultConfiguration": map[string]any{"OutputLocation": "s3://acme-athena-results/analysts/",
			"EncryptionConfiguration": map[string]any{"EncryptionOption": "SSE_KMS", "KmsKey": dataKey}},
		"EngineVersion": map[string]any{"SelectedEngineVersion": "AUTO", "EffectiveEngineVersion": "Athena engine version 3"}}
}

func glueJobItem(conf map[string]any, history bool) string {
	return dataItem("AWS::Glue::Job", "nightly-etl", "arn:aws:glue:eu-west-1:111122223333:job/nightly-etl", conf, nil, history)
}

func goodGlueJob() map[string]any {
	return map[string]any{"Name": "nightly-etl", "Role": "arn:aws:iam::111122223333:role/glue-etl", "GlueVersion": "4.0",
		"Command":               map[string]any{"Name": "glueetl", "ScriptLocation": "s3://acme-glue/scripts/nightly.py", "PythonVersion": "3"},
		"SecurityConfiguration": "encrypted-etl", "WorkerType": "G.1X", "NumberOfWorkers": 4, "Timeout": 120}
}

func init() {
	rp := goodRecoveryPoint()
	nb := goodNotebook()
	ec := goodEndpointConfig()
	wg := goodWorkgroup()
	wc := func(kv ...any) map[string]any {
		return with(wg, "WorkGroupConfiguration", with(goodWorkgroupConf(), kv...))
	}
	gj := goodGlueJob()
	addConfigCases(map[string]configCase{
		"aws-backup-001": {pass: backupPlanItem([]map[string]any{planRule("daily", 35)}, false), fail: backupPlanItem([]map[string]any{planRule("daily", 35), planRule("hourly", 1)}, true)},
		"aws-backup-002": {pass: backupPlanItem([]map[string]any{planRule("daily", 35)}, true), fail: backupPlanItem([]map[string]any{planRule("monthly", 0)}, false)},
		"aws-backup-003": {pass: backupVaultItem([]string{"BACKUP_JOB_FAILED", "RESTORE_JOB_COMPLETED"}, false), fail: backupVaultItem(nil, true)},
		"aws-backup-004": {pass: recoveryPointItem(rp, false), fail: recoveryPointItem(with(rp, "IsEncrypted", false, "EncryptionKeyArn", nil), true)},
		"aws-backup-005": {pass: recoveryPointItem(with(rp, "CreationDate", "2023-01-01T03:00:00.000Z"), false),
			fail: recoveryPointItem(with(rp, "CreationDate", "2023-01-01T03:00:00.000Z", "Lifecycle", nil), true)},

		"aws-sagemaker-001": {pass: notebookItem(nb, false), fail: notebookItem(with(nb, "DirectInternetAccess", "Enabled"), true)},
		"aws-sagemaker-002": {pass: notebookItem(nb, true), fail: notebookItem(with(nb, "RootAccess", "Enabled"), false)},
		"aws-sagemaker-003": {pass: notebookItem(nb, false), fail: notebookItem(with(nb, "KmsKeyId", nil), false)},
		"aws-sagemaker-004": {pass: notebookItem(nb, false), fail: notebookItem(with(nb, "SubnetId", nil, "SecurityGroupIds", nil), true)},
		"aws-sagemaker-005": {pass: notebookItem(nb, false), fail: notebookItem(with(nb, "InstanceType", "ml.t2.medium"), false)},
		"aws-sagemaker-006": {pass: endpointConfigItem(with(ec, "KmsKeyId", nil, "ProductionVariants", []map[string]any{{"VariantName": "sls", "ModelName": "churn-v3",
			"ServerlessConfig": map[string]any{"MaxConcurrency": 5, "MemorySizeInMB": 2048}}}), false), fail: endpointConfigItem(with(ec, "KmsKeyId", nil), true)},
		"aws-sagemaker-007": {pass: endpointConfigItem(ec, true), fail: endpointConfigItem(with(ec, "ProductionVariants", []map[string]any{
			{"VariantName": "primary", "ModelName": "churn-v3", "InstanceType": "ml.m6i.large", "InitialInstanceCount": 1}}), false)},

		"aws-athena-001": {pass: workgroupItem(wg, false), fail: workgroupItem(wc("ResultConfiguration", map[string]any{"OutputLocation": "s3://acme-athena-results/analysts/"}), true)},
		"aws-athena-002": {pass: workgroupItem(wg, true), fail: workgroupItem(wc("EnforceWorkGroupConfiguration", false), false)},
		"aws-athena-003": {pass: workgroupItem(with(wc("BytesScannedCutoffPerQuery", nil), "State", "DISABLED"), false), fail: workgroupItem(wc("BytesScannedCutoffPerQuery", nil), false)},
		"aws-athena-004": {pass: workgroupItem(wg, false), fail: workgroupItem(wc("PublishCloudWatchMetricsEnabled", false), true)},

		"aws-glue-001": {pass: glueJobItem(gj, false), fail: glueJobItem(with(gj, "SecurityConfiguration", nil), true)},
		"aws-glue-002": {pass: glueJobItem(gj, true), fail: glueJobItem(with(gj, "GlueVersion", "2.0"), false)},
	})
	for id, c := range map[string]struct{ item, missing string }{
		"aws-backup-005":    {recoveryPointItem(with(rp, "CreationDate", nil, "Lifecycle", nil), false), "creation_date"},
		"aws-sagemaker-002": {notebookItem(with(nb, "RootAccess", nil), true), "root_access"},
		"aws-glue-002":      {glueJobItem(with(gj, "GlueVersion", nil), false), "glue_version"},
	} {
		dataUnknownCases[id] = c
	}
}
