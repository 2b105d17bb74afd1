package rules

import (
	"strings"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// The compute and load-balancing family's cases. Shapes: awslabs/
// aws-config-resource-schema, config/properties/resource-types/
// AWS::ElasticLoadBalancing::LoadBalancer, AWS::ElasticLoadBalancingV2::
// {Listener,LoadBalancer}, AWS::EC2::{LaunchTemplate,Instance,Volume},
// AWS::AutoScaling::{LaunchConfiguration,AutoScalingGroup},
// AWS::Lambda::Function.properties.json.
func init() {
	const elbARN = "arn:aws:elasticloadbalancing:eu-west-1:111122223333:loadbalancer/legacy-web"
	classic := func(listeners, instances, azs, policies string, hist bool) string {
		conf := `{"loadBalancerName":"legacy-web","dnsname":"legacy-web-1.eu-west-1.elb.amazonaws.com","scheme":"internet-facing",
  "availabilityZones":[` + azs + `],"subnets":["subnet-0a","subnet-0b"],"vpcid":"vpc-0a1b2c3d","securityGroups":["sg-1"],
  "instances":[` + instances + `],"listenerDescriptions":[` + listeners + `],
  "healthCheck":{"target":"HTTP:80/health","interval":30,"timeout":5,"unhealthyThreshold":2,"healthyThreshold":10},
  "createdTime":"2019-03-01T10:00:00.000Z"}`
		supp := ""
		if policies != "" {
			supp = `{"LoadBalancerPolicies":[` + policies + `]}`
		}
		if hist {
			return histItem("AWS::ElasticLoadBalancing::LoadBalancer", "legacy-web", elbARN, conf, supp)
		}
		return cfgItem("AWS::ElasticLoadBalancing::LoadBalancer", "legacy-web", elbARN, conf, supp)
	}
	two := `"eu-west-1a","eu-west-1b"`
	inst := `{"instanceId":"i-0a"},{"instanceId":"i-0b"}`
	https := `{"listener":{"protocol":"HTTPS","loadBalancerPort":443,"instanceProtocol":"HTTP","instancePort":80,
  "sslcertificateId":"arn:aws:acm:eu-west-1:111122223333:certificate/1"},"policyNames":["tls-policy"]}`
	http := `{"listener":{"protocol":"HTTP","loadBalancerPort":80,"instanceProtocol":"HTTP","instancePort":80},"policyNames":[]}`
	policy := func(ref, tls1 string) string {
		return `{"policyName":"tls-policy","policyTypeName":"SSLNegotiationPolicyType","policyAttributeDescriptions":[
  {"attributeName":"Reference-Security-Policy","attributeValue":"` + ref + `"},{"attributeName":"Protocol-TLSv1","attributeValue":"` + tls1 + `"},
  {"attributeName":"Protocol-TLSv1.2","attributeValue":"true"}]}`
	}
	goodPolicy := policy("ELBSecurityPolicy-TLS-1-2-2017-01", "false")
	alb := cfgItem("AWS::ElasticLoadBalancingV2::LoadBalancer", "web", "arn:aws:elasticloadbalancing:eu-west-1:111122223333:loadbalancer/app/web/1",
		`{"loadBalancerName":"web","type":"application","scheme":"internal","availabilityZones":[{"zoneName":"eu-west-1a"},{"zoneName":"eu-west-1b"}]}`,
		`{"LoadBalancerAttributes":[{"key":"deletion_protection.enabled","value":"true"}]}`)

	listener := func(protocol, policy, actions string) string {
		return histItem("AWS::ElasticLoadBalancingV2::Listener", "listener-1", "arn:aws:elasticloadbalancing:eu-west-1:111122223333:listener/app/web/1/2",
			`{"ListenerArn":"arn:aws:elasticloadbalancing:eu-west-1:111122223333:listener/app/web/1/2",
  "LoadBalancerArn":"arn:aws:elasticloadbalancing:eu-west-1:111122223333:loadbalancer/app/web/1","Port":80,"Protocol":"`+protocol+`",
  "SslPolicy":"`+policy+`","DefaultActions":[`+actions+`]}`, "")
	}
	redirect := `{"Type":"redirect","Order":1,"RedirectConfig":{"Protocol":"HTTPS","Port":"443","Host":"#{host}","Path":"/#{path}","Query":"#{query}","StatusCode":"HTTP_301"}}`
	forward := `{"Type":"forward","Order":1,"TargetGroupArn":"arn:aws:elasticloadbalancing:eu-west-1:111122223333:targetgroup/web/3"}`

	lt := func(data string) string {
		return cfgItem("AWS::EC2::LaunchTemplate", "lt-0a1b2c3d", ec2ARN("launch-template", "lt-0a1b2c3d"),
			`{"Id":"lt-0a1b2c3d","LaunchTemplateName":"web","DefaultVersionNumber":3,"LatestVersionNumber":3,"LaunchTemplateData":`+data+`}`, "")
	}
	lc := func(extra string) string {
		return cfgItem("AWS::AutoScaling::LaunchConfiguration", "web-lc", "arn:aws:autoscaling:eu-west-1:111122223333:launchConfiguration:1:launchConfigurationName/web-lc",
			`{"launchConfigurationName":"web-lc","imageId":"ami-0abc","instanceType":"m7g.large","securityGroups":["sg-1"],
  "instanceMonitoring":{"enabled":true},"ebsOptimized":true,"createdTime":"2024-01-01T00:00:00.000Z"`+extra+`}`, "")
	}
	instance := func(typ, state string) string {
		return cfgItem("AWS::EC2::Instance", "i-0a1b2c3d", ec2ARN("instance", "i-0a1b2c3d"),
			`{"instanceId":"i-0a1b2c3d","instanceType":"`+typ+`","imageId":"ami-0abc","launchTime":"2025-05-20T08:00:00.000Z",
  "placement":{"availabilityZone":"eu-west-1a"},"state":{"code":16,"name":"`+state+`"},"subnetId":"subnet-0a","vpcId":"vpc-0a1b2c3d",
  "metadataOptions":{"httpTokens":"required","httpEndpoint":"enabled"},"monitoring":{"state":"enabled"}}`, "")
	}
	volume := func(typ string) string {
		return histItem("AWS::EC2::Volume", "vol-0a1b2c3d", ec2ARN("volume", "vol-0a1b2c3d"),
			`{"volumeId":"vol-0a1b2c3d","size":200,"volumeType":"`+typ+`","iops":4000,"encrypted":true,"state":"in-use",
  "availabilityZone":"eu-west-1a","attachments":[{"instanceId":"i-0a1b2c3d","state":"attached"}]}`, "")
	}
	asg := func(launch string) string {
		return cfgItem("AWS::AutoScaling::AutoScalingGroup", "web", "arn:aws:autoscaling:eu-west-1:111122223333:autoScalingGroup:1:autoScalingGroupName/web",
			`{"autoScalingGroupName":"web","availabilityZones":["eu-west-1a","eu-west-1b"],"minSize":2,"maxSize":4,"desiredCapacity":2,
  "healthCheckType":"ELB","targetGroupARNs":["arn:aws:elasticloadbalancing:eu-west-1:111122223333:targetgroup/web/3"],`+launch+`}`, "")
	}
	lambda := func(extra string) string {
		return cfgItem("AWS::Lambda::Function", "jobs", "arn:aws:lambda:eu-west-1:111122223333:function:jobs",
			`{"functionName":"jobs","runtime":"python3.12","memorySize":512,"timeout":30,"architectures":["arm64"],
  "deadLetterConfig":{"targetArn":"arn:aws:sqs:eu-west-1:111122223333:dlq"}`+extra+`}`, "")
	}
	addConfigCases(map[string]configCase{
		"aws-elb-005": {pass: alb, fail: classic(https, inst, two, goodPolicy, false)},
		"aws-elb-006": {pass: classic(https, inst, two, goodPolicy, true), fail: classic(https, "", two, goodPolicy, false)},
		"aws-elb-007": {pass: classic(https, inst, two, goodPolicy, false), fail: classic(http+","+https, inst, two, goodPolicy, true)},
		"aws-elb-008": {pass: classic(https, inst, two, goodPolicy, true), fail: classic(https, inst, two, policy("ELBSecurityPolicy-2016-08", "true"), false)},
		"aws-elb-009": {pass: classic(https, inst, two, goodPolicy, false), fail: classic(https, inst, `"eu-west-1a"`, goodPolicy, false)},
		"aws-elb-010": {pass: listener("HTTP", "", redirect), fail: listener("HTTP", "", forward)},
		"aws-elb-011": {pass: listener("HTTPS", "ELBSecurityPolicy-TLS13-1-2-2021-06", forward), fail: listener("HTTPS", "ELBSecurityPolicy-2016-08", forward)},
		"aws-elb-012": {pass: cfgItem("AWS::ElasticLoadBalancingV2::LoadBalancer", "web", "arn:aws:elasticloadbalancing:eu-west-1:111122223333:loadbalancer/app/web/1",
			`{"loadBalancerName":"web","type":"application","scheme":"internal","availabilityZones":[{"zoneName":"eu-west-1a"},{"zoneName":"eu-west-1b"}]}`,
			`{"LoadBalancerAttributes":[{"key":"routing.http.drop_invalid_header_fields.enabled","value":"true"}]}`), fail: alb},
		"aws-elb-013": {pass: alb, fail: cfgItem("AWS::ElasticLoadBalancingV2::LoadBalancer", "web", "arn:aws:elasticloadbalancing:eu-west-1:111122223333:loadbalancer/app/web/1",
			`{"loadBalancerName":"web","type":"application","scheme":"internal","availabilityZones":[{"zoneName":"eu-west-1a"},{"zoneName":"eu-west-1b"}]}`,
			`{"LoadBalancerAttributes":[{"key":"routing.http.desync_mitigation_mode","value":"monitor"}]}`)},
		"aws-elb-014": {pass: nlb(`{"key":"load_balancing.cross_zone.enabled","value":"true"}`), fail: nlb(`{"key":"deletion_protection.enabled","value":"true"}`)},
		"aws-ec2-013": {pass: lt(`{"InstanceType":"m7g.large","MetadataOptions":{"HttpTokens":"required","HttpEndpoint":"enabled","HttpPutResponseHopLimit":2}}`),
			fail: lt(`{"InstanceType":"m7g.large","MetadataOptions":{"HttpTokens":"optional","HttpEndpoint":"enabled"}}`)},
		"aws-ec2-014": {pass: lt(`{"NetworkInterfaces":[{"DeviceIndex":0,"AssociatePublicIpAddress":false,"Groups":["sg-1"]}]}`),
			fail: lt(`{"NetworkInterfaces":[{"DeviceIndex":0,"AssociatePublicIpAddress":true,"Groups":["sg-1"]}]}`)},
		"aws-ec2-015": {pass: lt(`{"InstanceType":"c7i.large"}`), fail: lt(`{"InstanceType":"c4.large"}`)},
		"aws-ec2-016": {pass: instance("t3.large", "running"), fail: instance("t2.large", "running")},
		"aws-ebs-007": {pass: volume("io2"), fail: volume("io1")},
		"aws-ebs-008": {pass: volume("gp3"), fail: volume("standard")},
		"aws-asg-003": {pass: lc(`,"metadataOptions":{"httpTokens":"required","httpEndpoint":"enabled"}`), fail: lc(`,"metadataOptions":{"httpTokens":"optional"}`)},
		"aws-asg-004": {pass: lc(`,"associatePublicIpAddress":false`), fail: lc(`,"associatePublicIpAddress":true`)},
		"aws-asg-006": {pass: lc(`,"associatePublicIpAddress":false`), fail: strings.Replace(lc(``), "m7g.large", "m4.large", 1)},
		"aws-asg-005": {pass: asg(`"launchTemplate":{"launchTemplateId":"lt-0a1b2c3d","launchTemplateName":"web","version":"$Default"}`),
			fail: asg(`"launchConfigurationName":"web-lc"`)},
		"aws-lambda-006": {pass: lambda(`,"vpcConfig":{"subnetIds":["subnet-0a","subnet-0b"],"securityGroupIds":["sg-1"]},"tracingConfig":{"mode":"Active"}`),
			fail: lambda(`,"vpcConfig":{"subnetIds":["subnet-0a"],"securityGroupIds":["sg-1"]}`)},
		"aws-lambda-007": {pass: lambda(`,"tracingConfig":{"mode":"Active"}`), fail: lambda(`,"tracingConfig":{"mode":"PassThrough"}`)},
	})
	type unknownCase = struct {
		res     engine.Resource
		missing []string
	}
	unknownCases["aws-elb-008"] = unknownCase{mk(inv.TypeClassicLoadBalancer, `{"name":"c","listeners":[{"protocol":"HTTPS","load_balancer_port":443}]}`), []string{"legacy_tls"}}
	unknownCases["aws-elb-012"] = unknownCase{mk(inv.TypeLB, `{"name":"a","load_balancer_type":"application"}`), []string{"drop_invalid_header_fields"}}
	unknownCases["aws-elb-013"] = unknownCase{mk(inv.TypeLB, `{"name":"a","load_balancer_type":"application"}`), []string{"desync_mitigation_mode"}}
	unknownCases["aws-elb-014"] = unknownCase{mk(inv.TypeLB, `{"name":"n","load_balancer_type":"network","availability_zones":["a","b"]}`), []string{"cross_zone_enabled"}}
	unknownCases["aws-ec2-013"] = unknownCase{mk(inv.TypeLaunchTemplate, `{"launch_template_id":"lt-1"}`), []string{"metadata_http_tokens"}}
	unknownCases["aws-asg-003"] = unknownCase{mk(inv.TypeLaunchConfiguration, `{"name":"lc"}`), []string{"metadata_http_tokens"}}
	unknownCases["aws-asg-004"] = unknownCase{mk(inv.TypeLaunchConfiguration, `{"name":"lc"}`), []string{"associate_public_ip"}}
}

func nlb(attr string) string {
	return cfgItem("AWS::ElasticLoadBalancingV2::LoadBalancer", "nlb", "arn:aws:elasticloadbalancing:eu-west-1:111122223333:loadbalancer/net/nlb/1",
		`{"loadBalancerName":"nlb","type":"network","scheme":"internal","availabilityZones":[{"zoneName":"eu-west-1a"},{"zoneName":"eu-west-1b"}]}`,
		`{"LoadBalancerAttributes":[`+attr+`]}`)
}
