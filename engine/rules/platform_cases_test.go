package rules

import "testing"

// AWS Config cases of the platform family (identity, governance, security
// services, containers, messaging, monitoring). Shapes: awslabs/aws-config-
// resource-schema, config/properties/resource-types/<type>.properties.json
// (ECS and EKS types record CloudFormation-style PascalCase keys); the
// envelope is AWS Config's configuration item, in the snapshot encoding
// (objects; ARN/awsAccountId/configurationItemVersion) or the history one
// (configuration and supplements as JSON strings; arn/accountId/version).

const platAcct, platRegion = "111122223333", "eu-west-1"

// platItem renders one configuration item of the platform family's account.
func platItem(rtype, id, arn string, conf, supp map[string]any, history bool) string {
	return configItemJSON(platAcct, platRegion, map[string]string{"owner": "platform", "environment": "production", "cost-center": "cc-4100"},
		rtype, id, arn, conf, supp, history)
}

type pobj = map[string]any
type parr = []any

// ecsTD is a hardened Fargate task definition; edit changes its copy (the
// task definition and its first container) before rendering.
func ecsTD(history bool, edit func(td, c pobj)) string {
	c := pobj{"Name": "web", "Image": "111122223333.dkr.ecr.eu-west-1.amazonaws.com/web:1.4.2", "Essential": true,
		"User": "1000", "ReadonlyRootFilesystem": true, "Privileged": false,
		"LogConfiguration": pobj{"LogDriver": "awslogs", "Options": pobj{"awslogs-group": "/ecs/web", "awslogs-region": platRegion}},
		"Environment":      parr{pobj{"Name": "LOG_LEVEL", "Value": "info"}, pobj{"Name": "DB_PASSWORD_SECRET_ARN", "Value": "arn:aws:secretsmanager:eu-west-1:111122223333:secret:db-AbCdEf"}},
		"Secrets":          parr{pobj{"Name": "DB_PASSWORD", "ValueFrom": "arn:aws:secretsmanager:eu-west-1:111122223333:secret:db-AbCdEf"}},
		"LinuxParameters":  pobj{"Capabilities": pobj{"Add": parr{"NET_BIND_SERVICE"}, "Drop": parr{"ALL"}}, "InitProcessEnabled": true},
		"PortMappings":     parr{pobj{"ContainerPort": 8080, "Protocol": "tcp"}}}
	td := pobj{"Family": "acme-web", "TaskDefinitionArn": "arn:aws:ecs:eu-west-1:111122223333:task-definition/acme-web:7",
		"NetworkMode": "awsvpc", "RequiresCompatibilities": parr{"FARGATE"}, "Cpu": "512", "Memory": "1024", "Status": "ACTIVE",
		"TaskRoleArn": "arn:aws:iam::111122223333:role/acme-web-task", "ExecutionRoleArn": "arn:aws:iam::111122223333:role/acme-web-exec",
		"ContainerDefinitions": parr{c},
		"Volumes":              parr{pobj{"Name": "shared", "EfsVolumeConfiguration": pobj{"FileSystemId": "fs-0a1b2c3d4e5f60718", "TransitEncryption": "ENABLED"}}}}
	if edit != nil {
		edit(td, c)
	}
	return platItem("AWS::ECS::TaskDefinition", "arn:aws:ecs:eu-west-1:111122223333:task-definition/acme-web:7", "arn:aws:ecs:eu-west-1:111122223333:task-definition/acme-web:7", td, nil, history)
}

func ecsCluster(history bool, edit func(pobj)) string {
	c := pobj{"ClusterName": "acme-prod", "Arn": "arn:aws:ecs:eu-west-1:111122223333:cluster/acme-prod",
		"ClusterSettings":   parr{pobj{"Name": "containerInsights", "Value": "enhanced"}},
		"CapacityProviders": parr{"FARGATE", "FARGATE_SPOT"},
		"Configuration":     pobj{"ExecuteCommandConfiguration": pobj{"Logging": "DEFAULT"}}}
	if edit != nil {
		edit(c)
	}
	return platItem("AWS::ECS::Cluster", "acme-prod", "arn:aws:ecs:eu-west-1:111122223333:cluster/acme-prod", c, nil, history)
}

func ecsService(history bool, edit func(pobj)) string {
	arn := "arn:aws:ecs:eu-west-1:111122223333:service/acme-prod/web"
	c := pobj{"ServiceName": "web", "ServiceArn": arn, "Cluster": "arn:aws:ecs:eu-west-1:111122223333:cluster/acme-prod",
		"LaunchType": "FARGATE", "PlatformVersion": "LATEST", "SchedulingStrategy": "REPLICA", "DesiredCount": 3,
		"TaskDefinition":       "arn:aws:ecs:eu-west-1:111122223333:task-definition/acme-web:7",
		"NetworkConfiguration": pobj{"AwsvpcConfiguration": pobj{"AssignPublicIp": "DISABLED", "Subnets": parr{"subnet-0aa11bb22cc33dd44"}, "SecurityGroups": parr{"sg-0web0000000000001"}}},
		"DeploymentConfiguration": pobj{"MaximumPercent": 200, "MinimumHealthyPercent": 100,
			"DeploymentCircuitBreaker": pobj{"Enable": true, "Rollback": true}}}
	if edit != nil {
		edit(c)
	}
	return platItem("AWS::ECS::Service", arn, arn, c, nil, history)
}

func eksCluster(history bool, edit func(pobj)) string {
	arn := "arn:aws:eks:eu-west-1:111122223333:cluster/acme-prod"
	c := pobj{"Name": "acme-prod", "Arn": arn, "Version": "1.33", "RoleArn": "arn:aws:iam::111122223333:role/eks-cluster",
		"ResourcesVpcConfig": pobj{"EndpointPublicAccess": false, "EndpointPrivateAccess": true, "PublicAccessCidrs": parr{"0.0.0.0/0"},
			"SubnetIds": parr{"subnet-0aa11bb22cc33dd44", "subnet-0bb22cc33dd44ee55"}, "SecurityGroupIds": parr{"sg-0eks0000000000001"}},
		"EncryptionConfig": parr{pobj{"Resources": parr{"secrets"}, "Provider": pobj{"KeyArn": "arn:aws:kms:eu-west-1:111122223333:key/0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"}}},
		"Logging": pobj{"ClusterLogging": pobj{"EnabledTypes": parr{pobj{"Type": "api"}, pobj{"Type": "audit"}, pobj{"Type": "authenticator"},
			pobj{"Type": "controllerManager"}, pobj{"Type": "scheduler"}}}}}
	if edit != nil {
		edit(c)
	}
	return platItem("AWS::EKS::Cluster", "acme-prod", arn, c, nil, history)
}

func init() {
	addConfigCases(map[string]configCase{
		"aws-ecs-001": {ecsTD(false, nil), ecsTD(true, func(_, c pobj) { c["Privileged"] = true })},
		"aws-ecs-002": {ecsTD(false, nil), ecsTD(false, func(td, _ pobj) { td["NetworkMode"] = "host" })},
		"aws-ecs-003": {ecsTD(true, nil), ecsTD(false, func(_, c pobj) { c["User"] = "0:0" })},
		"aws-ecs-004": {ecsTD(false, nil), ecsTD(true, func(_, c pobj) {
			c["Environment"] = parr{pobj{"Name": "AWS_SECRET_ACCESS_KEY", "Value": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}}
		})},
		"aws-ecs-005": {ecsTD(false, nil), ecsTD(false, func(_, c pobj) { delete(c, "LogConfiguration") })},
		"aws-ecs-006": {ecsTD(false, nil), ecsTD(true, func(_, c pobj) { c["ReadonlyRootFilesystem"] = false })},
		"aws-ecs-007": {ecsTD(false, nil), ecsTD(false, func(td, _ pobj) { td["PidMode"] = "host"; td["IpcMode"] = "host" })},
		"aws-ecs-008": {ecsTD(false, nil), ecsTD(false, func(_, c pobj) {
			c["LinuxParameters"] = pobj{"Capabilities": pobj{"Add": parr{"SYS_ADMIN"}}}
		})},
		"aws-ecs-009": {ecsTD(true, nil), ecsTD(false, func(td, _ pobj) {
			td["Volumes"] = parr{pobj{"Name": "shared", "EfsVolumeConfiguration": pobj{"FileSystemId": "fs-0a1b2c3d4e5f60718", "TransitEncryption": "DISABLED"}}}
		})},
		"aws-ecs-010": {ecsTD(false, func(td, _ pobj) {
			td["Volumes"] = parr{pobj{"Name": "scratch", "Host": pobj{"SourcePath": "/mnt/scratch"}}}
		}), ecsTD(false, func(td, _ pobj) {
			td["Volumes"] = parr{pobj{"Name": "docker", "Host": pobj{"SourcePath": "/var/run/docker.sock"}}}
		})},
		"aws-ecs-011": {ecsCluster(false, nil), ecsCluster(true, func(c pobj) {
			c["ClusterSettings"] = parr{pobj{"Name": "containerInsights", "Value": "disabled"}}
		})},
		"aws-ecs-012": {ecsCluster(true, nil), ecsCluster(false, func(c pobj) {
			c["Configuration"] = pobj{"ExecuteCommandConfiguration": pobj{"Logging": "NONE"}}
		})},
		"aws-ecs-013": {ecsService(false, nil), ecsService(true, func(c pobj) {
			c["NetworkConfiguration"] = pobj{"AwsvpcConfiguration": pobj{"AssignPublicIp": "ENABLED", "Subnets": parr{"subnet-0pub"}}}
		})},
		"aws-ecs-014": {ecsService(false, func(c pobj) { c["SchedulingStrategy"] = "DAEMON"; c["DesiredCount"] = 1 }),
			ecsService(false, func(c pobj) { c["DesiredCount"] = 1 })},
		"aws-ecs-015": {ecsService(true, nil), ecsService(false, func(c pobj) {
			c["DeploymentConfiguration"] = pobj{"MaximumPercent": 200, "MinimumHealthyPercent": 100}
		})},
		"aws-ecs-016": {ecsService(false, func(c pobj) { c["PlatformVersion"] = "1.4.0" }),
			ecsService(true, func(c pobj) { c["PlatformVersion"] = "1.3.0" })},
		"aws-eks-001": {eksCluster(false, func(c pobj) {
			c["ResourcesVpcConfig"] = pobj{"EndpointPublicAccess": true, "EndpointPrivateAccess": true, "PublicAccessCidrs": parr{"203.0.113.0/24"}}
		}), eksCluster(true, func(c pobj) {
			c["ResourcesVpcConfig"] = pobj{"EndpointPublicAccess": true, "EndpointPrivateAccess": true, "PublicAccessCidrs": parr{"0.0.0.0/0"}}
		})},
		"aws-eks-002": {eksCluster(true, nil), eksCluster(false, func(c pobj) { delete(c, "EncryptionConfig") })},
		// describe-cluster's own shape of clusterLogging on the passing side.
		"aws-eks-003": {eksCluster(false, func(c pobj) {
			c["Logging"] = pobj{"ClusterLogging": parr{pobj{"Types": parr{"api", "audit", "authenticator", "controllerManager", "scheduler"}, "Enabled": true}}}
		}), eksCluster(true, func(c pobj) {
			c["Logging"] = pobj{"ClusterLogging": pobj{"EnabledTypes": parr{pobj{"Type": "api"}}}}
		})},
		// testNow is 2025-06-01: 1.29's standard support ended 2025-03-23.
		"aws-eks-004": {eksCluster(false, func(c pobj) { c["Version"] = "1.31" }), eksCluster(true, func(c pobj) { c["Version"] = "1.29" })},
		"aws-eks-005": {eksCluster(false, func(c pobj) { c["Version"] = "1.29" }), eksCluster(false, func(c pobj) { c["Version"] = "1.24" })},
		"aws-eks-006": {eksCluster(true, nil), eksCluster(false, func(c pobj) {
			c["ResourcesVpcConfig"] = pobj{"EndpointPublicAccess": true, "EndpointPrivateAccess": false, "PublicAccessCidrs": parr{"203.0.113.0/24"}}
		})},
	})
}

// platformUnknown holds, for the family's rules whose input AWS Config may
// not record (or that the resource itself leaves to a default fourd cannot
// see), an item without it: the rule must report "not evaluated" naming
// the attribute, never a finding.
var platformUnknown = map[string]struct {
	item    string
	missing []string
}{
	"aws-ecs-003": {ecsTD(false, func(_, c pobj) { delete(c, "User") }), []string{"containers.user"}},
	"aws-ecs-011": {ecsCluster(true, func(c pobj) { delete(c, "ClusterSettings") }), []string{"container_insights"}},
	"aws-ecs-015": {ecsService(false, func(c pobj) { delete(c, "DeploymentConfiguration") }), []string{"circuit_breaker"}},
	"aws-eks-001": {eksCluster(false, func(c pobj) { delete(c, "ResourcesVpcConfig") }), []string{"endpoint_public_access"}},
	"aws-eks-006": {eksCluster(true, func(c pobj) { delete(c, "ResourcesVpcConfig") }), []string{"endpoint_private_access"}},
}

func TestPlatformRules_UnknownIsNotEvaluated(t *testing.T) {
	for id, c := range platformUnknown {
		t.Run(id, func(t *testing.T) {
			res := decodeItems(t, c.item)
			if len(res) != 1 {
				t.Fatalf("%d resources", len(res))
			}
			assertNotEvaluated(t, res[0], id, c.missing)
		})
	}
}

// hardened are the family's well-configured items, each of which must
// raise nothing (the clean twins of the cases above).
var hardened = []string{ecsTD(false, nil), ecsTD(true, nil), ecsCluster(false, nil), ecsService(true, nil), eksCluster(false, nil), eksCluster(true, nil)}

// TestECSRules_InactiveRevisionsRaiseNothing: a deregistered task
// definition revision, however bad, can no longer run.
func TestECSRules_InactiveRevisionsRaiseNothing(t *testing.T) {
	bad := ecsTD(true, func(td, c pobj) {
		td["Status"] = "INACTIVE"
		td["NetworkMode"] = "host"
		c["Privileged"] = true
		c["User"] = "root"
	})
	for _, r := range decodeItems(t, bad) {
		if vs := Evaluate(r, testNow); len(vs) > 0 {
			t.Errorf("%s fired on an INACTIVE revision: %s", vs[0].Rule.ID, vs[0].EvidenceJSON())
		}
	}
}

// TestPlatformRules_HardenedItemsRaiseNothing decodes each hardened item
// of the family and audits it with the whole pack: nothing may fire.
func TestPlatformRules_HardenedItemsRaiseNothing(t *testing.T) {
	for _, item := range hardened {
		res := decodeItems(t, item)
		for _, r := range res {
			if vs := Evaluate(r, testNow); len(vs) > 0 {
				t.Errorf("%s: %s fired: %s", r.Type, vs[0].Rule.ID, vs[0].EvidenceJSON())
			}
		}
	}
}
