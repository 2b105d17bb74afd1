package inventory

import (
	"encoding/json"
	"strings"
)

// AWS Config mappers of the logging and detection services:
// AWS::CloudTrail::Trail, AWS::Config::ConfigurationRecorder,
// AWS::GuardDuty::Detector and AWS::Logs::LogGroup.

func cfgTrail(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name           string   `json:"name"`
		HomeRegion     string   `json:"homeRegion"`
		MultiRegion    flexBool `json:"isMultiRegionTrail"`
		GlobalEvents   flexBool `json:"includeGlobalServiceEvents"`
		LogValidation  flexBool `json:"logFileValidationEnabled"`
		KMSKeyID       string   `json:"kmsKeyId"`
		S3BucketName   string   `json:"s3BucketName"`
		CWLogsGroupARN string   `json:"cloudWatchLogsLogGroupArn"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	t := CloudTrail{Name: c.Name, HomeRegion: c.HomeRegion, IsMultiRegionTrail: bool(c.MultiRegion),
		IncludeGlobalServiceEvents: bool(c.GlobalEvents), LogFileValidationEnabled: bool(c.LogValidation),
		KMSKeyID: c.KMSKeyID, S3BucketName: c.S3BucketName, CloudWatchLogsLogGroupARN: c.CWLogsGroupARN}
	// AWS Config records neither the logging status nor the event
	// selectors in the trail's configuration: without their supplements
	// they are unknown, not false.
	var status struct {
		IsLogging *flexBool `json:"isLogging"`
	}
	if err := supp(ci, "TrailStatus", &status); err != nil {
		return "", nil, err
	}
	t.IsLogging = status.IsLogging.ptr()
	var selectors []struct {
		DataResources []struct {
			Type string `json:"type"`
		} `json:"dataResources"`
	}
	if raw := jsonObject(ci.Supplementary["EventSelectors"]); raw != nil {
		if err := json.Unmarshal(raw, &selectors); err != nil {
			return "", nil, err
		}
		data := false
		for _, s := range selectors {
			for _, d := range s.DataResources {
				data = data || d.Type == "AWS::S3::Object"
			}
		}
		t.S3DataEvents = &data
	}
	return TypeCloudTrail, recordedOnly(ci, conf, t, "is_multi_region_trail=isMultiRegionTrail",
		"include_global_service_events=includeGlobalServiceEvents", "log_file_validation_enabled=logFileValidationEnabled",
		"kms_key_id=?kmsKeyId", "cloud_watch_logs_log_group_arn=?cloudWatchLogsLogGroupArn", "s3_bucket_name=s3BucketName"), nil
}

func cfgRecorder(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name      string    `json:"name"`
		Recording *flexBool `json:"recording"`
		Group     struct {
			AllSupported flexBool `json:"allSupported"`
			Global       flexBool `json:"includeGlobalResourceTypes"`
		} `json:"recordingGroup"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	var status struct {
		Recording *flexBool `json:"recording"`
	}
	if err := supp(ci, "ConfigurationRecorderStatus", &status); err != nil {
		return "", nil, err
	}
	return TypeConfigRecorder, recordedOnly(ci, conf, ConfigRecorder{Name: c.Name, Recording: orTri(c.Recording.ptr(), status.Recording.ptr()),
		AllSupported: bool(c.Group.AllSupported), IncludeGlobalResourceTypes: bool(c.Group.Global), DeliveredByConfig: !ci.partial},
		"all_supported=recordingGroup.allSupported", "include_global_resource_types=recordingGroup.includeGlobalResourceTypes"), nil
}

func cfgGuardDuty(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		ID     string   `json:"Id"`
		Enable flexBool `json:"Enable"`
		// The older DataSources and the newer Features shapes of the
		// protection plans (aws-config-resource-schema
		// AWS::GuardDuty::Detector; CloudFormation's Features).
		DataSources *struct {
			S3Logs *struct {
				Enable *flexBool `json:"Enable"`
			} `json:"S3Logs"`
			Kubernetes *struct {
				AuditLogs *struct {
					Enable *flexBool `json:"Enable"`
				} `json:"AuditLogs"`
			} `json:"Kubernetes"`
		} `json:"DataSources"`
		Features []struct {
			Name   string `json:"Name"`
			Status string `json:"Status"`
		} `json:"Features"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	if c.ID == "" {
		c.ID = ci.ResourceID
	}
	d := GuardDutyDetector{DetectorID: c.ID, Enabled: bool(c.Enable)}
	if ds := c.DataSources; ds != nil {
		if ds.S3Logs != nil {
			d.S3Protection = ds.S3Logs.Enable.ptr()
		}
		if ds.Kubernetes != nil && ds.Kubernetes.AuditLogs != nil {
			d.EKSAuditLogs = ds.Kubernetes.AuditLogs.Enable.ptr()
		}
	}
	for _, f := range c.Features {
		on := boolPtr(strings.EqualFold(f.Status, "ENABLED"))
		if f.Status == "" {
			on = nil // a feature without its status (a partial item) says nothing
		}
		switch f.Name {
		case "S3_DATA_EVENTS":
			d.S3Protection = on
		case "EKS_AUDIT_LOGS":
			d.EKSAuditLogs = on
		}
	}
	return TypeGuardDutyDetector, recordedOnly(ci, conf, d, "enabled=Enable"), nil
}

func cfgLogGroup(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name      string  `json:"LogGroupName"`
		Retention flexInt `json:"RetentionInDays"`
		KMSKeyID  string  `json:"KmsKeyId"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	if c.Name == "" {
		c.Name = ci.ResourceName
	}
	return TypeLogGroup, recordedOnly(ci, conf, LogGroup{Name: c.Name, RetentionInDays: int(c.Retention), KMSKeyID: c.KMSKeyID},
		"retention_in_days=?RetentionInDays", "kms_key_id=?KmsKeyId"), nil
}
