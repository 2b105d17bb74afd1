package rules

import "strings"

// AWS Config cases of the original EC2 checks. Shapes: awslabs/aws-config-
// resource-schema, config/properties/resource-types/
// AWS::EC2::SecurityGroup.properties.json (configuration.groupId,
// groupName, ipPermissions[].ipProtocol/fromPort/toPort/ipRanges/
// ipv4Ranges[].cidrIp/ipv6Ranges[].cidrIpv6, ipPermissionsEgress),
// AWS::EC2::Instance.properties.json (instanceId, instanceType,
// state.name, stateTransitionReason, publicIpAddress,
// metadataOptions.httpTokens, blockDeviceMappings[].ebs.volumeId, tags[])
// and AWS::EC2::EIP.properties.json (allocationId, publicIp,
// associationId, instanceId, networkInterfaceId): the DescribeSecurityGroups,
// DescribeInstances and DescribeAddresses shapes, in which an absent
// publicIpAddress or associationId means none.

func sgItem(name string, ingress, egress []any, history bool) string {
	return dataItem("AWS::EC2::SecurityGroup", "sg-0a1b2c3d4e5f60718", ec2ARN("security-group", "sg-0a1b2c3d4e5f60718"),
		map[string]any{"groupId": "sg-0a1b2c3d4e5f60718", "groupName": name, "description": name + " group", "vpcId": "vpc-0a1b2c3d",
			"ownerId": dataAcct, "ipPermissions": ingress, "ipPermissionsEgress": egress}, nil, history)
}

// perm is one ipPermissions entry from cidr (IPv4, or IPv6 when it holds
// a colon) on protocol and ports, in DescribeSecurityGroups' shape.
func perm(proto string, from, to int, cidr string) map[string]any {
	p := map[string]any{"ipProtocol": proto, "fromPort": from, "toPort": to, "ipRanges": []string{}, "ipv4Ranges": []any{},
		"ipv6Ranges": []any{}, "prefixListIds": []any{}, "userIdGroupPairs": []any{}}
	if proto == "-1" {
		delete(p, "fromPort")
		delete(p, "toPort")
	}
	if strings.Contains(cidr, ":") {
		p["ipv6Ranges"] = []any{map[string]any{"cidrIpv6": cidr}}
	} else {
		p["ipRanges"] = []string{cidr}
		p["ipv4Ranges"] = []any{map[string]any{"cidrIp": cidr}}
	}
	return p
}

// goodInstance is a running instance launched by an Auto Scaling group,
// IMDSv2 enforced, no public address.
func goodInstance() map[string]any {
	return map[string]any{"instanceId": "i-0a1b2c3d4e5f60718", "instanceType": "m7g.large", "imageId": "ami-0a1b2c3d4e5f60718",
		"state": map[string]any{"code": 16, "name": "running"}, "stateTransitionReason": "", "launchTime": "2025-05-01T08:00:00.000Z",
		"placement": map[string]any{"availabilityZone": "eu-west-1a", "tenancy": "default"}, "privateIpAddress": "10.0.1.15",
		"subnetId": "subnet-0a1b2c3d", "vpcId": "vpc-0a1b2c3d", "metadataOptions": map[string]any{"httpTokens": "required", "httpEndpoint": "enabled", "httpPutResponseHopLimit": 1},
		"monitoring":          map[string]any{"state": "disabled"},
		"blockDeviceMappings": []any{map[string]any{"deviceName": "/dev/xvda", "ebs": map[string]any{"volumeId": "vol-0a1b2c3d4e5f60718", "status": "attached"}}},
		"securityGroups":      []any{map[string]any{"groupId": "sg-0a1b2c3d4e5f60718", "groupName": "web"}},
		"tags":                []any{map[string]any{"key": "aws:autoscaling:groupName", "value": "web"}}}
}

func instanceItem(conf map[string]any, history bool) string {
	return dataItem("AWS::EC2::Instance", "i-0a1b2c3d4e5f60718", ec2ARN("instance", "i-0a1b2c3d4e5f60718"), conf, nil, history)
}

func eipItem(conf map[string]any, history bool) string {
	return dataItem("AWS::EC2::EIP", "eipalloc-0a1b2c3d4e5f60718", ec2ARN("eip-allocation", "eipalloc-0a1b2c3d4e5f60718"), conf, nil, history)
}

func init() {
	allOut := []any{perm("-1", 0, 0, "0.0.0.0/0")}
	sshVPN := []any{perm("tcp", 22, 22, "10.0.0.0/8"), perm("tcp", 443, 443, "0.0.0.0/0")}
	stopped := func(since string) map[string]any {
		return with(goodInstance(), "state", map[string]any{"code": 80, "name": "stopped"}, "stateTransitionReason", "User initiated ("+since+" GMT)")
	}
	eip := map[string]any{"allocationId": "eipalloc-0a1b2c3d4e5f60718", "publicIp": "203.0.113.25", "domain": "vpc"}
	addConfigCases(map[string]configCase{
		"aws-ec2-001": {sgItem("web", sshVPN, allOut, false), sgItem("web", []any{perm("tcp", 22, 22, "0.0.0.0/0")}, allOut, true)},
		"aws-ec2-002": {sgItem("web", sshVPN, allOut, false), sgItem("web", []any{perm("tcp", 3389, 3389, "0.0.0.0/0")}, allOut, false)},
		"aws-ec2-003": {sgItem("web", append(sshVPN, perm("tcp", 443, 443, "::/0")), allOut, false),
			sgItem("web", []any{perm("tcp", 22, 22, "::/0")}, allOut, true)},
		"aws-ec2-004": {sgItem("web", sshVPN, allOut, false), sgItem("web", []any{perm("-1", 0, 0, "0.0.0.0/0")}, allOut, false)},
		"aws-ec2-005": {sgItem("db", []any{perm("tcp", 5432, 5432, "10.0.0.0/16")}, allOut, false),
			sgItem("db", []any{perm("tcp", 5432, 5432, "0.0.0.0/0")}, allOut, true)},
		// A default group as AWS creates it allows all egress; CIS 5.4
		// wants it stripped of every rule.
		"aws-ec2-006": {sgItem("default", []any{}, []any{}, false), sgItem("default", []any{}, allOut, false)},
		"aws-ec2-007": {instanceItem(goodInstance(), false),
			instanceItem(with(goodInstance(), "metadataOptions", map[string]any{"httpTokens": "optional", "httpEndpoint": "enabled"}), true)},
		"aws-ec2-008": {instanceItem(goodInstance(), false), instanceItem(with(goodInstance(), "publicIpAddress", "203.0.113.40"), false)},
		"aws-ec2-009": {eipItem(with(eip, "associationId", "eipassoc-0a1b2c3d", "instanceId", "i-0a1b2c3d4e5f60718"), false), eipItem(eip, true)},
		"aws-ec2-010": {instanceItem(goodInstance(), false), instanceItem(with(goodInstance(), "instanceType", "m4.xlarge"), false)},
		"aws-ec2-011": {instanceItem(stopped("2025-05-30 09:12:44"), false), instanceItem(stopped("2025-01-02 09:12:44"), true)},
		"aws-ec2-012": {instanceItem(goodInstance(), false), instanceItem(with(goodInstance(), "tags", []any{map[string]any{"key": "Name", "value": "web-1"}}), false)},
	})
}
