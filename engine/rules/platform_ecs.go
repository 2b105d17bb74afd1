package rules

import (
	"path"
	"strings"

	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// secretEnvWords are parts of an environment variable name that say its
// value is a credential (AWS_SECRET_ACCESS_KEY, DB_PASSWORD, GITHUB_TOKEN).
var secretEnvWords = []string{"PASSWORD", "PASSWD", "SECRET", "TOKEN", "API_KEY", "APIKEY", "PRIVATE_KEY", "ACCESS_KEY", "CREDENTIAL", "ENGINE_AUTH_DATA"}

// refEnvSuffixes end the names of variables that point at a secret rather
// than hold one (DB_PASSWORD_SECRET_ARN, TOKEN_PARAMETER_NAME).
var refEnvSuffixes = []string{"_ARN", "_NAME", "_PATH", "_FILE", "_PARAM", "_PARAMETER", "_ID_REF", "_REGION", "_TTL", "_EXPIRY", "_LENGTH", "_HEADER", "_URL_PARAM"}

// secretEnvName reports whether a plaintext environment variable's name
// says it holds a credential. AWS_ACCESS_KEY_ID counts: it is half of a
// key pair and is never needed when the task has a role.
func secretEnvName(name string) bool {
	n := strings.ToUpper(name)
	for _, s := range refEnvSuffixes {
		if strings.HasSuffix(n, s) {
			return false
		}
	}
	for _, w := range secretEnvWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// dangerousCapabilities are the Linux capabilities that let a container
// escape to or take over its host.
var dangerousCapabilities = map[string]bool{"ALL": true, "SYS_ADMIN": true, "SYS_MODULE": true, "SYS_PTRACE": true,
	"SYS_RAWIO": true, "DAC_READ_SEARCH": true, "NET_ADMIN": true, "BPF": true}

// sensitiveHostPaths are host paths whose bind mount hands a container the
// host: its root, the container runtime's socket, kernel interfaces and
// configuration.
var sensitiveHostPaths = []string{"/", "/var/run/docker.sock", "/run/docker.sock", "/var/run", "/run",
	"/run/containerd/containerd.sock", "/var/lib/docker", "/proc", "/sys", "/etc", "/root", "/boot", "/dev"}

func sensitiveHostPath(p string) bool {
	p = path.Clean(p)
	for _, s := range sensitiveHostPaths {
		if p == s || s != "/" && strings.HasPrefix(p, s+"/") && (s == "/proc" || s == "/sys" || s == "/etc" || s == "/root" || s == "/boot" || s == "/dev") {
			return true
		}
	}
	return false
}

// rootUser reports whether an ECS container user names the root user
// ("root", "0", "root:root", "0:0", …).
func rootUser(u string) bool {
	if i := strings.IndexByte(u, ':'); i >= 0 {
		u = u[:i]
	}
	return u == "root" || u == "0"
}

// containersWhere lists the names of the task definition's containers
// for which bad holds.
func containersWhere(td *inv.ECSTaskDefinition, bad func(*inv.ECSContainer) bool) []string {
	var out []string
	for i := range td.Containers {
		if bad(&td.Containers[i]) {
			out = append(out, td.Containers[i].Name)
		}
	}
	return out
}

func tdResult(s *Subject, td *inv.ECSTaskDefinition, key string, names []string) Result {
	return failIf(s, len(names) > 0, func() map[string]any { return map[string]any{"family": td.Family, key: names} })
}

// activeOnly makes a task definition check pass on a deregistered
// revision (INACTIVE or DELETE_IN_PROGRESS): nothing can run it any more.
func activeOnly(rules []Rule) []Rule {
	for i := range rules {
		if rules[i].ResourceTypes[0] != inv.TypeECSTaskDefinition {
			continue
		}
		check := rules[i].Check
		rules[i].Check = func(s *Subject) Result {
			td := get[inv.ECSTaskDefinition](s)
			if td.Status == "INACTIVE" || td.Status == "DELETE_IN_PROGRESS" {
				return passed(s, func() map[string]any { return map[string]any{"family": td.Family, "status": td.Status} })
			}
			return check(s)
		}
	}
	return rules
}

func ecsRules() []Rule {
	ecsTD := []string{inv.TypeECSTaskDefinition}
	return activeOnly([]Rule{
		{ID: "aws-ecs-001", Dimension: security, Severity: high, ResourceTypes: ecsTD,
			Title:       "ECS task definition runs a privileged container",
			Description: "A privileged container has every capability and device of its host: a compromise of the container is a compromise of the EC2 instance and of every task on it.",
			Remediation: "Remove privileged: true from the container definition (Terraform: container_definitions … \"privileged\": false) and add only the capabilities the workload needs; register a new revision.",
			Check: func(s *Subject) Result {
				td := get[inv.ECSTaskDefinition](s)
				return tdResult(s, td, "privileged_containers", containersWhere(td, func(c *inv.ECSContainer) bool { return c.Privileged }))
			}},
		{ID: "aws-ecs-002", Dimension: security, Severity: medium, ResourceTypes: ecsTD,
			Title:       "ECS task definition uses the host network mode",
			Description: "With networkMode host the containers share the instance's network stack: they bypass task-level security groups and can reach the instance metadata service and every port bound on the host.",
			Remediation: "Use networkMode awsvpc (Terraform: network_mode = \"awsvpc\") so each task gets its own interface and security groups; register a new revision.",
			Check: func(s *Subject) Result {
				td := get[inv.ECSTaskDefinition](s)
				return failIf(s, td.NetworkMode == "host", func() map[string]any { return map[string]any{"family": td.Family, "network_mode": td.NetworkMode} })
			}},
		{ID: "aws-ecs-003", Dimension: security, Severity: medium, ResourceTypes: ecsTD,
			Title:       "ECS task definition runs a container as root",
			Description: "A container definition sets user root (or UID 0): a process escaping the container is root on the host.",
			Remediation: "Set \"user\" to a non-root UID in the container definition (and build the image with a USER), then register a new revision.",
			Check: func(s *Subject) Result {
				td := get[inv.ECSTaskDefinition](s)
				root := containersWhere(td, func(c *inv.ECSContainer) bool { return rootUser(c.User) })
				if len(root) == 0 && len(containersWhere(td, func(c *inv.ECSContainer) bool { return c.User == "" })) > 0 {
					return notEvaluated("containers.user") // the image's own user decides
				}
				return tdResult(s, td, "root_containers", root)
			}},
		{ID: "aws-ecs-004", Dimension: security, Severity: high, ResourceTypes: ecsTD,
			Title:       "ECS task definition passes credentials as plaintext environment variables",
			Description: "A container's plaintext environment variable is named like a credential (AWS_SECRET_ACCESS_KEY, …PASSWORD, …TOKEN): its value is readable by anyone who can describe the task definition, and kept in every revision.",
			Remediation: "Move the value to Secrets Manager or SSM Parameter Store and reference it under \"secrets\" (valueFrom) in the container definition; give the task an IAM role instead of access keys; rotate the exposed credential.",
			Check: func(s *Subject) Result {
				td := get[inv.ECSTaskDefinition](s)
				var found []string
				for _, c := range td.Containers {
					for _, n := range c.EnvironmentNames {
						if secretEnvName(n) {
							found = append(found, c.Name+": "+n)
						}
					}
				}
				return tdResult(s, td, "variables", found)
			}},
		{ID: "aws-ecs-005", Dimension: compliance, Severity: medium, ResourceTypes: ecsTD,
			Title:       "ECS task definition has a container without a log configuration",
			Description: "A container has no logConfiguration: its output is lost with the task (Fargate) or stays on the instance, leaving nothing for an investigation.",
			Remediation: "Add a logConfiguration with the awslogs (or awsfirelens) driver to every container definition and register a new revision.",
			Check: func(s *Subject) Result {
				td := get[inv.ECSTaskDefinition](s)
				return tdResult(s, td, "containers_without_logs", containersWhere(td, func(c *inv.ECSContainer) bool { return c.LogDriver == "" }))
			}},
		{ID: "aws-ecs-006", Dimension: security, Severity: low, ResourceTypes: ecsTD,
			Title:       "ECS task definition has a container with a writable root filesystem",
			Description: "A container's root filesystem is writable (readonlyRootFilesystem not true): an intruder can drop tools and change binaries inside it.",
			Remediation: "Set \"readonlyRootFilesystem\": true in each container definition and mount volumes for the paths the application writes.",
			Check: func(s *Subject) Result {
				td := get[inv.ECSTaskDefinition](s)
				return tdResult(s, td, "writable_containers", containersWhere(td, func(c *inv.ECSContainer) bool { return !c.ReadonlyRootFilesystem }))
			}},
		{ID: "aws-ecs-007", Dimension: security, Severity: high, ResourceTypes: ecsTD,
			Title:       "ECS task definition shares the host's process or IPC namespace",
			Description: "pidMode or ipcMode host lets the containers see and signal every process of the instance, or read its shared memory.",
			Remediation: "Remove pidMode/ipcMode host (use task, or leave unset) and register a new revision.",
			Check: func(s *Subject) Result {
				td := get[inv.ECSTaskDefinition](s)
				return failIf(s, td.PIDMode == "host" || td.IPCMode == "host", func() map[string]any {
					return map[string]any{"family": td.Family, "pid_mode": td.PIDMode, "ipc_mode": td.IPCMode}
				})
			}},
		{ID: "aws-ecs-008", Dimension: security, Severity: high, ResourceTypes: ecsTD,
			Title:       "ECS task definition adds dangerous Linux capabilities",
			Description: "A container adds a capability such as SYS_ADMIN, SYS_PTRACE, NET_ADMIN or ALL, enough to break out of the container or tamper with the host's network.",
			Remediation: "Remove the capability from linuxParameters.capabilities.add; add only narrow ones (e.g. NET_BIND_SERVICE) the workload needs.",
			Check: func(s *Subject) Result {
				td := get[inv.ECSTaskDefinition](s)
				var found []string
				for _, c := range td.Containers {
					for _, cp := range c.CapabilitiesAdded {
						if dangerousCapabilities[strings.TrimPrefix(strings.ToUpper(cp), "CAP_")] {
							found = append(found, c.Name+": "+cp)
						}
					}
				}
				return tdResult(s, td, "capabilities", found)
			}},
		{ID: "aws-ecs-009", Dimension: security, Severity: medium, ResourceTypes: ecsTD,
			Title:       "ECS task definition mounts EFS without encryption in transit",
			Description: "An EFS volume of the task definition has transitEncryption DISABLED: file data crosses the network in clear text.",
			Remediation: "Set efsVolumeConfiguration.transitEncryption = ENABLED (Terraform: transit_encryption = \"ENABLED\") and register a new revision.",
			Check: func(s *Subject) Result {
				td := get[inv.ECSTaskDefinition](s)
				var found []string
				for _, v := range td.Volumes {
					if v.EFSTransitEncryption == "DISABLED" {
						found = append(found, v.Name)
					}
				}
				return tdResult(s, td, "volumes", found)
			}},
		{ID: "aws-ecs-010", Dimension: security, Severity: high, ResourceTypes: ecsTD,
			Title:       "ECS task definition mounts a sensitive host path",
			Description: "A volume bind-mounts a host path such as /, /var/run/docker.sock, /proc or /etc into the task: the container can control the container runtime or read and change the host.",
			Remediation: "Remove the host volume; use a task-scoped or EFS volume for shared data, and never mount the Docker socket into a task.",
			Check: func(s *Subject) Result {
				td := get[inv.ECSTaskDefinition](s)
				var found []string
				for _, v := range td.Volumes {
					if v.HostSourcePath != "" && sensitiveHostPath(v.HostSourcePath) {
						found = append(found, v.Name+": "+v.HostSourcePath)
					}
				}
				return tdResult(s, td, "host_mounts", found)
			}},
		{ID: "aws-ecs-011", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeECSCluster},
			Title:       "ECS cluster has Container Insights disabled",
			Description: "Without Container Insights the cluster's CPU, memory, network and task failures are not collected, so capacity problems and crash loops go unseen.",
			Remediation: "aws ecs update-cluster-settings --cluster NAME --settings name=containerInsights,value=enhanced; Terraform: setting { name = \"containerInsights\" value = \"enabled\" }.",
			Check: func(s *Subject) Result {
				c := get[inv.ECSCluster](s)
				if c.ContainerInsights == "" {
					return notEvaluated("container_insights") // the account's default applies
				}
				return failIf(s, c.ContainerInsights == "disabled", func() map[string]any {
					return map[string]any{"cluster": c.ClusterName, "container_insights": c.ContainerInsights}
				})
			}},
		{ID: "aws-ecs-012", Dimension: compliance, Severity: low, ResourceTypes: []string{inv.TypeECSCluster},
			Title:       "ECS cluster does not log ECS Exec sessions",
			Description: "The cluster's execute command configuration has logging NONE: commands run in containers through ECS Exec leave no record.",
			Remediation: "aws ecs update-cluster --cluster NAME --configuration executeCommandConfiguration={logging=DEFAULT} (or OVERRIDE with a log group or bucket).",
			Check: func(s *Subject) Result {
				c := get[inv.ECSCluster](s)
				return failIf(s, c.ExecuteCommandLogging == "NONE", func() map[string]any {
					return map[string]any{"cluster": c.ClusterName, "execute_command_logging": c.ExecuteCommandLogging}
				})
			}},
		{ID: "aws-ecs-013", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeECSService},
			Title:       "ECS service assigns public IP addresses to its tasks",
			Description: "assignPublicIp ENABLED gives every task an address reachable from the internet, leaving security groups as the only barrier.",
			Remediation: "Run the tasks in private subnets behind a load balancer or NAT gateway: aws ecs update-service … --network-configuration awsvpcConfiguration={…,assignPublicIp=DISABLED}.",
			Check: func(s *Subject) Result {
				v := get[inv.ECSService](s)
				return failIf(s, v.AssignPublicIP == "ENABLED", func() map[string]any {
					return map[string]any{"service": v.ServiceName, "assign_public_ip": v.AssignPublicIP}
				})
			}},
		{ID: "aws-ecs-014", Dimension: architecture, Severity: medium, ResourceTypes: []string{inv.TypeECSService},
			Title:       "ECS service runs a single task",
			Description: "A replica service with a desired count of 1 is down whenever its task is replaced, its instance fails or its Availability Zone has trouble.",
			Remediation: "Run at least two tasks spread over Availability Zones (aws ecs update-service --desired-count 2), or scale with Application Auto Scaling.",
			Check: func(s *Subject) Result {
				v := get[inv.ECSService](s)
				if v.SchedulingStrategy == "DAEMON" {
					return passed(s, func() map[string]any {
						return map[string]any{"service": v.ServiceName, "scheduling_strategy": v.SchedulingStrategy}
					})
				}
				return escalateIfProduction(failIfZero(s, v.DesiredCount == 1, v.SchedulingStrategy == "", "scheduling_strategy", func() map[string]any {
					return map[string]any{"service": v.ServiceName, "desired_count": v.DesiredCount, "scheduling_strategy": v.SchedulingStrategy}
				}), s, high)
			}},
		{ID: "aws-ecs-015", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeECSService},
			Title:       "ECS service has no deployment circuit breaker",
			Description: "Without the deployment circuit breaker a release whose tasks never become healthy keeps retrying instead of rolling back.",
			Remediation: "aws ecs update-service --deployment-configuration deploymentCircuitBreaker={enable=true,rollback=true}; Terraform: deployment_circuit_breaker { enable = true rollback = true }.",
			Check: func(s *Subject) Result {
				v := get[inv.ECSService](s)
				return failUnless(s, v.CircuitBreaker, "circuit_breaker", func() map[string]any { return map[string]any{"service": v.ServiceName} })
			}},
		{ID: "aws-ecs-016", Dimension: security, Severity: low, ResourceTypes: []string{inv.TypeECSService},
			Title:       "ECS Fargate service pins an old platform version",
			Description: "The service pins Linux Fargate platform version 1.3.0 or older, which lacks the security fixes and features of 1.4.0.",
			Remediation: "aws ecs update-service --platform-version LATEST --force-new-deployment; Terraform: platform_version = \"LATEST\".",
			Check: func(s *Subject) Result {
				v := get[inv.ECSService](s)
				old := v.PlatformVersion == "1.1.0" || v.PlatformVersion == "1.2.0" || v.PlatformVersion == "1.3.0"
				return failIf(s, v.LaunchType == "FARGATE" && old, func() map[string]any {
					return map[string]any{"service": v.ServiceName, "platform_version": v.PlatformVersion}
				})
			}},
	})
}
