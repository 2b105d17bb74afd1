package inventory

import (
	"encoding/json"
	"time"
)

func tfInstance(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		InstanceType string `json:"instance_type"`
		State        string `json:"instance_state"`
		SubnetID     string `json:"subnet_id"`
		PublicIP     string `json:"public_ip"`
		AMI          string `json:"ami"`
		Profile      string `json:"iam_instance_profile"`
		Metadata     tfBlock[struct {
			HTTPTokens string `json:"http_tokens"`
		}] `json:"metadata_options"`
		Root []struct {
			VolumeID string `json:"volume_id"`
		} `json:"root_block_device"`
		EBS []struct {
			VolumeID string `json:"volume_id"`
		} `json:"ebs_block_device"`
		SGs        []string `json:"vpc_security_group_ids"`
		Monitoring bool     `json:"monitoring"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	in := &Instance{InstanceID: c.ID, InstanceType: t.InstanceType, State: t.State, AvailabilityZone: c.AvailabilityZone,
		SubnetID: t.SubnetID, PublicIP: t.PublicIP, ImageID: t.AMI, IAMInstanceProfile: t.Profile,
		MetadataHTTPTokens: "optional", SecurityGroupIDs: t.SGs, Monitoring: t.Monitoring,
		AutoScalingGroup: c.TagsAll["aws:autoscaling:groupName"]}
	if m, ok := t.Metadata.first(); ok && m.HTTPTokens != "" {
		in.MetadataHTTPTokens = m.HTTPTokens
	}
	for _, d := range append(t.Root, t.EBS...) {
		if d.VolumeID != "" {
			in.VolumeIDs = append(in.VolumeIDs, d.VolumeID)
		}
	}
	return in, nil
}

func tfVolume(attrs []byte, c *tfCommon) (any, error) {
	var v EBSVolume
	if err := json.Unmarshal(attrs, &v); err != nil {
		return nil, err
	}
	v.VolumeID, v.AvailabilityZone = c.ID, c.AvailabilityZone
	v.State = "" // Terraform does not know; attachments are aws_volume_attachment resources
	return &v, nil
}

func tfSnapshot(attrs []byte, c *tfCommon) (any, error) {
	var s EBSSnapshot
	if err := json.Unmarshal(attrs, &s); err != nil {
		return nil, err
	}
	s.SnapshotID = c.ID
	return &s, nil
}

func tfDBInstance(attrs []byte, c *tfCommon) (any, error) {
	var d DBInstance // Terraform's names are the canonical ones
	if err := json.Unmarshal(attrs, &d); err != nil {
		return nil, err
	}
	if d.Identifier == "" {
		d.Identifier = c.ID
	}
	return &d, nil
}

func tfEIP(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		AllocationID  string `json:"allocation_id"`
		PublicIP      string `json:"public_ip"`
		AssociationID string `json:"association_id"`
		Instance      string `json:"instance"`
		ENI           string `json:"network_interface"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	return &EIP{AllocationID: firstNonEmpty(t.AllocationID, c.ID), PublicIP: t.PublicIP, AssociationID: t.AssociationID,
		InstanceID: t.Instance, NetworkInterfaceID: t.ENI}, nil
}

func tfLB(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		Type       string `json:"load_balancer_type"`
		Internal   bool   `json:"internal"`
		DNSName    string `json:"dns_name"`
		AccessLogs tfBlock[struct {
			Enabled bool `json:"enabled"`
		}] `json:"access_logs"`
		DeletionProtection *bool `json:"enable_deletion_protection"`
		SubnetMapping      []struct {
			AZ string `json:"availability_zone"`
		} `json:"subnet_mapping"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	lb := &LoadBalancer{Name: c.Name, Type: firstNonEmpty(t.Type, "application"), Scheme: "internet-facing",
		DNSName: t.DNSName, DeletionProtection: t.DeletionProtection, AvailabilityZones: []string{}}
	if t.Internal {
		lb.Scheme = "internal"
	}
	if t.AccessLogs != nil { // an empty block list: none configured
		l, _ := t.AccessLogs.first()
		lb.AccessLogsEnabled = boolPtr(l.Enabled)
	}
	for _, m := range t.SubnetMapping {
		if m.AZ != "" {
			lb.AvailabilityZones = append(lb.AvailabilityZones, m.AZ)
		}
	}
	return lb, nil
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

func tfKMSKey(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		KeyID    string `json:"key_id"`
		Spec     string `json:"customer_master_key_spec"`
		Usage    string `json:"key_usage"`
		Enabled  *bool  `json:"is_enabled"`
		Rotation *bool  `json:"enable_key_rotation"`
		Policy   string `json:"policy"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	k := &KMSKey{KeyID: firstNonEmpty(t.KeyID, c.ID), KeyManager: "CUSTOMER", KeySpec: t.Spec, KeyUsage: t.Usage,
		KeyState: "Enabled", KeyRotationEnabled: t.Rotation}
	if t.Enabled != nil && !*t.Enabled {
		k.KeyState = "Disabled"
	}
	var err error
	if k.Policy, err = tfPolicy(t.Policy); err != nil {
		return nil, err
	}
	return k, nil
}

func tfIAMUser(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		UniqueID string `json:"unique_id"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	return &IAMUser{UserName: c.Name, UserID: t.UniqueID}, nil
}

func tfAccessKey(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		User       string    `json:"user"`
		Status     string    `json:"status"`
		CreateDate time.Time `json:"create_date"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	return &IAMAccessKey{AccessKeyID: c.ID, UserName: t.User, Status: firstNonEmpty(t.Status, "Active"), CreateDate: t.CreateDate}, nil
}

func tfVPC(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		CIDRBlock string `json:"cidr_block"`
		Default   bool   `json:"default"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	return &VPC{VPCID: c.ID, CIDRBlock: t.CIDRBlock, IsDefault: t.Default}, nil
}

// tfFlowLogScope is the joiner key recording that a state holds
// aws_flow_log resources: then a VPC of the state without one has flow
// logs off; a state without any says nothing of them.
const tfFlowLogScope = "flow_logs:terraform"

// tfFlowLog marks the VPC an aws_flow_log watches.
func tfFlowLog(attrs []byte, j *joiner) {
	j.seen[tfFlowLogScope] = true
	var t struct {
		VPCID string `json:"vpc_id"`
	}
	if json.Unmarshal(attrs, &t) == nil && t.VPCID != "" {
		j.patch("vpc:"+t.VPCID, vpcFlowLogsOn)
	}
}
