package inventory

import (
	"encoding/json"
	"strings"
)

// Terraform mappers of the compute family: aws_instance, aws_lambda_function,
// aws_autoscaling_group, and, from the AWS provider's attribute references
// (registry.terraform.io/providers/hashicorp/aws/latest/docs),
// aws_launch_template and aws_launch_configuration. Load balancers are in
// terraform_loadbalancing.go.

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

func tfLaunchConfiguration(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		InstanceType string `json:"instance_type"`
		PublicIP     bool   `json:"associate_public_ip_address"`
		Metadata     tfBlock[struct {
			HTTPTokens   string `json:"http_tokens"`
			HTTPEndpoint string `json:"http_endpoint"`
		}] `json:"metadata_options"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	l := &LaunchConfiguration{Name: firstNonEmpty(c.Name, c.ID), InstanceType: t.InstanceType}
	if t.PublicIP {
		// false in the state is also what an unset argument records (the
		// subnet's setting then decides): only true is known.
		l.AssociatePublicIP = boolPtr(true)
	}
	if m, ok := t.Metadata.first(); ok {
		l.MetadataHTTPTokens, l.MetadataHTTPEndpoint = strings.ToLower(m.HTTPTokens), strings.ToLower(m.HTTPEndpoint)
	}
	return l, nil
}

func tfLaunchTemplate(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		InstanceType string `json:"instance_type"`
		Metadata     tfBlock[struct {
			HTTPTokens   string `json:"http_tokens"`
			HTTPEndpoint string `json:"http_endpoint"`
		}] `json:"metadata_options"`
		Interfaces []struct {
			PublicIP flexBool `json:"associate_public_ip_address"` // "true", "false" or "" in the state
		} `json:"network_interfaces"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	lt := &LaunchTemplate{LaunchTemplateID: c.ID, Name: c.Name, InstanceType: t.InstanceType}
	if m, ok := t.Metadata.first(); ok {
		lt.MetadataHTTPTokens, lt.MetadataHTTPEndpoint = strings.ToLower(m.HTTPTokens), strings.ToLower(m.HTTPEndpoint)
	}
	for _, n := range t.Interfaces {
		lt.AssociatePublicIP = lt.AssociatePublicIP || bool(n.PublicIP)
	}
	return lt, nil
}
