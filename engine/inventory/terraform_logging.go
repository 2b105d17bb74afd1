package inventory

import "encoding/json"

// Terraform mappers of the logging and detection services: aws_cloudtrail,
// aws_config_configuration_recorder, aws_guardduty_detector and
// aws_cloudwatch_log_group.

// tfRecorder maps a configuration recorder. Its on/off switch is a separate
// resource (aws_config_configuration_recorder_status), not joined: whether
// the recorder records is unknown.
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
	r := &ConfigRecorder{Name: c.Name}
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

func tfTrail(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		HomeRegion    string `json:"home_region"`
		MultiRegion   bool   `json:"is_multi_region_trail"`
		Global        bool   `json:"include_global_service_events"`
		Logging       *bool  `json:"enable_logging"`
		LogValidation bool   `json:"enable_log_file_validation"`
		KMSKeyID      string `json:"kms_key_id"`
		Bucket        string `json:"s3_bucket_name"`
		CWLogs        string `json:"cloud_watch_logs_group_arn"`
		Selectors     []struct {
			Data []struct {
				Type string `json:"type"`
			} `json:"data_resource"`
		} `json:"event_selector"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	tr := &CloudTrail{Name: c.Name, HomeRegion: t.HomeRegion, IsMultiRegionTrail: t.MultiRegion, IncludeGlobalServiceEvents: t.Global,
		IsLogging: t.Logging, LogFileValidationEnabled: t.LogValidation, KMSKeyID: t.KMSKeyID, S3BucketName: t.Bucket,
		CloudWatchLogsLogGroupARN: t.CWLogs}
	if t.Selectors != nil { // an empty block list: no data events
		data := false
		for _, s := range t.Selectors {
			for _, d := range s.Data {
				data = data || d.Type == "AWS::S3::Object"
			}
		}
		tr.S3DataEvents = &data
	}
	return tr, nil
}
