package inventory

import (
	"encoding/json"
	"strings"
	"time"
)

func cfgS3Bucket(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name         string   `json:"name"`
		CreationDate flexTime `json:"creationDate"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	b := S3Bucket{Bucket: c.Name, CreationDate: c.CreationDate.t()}
	if b.Bucket == "" {
		b.Bucket = ci.ResourceName
	}
	var acl struct {
		GrantList []struct {
			Grantee    json.RawMessage `json:"grantee"`
			Permission string          `json:"permission"`
		} `json:"grantList"`
	}
	if err := supp(ci, "AccessControlList", &acl); err != nil {
		return "", nil, err
	}
	for _, g := range acl.GrantList {
		b.ACLGrants = append(b.ACLGrants, ACLGrant{Grantee: granteeName(g.Grantee), Permission: g.Permission})
	}
	pab, err := cfgPublicAccessBlock(ci.Supplementary["PublicAccessBlockConfiguration"])
	if err != nil {
		return "", nil, err
	}
	b.PublicAccessBlock = pab
	var pol struct {
		PolicyText *PolicyDocument `json:"policyText"`
	}
	if err := supp(ci, "BucketPolicy", &pol); err != nil {
		return "", nil, err
	}
	b.Policy = pol.PolicyText
	var sse struct {
		Rules []struct {
			Default struct {
				SSEAlgorithm   string `json:"sseAlgorithm"`
				KMSMasterKeyID string `json:"kmsMasterKeyID"`
			} `json:"applyServerSideEncryptionByDefault"`
		} `json:"rules"`
	}
	if err := supp(ci, "ServerSideEncryptionConfiguration", &sse); err != nil {
		return "", nil, err
	}
	if len(sse.Rules) > 0 {
		b.SSEAlgorithm, b.KMSMasterKeyID = sse.Rules[0].Default.SSEAlgorithm, sse.Rules[0].Default.KMSMasterKeyID
	}
	var ver struct {
		Status    string   `json:"status"`
		MFADelete flexBool `json:"isMfaDeleteEnabled"`
	}
	if err := supp(ci, "BucketVersioningConfiguration", &ver); err != nil {
		return "", nil, err
	}
	if ver.Status != "Off" {
		b.Versioning = ver.Status
	}
	b.MFADelete = bool(ver.MFADelete)
	var logging struct {
		Destination string `json:"destinationBucketName"`
	}
	if err := supp(ci, "BucketLoggingConfiguration", &logging); err != nil {
		return "", nil, err
	}
	b.LoggingTargetBucket = logging.Destination
	var lc struct {
		Rules []struct {
			Status string `json:"status"`
		} `json:"rules"`
	}
	if err := supp(ci, "BucketLifecycleConfiguration", &lc); err != nil {
		return "", nil, err
	}
	for _, r := range lc.Rules {
		if strings.EqualFold(r.Status, "Enabled") {
			b.LifecycleRuleCount++
		}
	}
	return TypeS3Bucket, b, nil
}

// cfgPAB is S3's public access block as AWS Config writes it: the API's
// PublicAccessBlockConfiguration with camelCase keys, the same shape in a
// bucket's supplementaryConfiguration and in the configuration of an
// AWS::S3::AccountPublicAccessBlock item.
type cfgPAB struct {
	BlockPublicACLs       flexBool `json:"blockPublicAcls"`
	IgnorePublicACLs      flexBool `json:"ignorePublicAcls"`
	BlockPublicPolicy     flexBool `json:"blockPublicPolicy"`
	RestrictPublicBuckets flexBool `json:"restrictPublicBuckets"`
}

// cfgPublicAccessBlock reads a public access block value (an object or a
// JSON string holding one); nil when absent or null.
func cfgPublicAccessBlock(raw json.RawMessage) (*PublicAccessBlock, error) {
	b := jsonObject(raw)
	if b == nil {
		return nil, nil
	}
	var c cfgPAB
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, err
	}
	return &PublicAccessBlock{BlockPublicACLs: bool(c.BlockPublicACLs), IgnorePublicACLs: bool(c.IgnorePublicACLs),
		BlockPublicPolicy: bool(c.BlockPublicPolicy), RestrictPublicBuckets: bool(c.RestrictPublicBuckets)}, nil
}

// granteeName reads an ACL grantee: a group name string ("AllUsers") or a
// canonical user object ({"id": …}).
func granteeName(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var u struct {
		ID  string `json:"id"`
		URI string `json:"uri"`
	}
	_ = json.Unmarshal(raw, &u)
	if u.URI != "" {
		return u.URI[strings.LastIndexByte(u.URI, '/')+1:]
	}
	return u.ID
}

type cfgIPPermission struct {
	IPProtocol string   `json:"ipProtocol"`
	FromPort   *int     `json:"fromPort"`
	ToPort     *int     `json:"toPort"`
	IPRanges   []string `json:"ipRanges"`
	IPv4Ranges []struct {
		CIDR string `json:"cidrIp"`
	} `json:"ipv4Ranges"`
	IPv6Ranges []struct {
		CIDR string `json:"cidrIpv6"`
	} `json:"ipv6Ranges"`
	Groups []struct {
		GroupID string `json:"groupId"`
	} `json:"userIdGroupPairs"`
}

func (p cfgIPPermission) rule() SGRule {
	r := SGRule{Protocol: p.IPProtocol, FromPort: 0, ToPort: 65535}
	if p.FromPort != nil && *p.FromPort >= 0 {
		r.FromPort = *p.FromPort
	}
	if p.ToPort != nil && *p.ToPort >= 0 {
		r.ToPort = *p.ToPort
	}
	seen := map[string]bool{}
	for _, c := range p.IPRanges {
		if !seen[c] {
			seen[c] = true
			r.CIDRBlocks = append(r.CIDRBlocks, c)
		}
	}
	for _, c := range p.IPv4Ranges {
		if !seen[c.CIDR] {
			seen[c.CIDR] = true
			r.CIDRBlocks = append(r.CIDRBlocks, c.CIDR)
		}
	}
	for _, c := range p.IPv6Ranges {
		r.IPv6CIDRBlocks = append(r.IPv6CIDRBlocks, c.CIDR)
	}
	for _, g := range p.Groups {
		r.SecurityGroups = append(r.SecurityGroups, g.GroupID)
	}
	return r
}

func cfgSecurityGroup(_ *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		GroupID     string            `json:"groupId"`
		GroupName   string            `json:"groupName"`
		Description string            `json:"description"`
		VPCID       string            `json:"vpcId"`
		Ingress     []cfgIPPermission `json:"ipPermissions"`
		Egress      []cfgIPPermission `json:"ipPermissionsEgress"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	g := SecurityGroup{GroupID: c.GroupID, GroupName: c.GroupName, Description: c.Description, VPCID: c.VPCID,
		Ingress: []SGRule{}, Egress: []SGRule{}}
	for _, p := range c.Ingress {
		g.Ingress = append(g.Ingress, p.rule())
	}
	for _, p := range c.Egress {
		g.Egress = append(g.Egress, p.rule())
	}
	return TypeSecurityGroup, g, nil
}

func cfgInstance(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		InstanceID   string   `json:"instanceId"`
		InstanceType string   `json:"instanceType"`
		LaunchTime   flexTime `json:"launchTime"`
		Placement    struct {
			AZ string `json:"availabilityZone"`
		} `json:"placement"`
		PublicIP string `json:"publicIpAddress"`
		State    struct {
			Name string `json:"name"`
		} `json:"state"`
		StateTransitionReason string `json:"stateTransitionReason"`
		SubnetID              string `json:"subnetId"`
		VPCID                 string `json:"vpcId"`
		ImageID               string `json:"imageId"`
		Profile               *struct {
			ARN string `json:"arn"`
		} `json:"iamInstanceProfile"`
		Metadata struct {
			HTTPTokens string `json:"httpTokens"`
		} `json:"metadataOptions"`
		Devices []struct {
			EBS struct {
				VolumeID string `json:"volumeId"`
			} `json:"ebs"`
		} `json:"blockDeviceMappings"`
		SecurityGroups []struct {
			GroupID string `json:"groupId"`
		} `json:"securityGroups"`
		Monitoring struct {
			State string `json:"state"`
		} `json:"monitoring"`
		Tags tagList `json:"tags"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	in := Instance{InstanceID: c.InstanceID, InstanceType: c.InstanceType, State: c.State.Name,
		LaunchTime: c.LaunchTime.t(), AvailabilityZone: c.Placement.AZ, VPCID: c.VPCID, SubnetID: c.SubnetID,
		PublicIP: c.PublicIP, ImageID: c.ImageID, MetadataHTTPTokens: c.Metadata.HTTPTokens,
		Monitoring: c.Monitoring.State == "enabled", StateChangedAt: transitionTime(c.StateTransitionReason)}
	if c.Profile != nil {
		in.IAMInstanceProfile = c.Profile.ARN
	}
	for _, d := range c.Devices {
		if d.EBS.VolumeID != "" {
			in.VolumeIDs = append(in.VolumeIDs, d.EBS.VolumeID)
		}
	}
	for _, g := range c.SecurityGroups {
		in.SecurityGroupIDs = append(in.SecurityGroupIDs, g.GroupID)
	}
	in.AutoScalingGroup = c.Tags.get("aws:autoscaling:groupName")
	if in.AutoScalingGroup == "" {
		in.AutoScalingGroup = ci.Tags["aws:autoscaling:groupName"]
	}
	return TypeInstance, in, nil
}

// transitionTime reads the time out of an EC2 state transition reason such
// as "User initiated (2024-03-01 09:12:44 GMT)".
func transitionTime(reason string) time.Time {
	i, j := strings.IndexByte(reason, '('), strings.LastIndexByte(reason, ')')
	if i < 0 || j <= i {
		return time.Time{}
	}
	t, err := time.Parse("2006-01-02 15:04:05 MST", reason[i+1:j])
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

func cfgVolume(_ *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		VolumeID    string   `json:"volumeId"`
		Size        flexInt  `json:"size"`
		VolumeType  string   `json:"volumeType"`
		IOPS        flexInt  `json:"iops"`
		Encrypted   flexBool `json:"encrypted"`
		KMSKeyID    string   `json:"kmsKeyId"`
		State       string   `json:"state"`
		AZ          string   `json:"availabilityZone"`
		CreateTime  flexTime `json:"createTime"`
		Attachments []struct {
			InstanceID string `json:"instanceId"`
		} `json:"attachments"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	v := EBSVolume{VolumeID: c.VolumeID, Size: int(c.Size), Type: c.VolumeType, IOPS: int(c.IOPS), Encrypted: bool(c.Encrypted),
		KMSKeyID: c.KMSKeyID, State: c.State, AvailabilityZone: c.AZ, CreateTime: c.CreateTime.t()}
	for _, a := range c.Attachments {
		v.AttachedTo = append(v.AttachedTo, a.InstanceID)
	}
	return TypeEBSVolume, v, nil
}

func cfgEIP(_ *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		AllocationID       string `json:"allocationId"`
		PublicIP           string `json:"publicIp"`
		AssociationID      string `json:"associationId"`
		InstanceID         string `json:"instanceId"`
		NetworkInterfaceID string `json:"networkInterfaceId"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	return TypeEIP, EIP(c), nil
}

func cfgVPC(ci *configItem, conf []byte, j *joiner) (string, any, error) {
	var c struct {
		VPCID     string   `json:"vpcId"`
		CIDRBlock string   `json:"cidrBlock"`
		IsDefault flexBool `json:"isDefault"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	if j != nil {
		j.patch("vpc:"+c.VPCID, vpcFlowLogsOff(j, cfgFlowLogScope(ci)))
	}
	return TypeVPC, VPC{VPCID: c.VPCID, CIDRBlock: c.CIDRBlock, IsDefault: bool(c.IsDefault)}, nil
}

// cfgFlowLogScope is the joiner key recording that the input holds flow
// log items of ci's account: AWS Config records AWS::EC2::FlowLog for the
// account, so a VPC of the account without one has flow logs off.
func cfgFlowLogScope(ci *configItem) string {
	return "flow_logs:" + firstNonEmpty(ci.AWSAccountID, ci.AccountID)
}

// cfgFlowLog keeps the flow log as inventory and marks its VPC as logged.
func cfgFlowLog(ci *configItem, conf []byte, j *joiner) (string, any, error) {
	var c struct {
		FlowLogID     string `json:"flowLogId"`
		ResourceID    string `json:"resourceId"`
		Status        string `json:"flowLogStatus"`
		TrafficType   string `json:"trafficType"`
		LogDestType   string `json:"logDestinationType"`
		LogDestinaton string `json:"logDestination"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	if j != nil {
		j.seen[cfgFlowLogScope(ci)] = true
		if strings.HasPrefix(c.ResourceID, "vpc-") && (c.Status == "" || c.Status == "ACTIVE") {
			j.patch("vpc:"+c.ResourceID, vpcFlowLogsOn)
		}
	}
	return "aws_flow_log", map[string]string{"flow_log_id": c.FlowLogID, "resource_id": c.ResourceID,
		"traffic_type": c.TrafficType, "log_destination_type": c.LogDestType, "log_destination": c.LogDestinaton}, nil
}
