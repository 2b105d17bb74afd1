package inventory

// Mappers of AWS Backup; property names from
// awslabs/aws-config-resource-schema (AWS::Backup::BackupPlan,
// AWS::Backup::BackupVault, AWS::Backup::RecoveryPoint .properties.json).

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
	return TypeBackupVault, recordedOnly(ci, conf, BackupVault{Name: firstNonEmpty(c.Name, ci.ResourceName), NotificationEvents: c.Notifications.Events},
		"notification_events=?Notifications.BackupVaultEvents"), nil
}

// cfgRecoveryPoint maps AWS::Backup::RecoveryPoint.
func cfgRecoveryPoint(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
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
	return TypeBackupRecoveryPoint, recordedOnly(ci, conf, BackupRecoveryPoint{BackupVaultName: c.Vault, ResourceType: c.Type, IsEncrypted: bool(c.Encrypted),
		Status: c.Status, CreationDate: c.Created.t(), DeleteAfterDays: int(c.Lifecycle.DeleteAfterDays)},
		"is_encrypted=IsEncrypted", "delete_after_days=?Lifecycle.?DeleteAfterDays"), nil
}
