package rules

import (
	"strings"

	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// computeRules are the checks of the compute and load-balancing family:
// classic load balancers, ELBv2 listeners and attributes, launch templates
// and configurations, instances, volumes and Lambda functions.
func computeRules() []Rule {
	return append(loadBalancingRules(), []Rule{
		{ID: "aws-ec2-013", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeLaunchTemplate},
			Title:       "Launch template does not require IMDSv2",
			Description: "The launch template's metadata options allow IMDSv1 (HttpTokens optional), so every instance launched from it exposes credentials to SSRF-style requests.",
			Remediation: "Create a new template version with MetadataOptions HttpTokens=required (aws ec2 create-launch-template-version --launch-template-data '{\"MetadataOptions\":{\"HttpTokens\":\"required\"}}'; Terraform: metadata_options { http_tokens = \"required\" }) and make it the default.",
			Check: func(s *Subject) Result {
				t := get[inv.LaunchTemplate](s)
				return imdsResult(s, t.MetadataHTTPTokens, t.MetadataHTTPEndpoint, map[string]any{"launch_template_id": t.LaunchTemplateID, "name": t.Name})
			}},
		{ID: "aws-ec2-014", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeLaunchTemplate},
			Title:       "Launch template assigns public IP addresses",
			Description: "A network interface of the launch template asks for a public IPv4 address, so every instance launched from it is reachable from the internet as far as its security groups allow.",
			Remediation: "Create a template version whose NetworkInterfaces set AssociatePublicIpAddress=false (Terraform: network_interfaces { associate_public_ip_address = false }), and reach the instances through a load balancer or Session Manager.",
			Check: func(s *Subject) Result {
				t := get[inv.LaunchTemplate](s)
				return failIf(s, t.AssociatePublicIP, func() map[string]any {
					return map[string]any{"launch_template_id": t.LaunchTemplateID, "name": t.Name, "associate_public_ip": t.AssociatePublicIP}
				})
			}},
		{ID: "aws-ec2-015", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeLaunchTemplate},
			Title:       "Launch template uses a previous-generation instance type",
			Description: "Every instance launched from the template gets a previous-generation type, which gives less performance per dollar than the current generation.",
			Remediation: "Create a template version with a current-generation type of the family (m4 → m7i or m7g, c4 → c7i, r4 → r7i) and make it the default.",
			Check: func(s *Subject) Result {
				t := get[inv.LaunchTemplate](s)
				fam := instanceFamily(t.InstanceType)
				return failIf(s, previousGeneration[fam], func() map[string]any {
					return notEstimated(map[string]any{"launch_template_id": t.LaunchTemplateID, "instance_type": t.InstanceType},
						"a template runs nothing itself: the instances launched from it carry the cost (aws-ec2-010)")
				})
			}},
		{ID: "aws-ec2-016", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeInstance},
			Title:       "Running EC2 instance uses t2 where t3 costs less",
			Description: "t3 instances cost about 10% less than t2 at the same size, with more baseline performance and the Nitro system.",
			Remediation: "Stop the instance, change its type to the t3 (or Graviton t4g) of the same size (aws ec2 modify-instance-attribute --instance-type), and start it; check the AMI supports ENA and NVMe first.",
			Check: func(s *Subject) Result {
				in := get[inv.Instance](s)
				if in.State != "running" || instanceFamily(in.InstanceType) != "t2" {
					return passed(s, func() map[string]any {
						return map[string]any{"instance_id": in.InstanceID, "instance_type": in.InstanceType, "state": in.State}
					})
				}
				return fail(upgradeSaving(map[string]any{"instance_id": in.InstanceID, "instance_type": in.InstanceType},
					in.InstanceType, sameSize(in.InstanceType, "t3"), s.Resource.Region,
					func(t string) (float64, bool) { return prices.EC2(t, s.Resource.Region) }))
			}},
		{ID: "aws-ebs-007", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeEBSVolume},
			Title:       "EBS volume uses io1 where io2 is more durable at the same price",
			Description: "io2 costs the same as io1 per GiB and per provisioned IOPS but is designed for 99.999% durability instead of 99.8–99.9%.",
			Remediation: "Modify the volume in place: aws ec2 modify-volume --volume-id ID --volume-type io2 (Terraform: type = \"io2\").",
			Check: func(s *Subject) Result {
				v := get[inv.EBSVolume](s)
				return failIf(s, v.Type == "io1", func() map[string]any {
					return map[string]any{"volume_id": v.VolumeID, "type": v.Type, "size_gib": v.Size}
				})
			}},
		{ID: "aws-ebs-008", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeEBSVolume},
			Title:       "EBS volume uses previous-generation magnetic storage",
			Description: "The volume type is standard (magnetic), a previous-generation type with a few hundred IOPS at best and per-I/O charges.",
			Remediation: "Modify the volume to gp3 (aws ec2 modify-volume --volume-id ID --volume-type gp3), or to st1/sc1 for cold sequential data.",
			Check: func(s *Subject) Result {
				v := get[inv.EBSVolume](s)
				return failIf(s, v.Type == "standard", func() map[string]any {
					return map[string]any{"volume_id": v.VolumeID, "type": v.Type, "size_gib": v.Size}
				})
			}},
		{ID: "aws-asg-003", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeLaunchConfiguration},
			Title:       "Launch configuration does not require IMDSv2",
			Description: "The launch configuration's metadata options allow IMDSv1 (HttpTokens optional) on every instance its groups launch.",
			Remediation: "Launch configurations cannot be changed: create a launch template with MetadataOptions HttpTokens=required and move the group to it (aws autoscaling update-auto-scaling-group --launch-template).",
			Check: func(s *Subject) Result {
				l := get[inv.LaunchConfiguration](s)
				return imdsResult(s, l.MetadataHTTPTokens, l.MetadataHTTPEndpoint, map[string]any{"name": l.Name})
			}},
		{ID: "aws-asg-004", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeLaunchConfiguration},
			Title:       "Launch configuration assigns public IP addresses",
			Description: "AssociatePublicIpAddress is true, so every instance the Auto Scaling groups launch from it gets a public IPv4 address.",
			Remediation: "Create a launch template without public addresses (network_interfaces { associate_public_ip_address = false }) and move the group to it; put the group behind a load balancer.",
			Check: func(s *Subject) Result {
				l := get[inv.LaunchConfiguration](s)
				return failUnless(s, negate(l.AssociatePublicIP), "associate_public_ip", func() map[string]any {
					return map[string]any{"name": l.Name, "associate_public_ip": l.AssociatePublicIP}
				})
			}},
		{ID: "aws-asg-006", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeLaunchConfiguration},
			Title:       "Launch configuration uses a previous-generation instance type",
			Description: "Every instance the Auto Scaling groups launch from the configuration gets a previous-generation type, with less performance per dollar than the current generation.",
			Remediation: "Create a launch template with a current-generation type of the family (m4 → m7i or m7g, c4 → c7i, r4 → r7i) and move the group to it.",
			Check: func(s *Subject) Result {
				l := get[inv.LaunchConfiguration](s)
				return failIf(s, previousGeneration[instanceFamily(l.InstanceType)], func() map[string]any {
					return notEstimated(map[string]any{"name": l.Name, "instance_type": l.InstanceType},
						"a launch configuration runs nothing itself: the instances launched from it carry the cost (aws-ec2-010)")
				})
			}},
		{ID: "aws-asg-005", Dimension: architecture, Severity: medium, ResourceTypes: []string{inv.TypeAutoScalingGroup},
			Title:       "Auto Scaling group uses a launch configuration",
			Description: "Launch configurations are deprecated: they get no new instance types or features (IMDS defaults, mixed instances, Spot allocation), and new accounts cannot create them.",
			Remediation: "Create a launch template from the configuration (console: Copy to launch template) and update the group: aws autoscaling update-auto-scaling-group --auto-scaling-group-name NAME --launch-template LaunchTemplateName=…,Version='$Default'.",
			Check: func(s *Subject) Result {
				g := get[inv.AutoScalingGroup](s)
				return failIf(s, g.LaunchConfiguration != "", func() map[string]any {
					return map[string]any{"name": g.Name, "launch_configuration": g.LaunchConfiguration}
				})
			}},
		{ID: "aws-lambda-006", Dimension: architecture, Severity: medium, ResourceTypes: []string{inv.TypeLambdaFunction},
			Title:       "VPC-connected Lambda function uses a single subnet",
			Description: "The function is connected to a VPC through one subnet, so it runs in one Availability Zone and stops when that zone fails.",
			Remediation: "Add subnets in at least two Availability Zones: aws lambda update-function-configuration --vpc-config SubnetIds=a,b,SecurityGroupIds=… (Terraform: vpc_config { subnet_ids }).",
			Check: func(s *Subject) Result {
				f := get[inv.LambdaFunction](s)
				return failIf(s, len(f.VPCSubnetIDs) == 1, func() map[string]any {
					return map[string]any{"function_name": f.FunctionName, "vpc_subnet_ids": f.VPCSubnetIDs}
				})
			}},
		{ID: "aws-lambda-007", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeLambdaFunction},
			Title:       "Lambda function tracing is not active",
			Description: "X-Ray active tracing is off, so a slow or failing invocation cannot be followed through the services it calls.",
			Remediation: "aws lambda update-function-configuration --function-name NAME --tracing-config Mode=Active (Terraform: tracing_config { mode = \"Active\" }).",
			Check: func(s *Subject) Result {
				f := get[inv.LambdaFunction](s)
				return failIfZero(s, f.TracingMode != "Active", f.TracingMode == "", "tracing_mode", func() map[string]any {
					return map[string]any{"function_name": f.FunctionName, "tracing_mode": f.TracingMode}
				})
			}},
	}...)
}

// imdsResult judges metadata options: IMDSv2 required, or the metadata
// service off, passes; optional fails; unrecorded is not evaluated.
func imdsResult(s *Subject, tokens, endpoint string, ev map[string]any) Result {
	ev["metadata_http_tokens"], ev["metadata_http_endpoint"] = tokens, endpoint
	switch {
	case endpoint == "disabled" || tokens == "required":
		return passed(s, func() map[string]any { return ev })
	case tokens == "":
		return notEvaluated("metadata_http_tokens")
	}
	return fail(ev)
}

// negate is the tri-state's opposite: nil stays nil.
func negate(b *bool) *bool {
	if b == nil {
		return nil
	}
	v := !*b
	return &v
}

// legacyTLSPolicy reports whether an ELBv2 security policy allows TLS
// versions older than 1.2: the predefined policies of the Elastic Load
// Balancing documentation ("Security policies for your Application Load
// Balancer") whose names carry -1-0- or -1-1-, and the older ones without
// a version in the name.
func legacyTLSPolicy(name string) bool {
	switch name {
	case "ELBSecurityPolicy-2016-08", "ELBSecurityPolicy-2015-05", "ELBSecurityPolicy-FS-2018-06":
		return true
	}
	return strings.HasPrefix(name, "ELBSecurityPolicy-") && (strings.Contains(name, "-1-0-") || strings.Contains(name, "-1-1-"))
}
