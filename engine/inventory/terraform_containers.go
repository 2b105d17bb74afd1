package inventory

import (
	"encoding/json"
	"strings"
)

// Terraform mappers of the container services. Attribute names: the AWS
// provider's aws_ecs_task_definition (container_definitions as a JSON
// string in ECS's own camelCase) and aws_eks_cluster documentation
// (registry.terraform.io/providers/hashicorp/aws/latest/docs, "Argument
// Reference" and "Attribute Reference").

func tfECSTaskDefinition(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		Family     string `json:"family"`
		Containers string `json:"container_definitions"`
		Network    string `json:"network_mode"`
		PID        string `json:"pid_mode"`
		IPC        string `json:"ipc_mode"`
		Volumes    []struct {
			Name     string `json:"name"`
			HostPath string `json:"host_path"`
			EFS      tfBlock[struct {
				TransitEncryption string `json:"transit_encryption"`
			}] `json:"efs_volume_configuration"`
		} `json:"volume"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	td := &ECSTaskDefinition{Family: t.Family, NetworkMode: t.Network, PIDMode: t.PID, IPCMode: t.IPC,
		Containers: []ECSContainer{}}
	if strings.TrimSpace(t.Containers) != "" {
		var defs []ecsContainerDef
		if err := json.Unmarshal([]byte(t.Containers), &defs); err != nil {
			return nil, err
		}
		for _, d := range defs {
			td.Containers = append(td.Containers, d.canonical())
		}
	}
	for _, v := range t.Volumes {
		vol := ECSVolume{Name: v.Name, HostSourcePath: v.HostPath}
		if e, ok := v.EFS.first(); ok {
			vol.EFSTransitEncryption = e.TransitEncryption
			if vol.EFSTransitEncryption == "" {
				vol.EFSTransitEncryption = "DISABLED"
			}
		}
		td.Volumes = append(td.Volumes, vol)
	}
	return td, nil
}

func tfEKSCluster(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		Version string `json:"version"`
		VPC     tfBlock[struct {
			Public  *bool    `json:"endpoint_public_access"`
			Private *bool    `json:"endpoint_private_access"`
			CIDRs   []string `json:"public_access_cidrs"`
		}] `json:"vpc_config"`
		Encryption tfBlock[struct {
			Resources []string `json:"resources"`
			Provider  tfBlock[struct {
				KeyARN string `json:"key_arn"`
			}] `json:"provider"`
		}] `json:"encryption_config"`
		Logs []string `json:"enabled_cluster_log_types"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	k := &EKSCluster{Name: c.Name, Version: t.Version, LoggingEnabled: t.Logs}
	if v, ok := t.VPC.first(); ok {
		k.EndpointPublicAccess, k.EndpointPrivateAccess, k.PublicAccessCIDRs = v.Public, v.Private, v.CIDRs
	}
	for _, e := range t.Encryption {
		p, ok := e.Provider.first()
		for _, r := range e.Resources {
			if strings.EqualFold(r, "secrets") && ok {
				k.SecretsKMSKeyARN = p.KeyARN
			}
		}
	}
	return k, nil
}
