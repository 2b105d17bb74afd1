package inventory

import (
	"strings"
	"time"
)

// AWS Config mappers of the compute family: AWS::EC2::Instance,
// AWS::AutoScaling::AutoScalingGroup, AWS::Lambda::Function, and (shapes:
// awslabs/aws-config-resource-schema, config/properties/resource-types/)
// AWS::EC2::LaunchTemplate (CloudFormation-style capitalized names) and
// AWS::AutoScaling::LaunchConfiguration. Load balancers are in
// awsconfig_loadbalancing.go.

func cfgLaunchTemplate(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		ID   string `json:"Id"`
		Name string `json:"LaunchTemplateName"`
		Data struct {
			InstanceType string `json:"InstanceType"`
			Metadata     struct {
				HTTPTokens   string `json:"HttpTokens"`
				HTTPEndpoint string `json:"HttpEndpoint"`
			} `json:"MetadataOptions"`
			Interfaces []struct {
				PublicIP flexBool `json:"AssociatePublicIpAddress"`
			} `json:"NetworkInterfaces"`
		} `json:"LaunchTemplateData"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	t := LaunchTemplate{LaunchTemplateID: c.ID, Name: c.Name, InstanceType: c.Data.InstanceType,
		MetadataHTTPTokens: strings.ToLower(c.Data.Metadata.HTTPTokens), MetadataHTTPEndpoint: strings.ToLower(c.Data.Metadata.HTTPEndpoint)}
	if t.LaunchTemplateID == "" {
		t.LaunchTemplateID = ci.ResourceID
	}
	for _, n := range c.Data.Interfaces {
		t.AssociatePublicIP = t.AssociatePublicIP || bool(n.PublicIP)
	}
	return TypeLaunchTemplate, t, nil
}

func cfgLaunchConfiguration(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name         string    `json:"launchConfigurationName"`
		InstanceType string    `json:"instanceType"`
		PublicIP     *flexBool `json:"associatePublicIpAddress"`
		Metadata     struct {
			HTTPTokens   string `json:"httpTokens"`
			HTTPEndpoint string `json:"httpEndpoint"`
		} `json:"metadataOptions"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	l := LaunchConfiguration{Name: c.Name, InstanceType: c.InstanceType, AssociatePublicIP: c.PublicIP.ptr(),
		MetadataHTTPTokens: strings.ToLower(c.Metadata.HTTPTokens), MetadataHTTPEndpoint: strings.ToLower(c.Metadata.HTTPEndpoint)}
	if l.Name == "" {
		l.Name = ci.ResourceName
	}
	return TypeLaunchConfiguration, l, nil
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

func cfgLambda(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name          string   `json:"functionName"`
		Runtime       string   `json:"runtime"`
		MemorySize    flexInt  `json:"memorySize"`
		Timeout       flexInt  `json:"timeout"`
		Architectures []string `json:"architectures"`
		DLQ           struct {
			TargetARN string `json:"targetArn"`
		} `json:"deadLetterConfig"`
		Tracing struct {
			Mode string `json:"mode"`
		} `json:"tracingConfig"`
		VPC struct {
			SubnetIDs []string `json:"subnetIds"`
		} `json:"vpcConfig"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	f := LambdaFunction{FunctionName: c.Name, Runtime: c.Runtime, MemorySize: int(c.MemorySize), Timeout: int(c.Timeout),
		Architectures: c.Architectures, DeadLetterTargetARN: c.DLQ.TargetARN, TracingMode: c.Tracing.Mode, VPCSubnetIDs: c.VPC.SubnetIDs}
	if len(f.Architectures) == 0 {
		f.Architectures = []string{"x86_64"}
	}
	// The function's resource policy when the item carries one as
	// supplementaryConfiguration.Policy. AWS's published schema lists only
	// Concurrency among Lambda's queryable supplementary values, so absent
	// means unknown, not "no policy".
	if err := supp(ci, "Policy", &f.Policy); err != nil {
		return "", nil, err
	}
	return TypeLambdaFunction, recordedOnly(ci, conf, f, "architectures=?architectures", "dead_letter_target_arn=?deadLetterConfig.?targetArn",
		"tracing_mode=tracingConfig.mode", "runtime=runtime", "memory_size=memorySize", "timeout=timeout"), nil
}

func cfgASG(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name          string   `json:"autoScalingGroupName"`
		AZs           []string `json:"availabilityZones"`
		Min           flexInt  `json:"minSize"`
		Max           flexInt  `json:"maxSize"`
		Desired       flexInt  `json:"desiredCapacity"`
		HealthCheck   string   `json:"healthCheckType"`
		TargetGroups  []string `json:"targetGroupARNs"`
		LoadBalancers []string `json:"loadBalancerNames"`
		LaunchConfig  string   `json:"launchConfigurationName"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	return TypeAutoScalingGroup, recordedOnly(ci, conf, AutoScalingGroup{Name: c.Name, AvailabilityZones: c.AZs, MinSize: int(c.Min),
		MaxSize: int(c.Max), DesiredCapacity: int(c.Desired), HealthCheckType: c.HealthCheck,
		TargetGroupARNs: c.TargetGroups, LoadBalancers: c.LoadBalancers, LaunchConfiguration: c.LaunchConfig},
		"availability_zones=availabilityZones", "min_size=minSize", "max_size=maxSize", "desired_capacity=desiredCapacity",
		"health_check_type=healthCheckType"), nil
}
