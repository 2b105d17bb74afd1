package rules

import (
	"slices"
	"strconv"
	"strings"
	"time"

	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// eksSupport is when Amazon EKS's standard support of a Kubernetes minor
// version ends; extended support (at an extra cost per cluster hour) ends
// 12 months later. Source: the Amazon EKS Kubernetes release calendar
// (docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions.html).
// Versions before 1.23 had no extended support and are out of support;
// versions after the table's last are judged in support.
var eksSupport = map[string]time.Time{
	"1.23": eksDay(2023, 10, 11), "1.24": eksDay(2024, 1, 31), "1.25": eksDay(2024, 5, 1), "1.26": eksDay(2024, 6, 11),
	"1.27": eksDay(2024, 7, 24), "1.28": eksDay(2024, 11, 26), "1.29": eksDay(2025, 3, 23), "1.30": eksDay(2025, 7, 23),
	"1.31": eksDay(2025, 11, 26), "1.32": eksDay(2026, 3, 23), "1.33": eksDay(2026, 7, 29), "1.34": eksDay(2026, 12, 2),
	"1.35": eksDay(2027, 3, 27),
}

func eksDay(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// eksEndOfStandard returns the end of standard support of a version
// ("1.29" or "1.29.3"); ok is false for a version the calendar does not
// hold (newer ones, or an unreadable string). legacy marks a version older
// than 1.23, out of all support.
func eksEndOfStandard(version string) (end time.Time, legacy, ok bool) {
	parts := strings.SplitN(version, ".", 3)
	if len(parts) < 2 {
		return time.Time{}, false, false
	}
	minor := parts[0] + "." + parts[1]
	if t, found := eksSupport[minor]; found {
		return t, false, true
	}
	major, err1 := strconv.Atoi(parts[0])
	n, err2 := strconv.Atoi(parts[1])
	if err1 == nil && err2 == nil && major == 1 && n < 23 {
		return time.Time{}, true, true
	}
	return time.Time{}, false, false
}

// eksLogTypes are the five EKS control plane log types.
var eksLogTypes = []string{"api", "audit", "authenticator", "controllerManager", "scheduler"}

func eksRules() []Rule {
	eks := []string{inv.TypeEKSCluster}
	return []Rule{
		{ID: "aws-eks-001", Dimension: security, Severity: high, ResourceTypes: eks,
			Title:       "EKS cluster API endpoint is open to the internet",
			Description: "The Kubernetes API server's public endpoint accepts connections from any address (0.0.0.0/0): only authentication stands between the internet and the cluster.",
			Remediation: "Disable the public endpoint or restrict it: aws eks update-cluster-config --name NAME --resources-vpc-config endpointPublicAccess=false,endpointPrivateAccess=true (or publicAccessCidrs=<your ranges>).",
			Check: func(s *Subject) Result {
				k := get[inv.EKSCluster](s)
				if k.EndpointPublicAccess == nil {
					return notEvaluated("endpoint_public_access")
				}
				if !*k.EndpointPublicAccess {
					return passed(s, func() map[string]any { return map[string]any{"cluster": k.Name, "endpoint_public_access": false} })
				}
				if len(k.PublicAccessCIDRs) == 0 {
					return notEvaluated("public_access_cidrs")
				}
				return failIf(s, slices.Contains(k.PublicAccessCIDRs, "0.0.0.0/0") || slices.Contains(k.PublicAccessCIDRs, "::/0"),
					func() map[string]any {
						return map[string]any{"cluster": k.Name, "public_access_cidrs": k.PublicAccessCIDRs}
					})
			}},
		{ID: "aws-eks-002", Dimension: security, Severity: medium, ResourceTypes: eks,
			Title:       "EKS cluster does not encrypt Kubernetes secrets with KMS",
			Description: "The cluster has no encryption configuration for secrets: Kubernetes secrets sit in etcd without envelope encryption under a key you control.",
			Remediation: "aws eks associate-encryption-config --cluster-name NAME --encryption-config resources=secrets,provider={keyArn=KEY_ARN}; Terraform: encryption_config { resources = [\"secrets\"] provider { key_arn = … } }.",
			Check: func(s *Subject) Result {
				k := get[inv.EKSCluster](s)
				return failIfRecorded(s, k.SecretsKMSKeyARN == "", "secrets_kms_key_arn", func() map[string]any {
					return map[string]any{"cluster": k.Name, "secrets_kms_key_arn": k.SecretsKMSKeyARN}
				})
			}},
		{ID: "aws-eks-003", Dimension: compliance, Severity: medium, ResourceTypes: eks,
			Title:       "EKS cluster does not send all control plane logs",
			Description: "Some control plane log types (api, audit, authenticator, controllerManager, scheduler) are not sent to CloudWatch Logs: who did what in the cluster cannot be reconstructed.",
			Remediation: "aws eks update-cluster-config --name NAME --logging '{\"clusterLogging\":[{\"types\":[\"api\",\"audit\",\"authenticator\",\"controllerManager\",\"scheduler\"],\"enabled\":true}]}'.",
			Check: func(s *Subject) Result {
				k := get[inv.EKSCluster](s)
				var missing []string
				for _, t := range eksLogTypes {
					if !slices.Contains(k.LoggingEnabled, t) {
						missing = append(missing, t)
					}
				}
				return failIfZero(s, len(missing) > 0, len(k.LoggingEnabled) == 0, "logging_enabled", func() map[string]any {
					return map[string]any{"cluster": k.Name, "logging_enabled": k.LoggingEnabled, "log_types_missing": missing}
				})
			}},
		{ID: "aws-eks-004", Dimension: cost, Severity: medium, ResourceTypes: eks,
			Title:       "EKS cluster runs a Kubernetes version in extended support",
			Description: "The cluster's version is past the end of EKS standard support: the control plane is billed the extended support rate (six times the standard one) until it is upgraded.",
			Remediation: "Upgrade the cluster one minor version at a time (aws eks update-cluster-version --name NAME --kubernetes-version X.Y), then its node groups and add-ons.",
			Check: func(s *Subject) Result {
				k := get[inv.EKSCluster](s)
				end, legacy, ok := eksEndOfStandard(k.Version)
				if !ok || legacy {
					// Unknown to the calendar, or out of all support (aws-eks-005).
					return passed(s, func() map[string]any {
						return map[string]any{"cluster": k.Name, "version": k.Version, "in_calendar": ok && !legacy}
					})
				}
				inExtended := !s.Now.Before(end) && s.Now.Before(end.AddDate(1, 0, 0))
				return failIf(s, inExtended, func() map[string]any {
					return map[string]any{"cluster": k.Name, "version": k.Version, "standard_support_ended": end.Format(time.DateOnly)}
				})
			}},
		{ID: "aws-eks-005", Dimension: security, Severity: high, ResourceTypes: eks,
			Title:       "EKS cluster runs an unsupported Kubernetes version",
			Description: "The cluster's version is past the end of EKS extended support: it gets no security patches and AWS upgrades it on its own schedule.",
			Remediation: "Upgrade the cluster to a supported version (aws eks update-cluster-version --name NAME --kubernetes-version X.Y), one minor version at a time.",
			Check: func(s *Subject) Result {
				k := get[inv.EKSCluster](s)
				end, legacy, ok := eksEndOfStandard(k.Version)
				if !ok {
					return passed(s, func() map[string]any {
						return map[string]any{"cluster": k.Name, "version": k.Version, "in_calendar": false}
					})
				}
				return failIf(s, legacy || !s.Now.Before(end.AddDate(1, 0, 0)), func() map[string]any { return map[string]any{"cluster": k.Name, "version": k.Version} })
			}},
		{ID: "aws-eks-006", Dimension: security, Severity: low, ResourceTypes: eks,
			Title:       "EKS cluster API endpoint has no private access",
			Description: "Private endpoint access is off: nodes and tools inside the VPC reach the Kubernetes API over the internet, and the public endpoint cannot be closed.",
			Remediation: "aws eks update-cluster-config --name NAME --resources-vpc-config endpointPrivateAccess=true; Terraform: vpc_config { endpoint_private_access = true }.",
			Check: func(s *Subject) Result {
				k := get[inv.EKSCluster](s)
				return failUnless(s, k.EndpointPrivateAccess, "endpoint_private_access", func() map[string]any { return map[string]any{"cluster": k.Name} })
			}},
	}
}
