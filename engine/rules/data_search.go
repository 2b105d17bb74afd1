package rules

import inv "github.com/fourd-dev/fourd/engine/inventory"

// dataSearchRules are the checks of OpenSearch (and Elasticsearch) domains
// (issue 29 §4).
func dataSearchRules() []Rule {
	return []Rule{
		{ID: "aws-opensearch-001", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeOpenSearchDomain},
			Title:       "OpenSearch domain is not encrypted at rest",
			Description: "The domain's indices, logs, swap files and automated snapshots are stored unencrypted.",
			Remediation: "aws opensearch update-domain-config --domain-name NAME --encryption-at-rest-options Enabled=true,KmsKeyId=KEY; Terraform: encrypt_at_rest { enabled = true }.",
			Check: func(s *Subject) Result {
				d := get[inv.OpenSearchDomain](s)
				return escalateIfSensitive(failIfRecorded(s, !d.EncryptionAtRest, "encryption_at_rest_enabled", func() map[string]any {
					return map[string]any{"domain": d.DomainName, "engine_version": d.EngineVersion, "encryption_at_rest_enabled": d.EncryptionAtRest}
				}), s, critical)
			}},
		{ID: "aws-opensearch-002", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeOpenSearchDomain},
			Title:       "OpenSearch domain does not encrypt node-to-node traffic",
			Description: "Traffic between the domain's nodes travels unencrypted inside the VPC.",
			Remediation: "aws opensearch update-domain-config --domain-name NAME --node-to-node-encryption-options Enabled=true; Terraform: node_to_node_encryption { enabled = true }.",
			Check: func(s *Subject) Result {
				d := get[inv.OpenSearchDomain](s)
				return failIfRecorded(s, !d.NodeToNodeEncryption, "node_to_node_encryption_enabled", func() map[string]any {
					return map[string]any{"domain": d.DomainName, "node_to_node_encryption_enabled": d.NodeToNodeEncryption}
				})
			}},
		{ID: "aws-opensearch-003", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeOpenSearchDomain},
			Title:       "OpenSearch domain does not require HTTPS",
			Description: "Clients may send queries, documents and credentials to the domain over plain HTTP.",
			Remediation: "aws opensearch update-domain-config --domain-name NAME --domain-endpoint-options EnforceHTTPS=true,TLSSecurityPolicy=Policy-Min-TLS-1-2-PFS-2023-10.",
			Check: func(s *Subject) Result {
				d := get[inv.OpenSearchDomain](s)
				return failIfRecorded(s, !d.EnforceHTTPS, "enforce_https", func() map[string]any { return map[string]any{"domain": d.DomainName, "enforce_https": d.EnforceHTTPS} })
			}},
		{ID: "aws-opensearch-004", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeOpenSearchDomain},
			Title:       "OpenSearch domain accepts TLS 1.0 and 1.1",
			Description: "The domain's TLS security policy is Policy-Min-TLS-1-0-2019-07, which allows deprecated protocol versions.",
			Remediation: "aws opensearch update-domain-config --domain-name NAME --domain-endpoint-options TLSSecurityPolicy=Policy-Min-TLS-1-2-PFS-2023-10.",
			Check: func(s *Subject) Result {
				d := get[inv.OpenSearchDomain](s)
				if d.TLSSecurityPolicy == "" {
					return notEvaluated("tls_security_policy")
				}
				return failIf(s, d.TLSSecurityPolicy == "Policy-Min-TLS-1-0-2019-07", func() map[string]any {
					return map[string]any{"domain": d.DomainName, "tls_security_policy": d.TLSSecurityPolicy}
				})
			}},
		{ID: "aws-opensearch-005", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeOpenSearchDomain},
			Title:       "OpenSearch domain has a public endpoint",
			Description: "The domain is not placed in a VPC: its endpoint is reachable from the internet, guarded only by its access policy.",
			Remediation: "Create the domain in a VPC (vpc_options with subnet_ids and security_group_ids) and migrate the data with a snapshot; a domain cannot move from public to VPC in place.",
			Check: func(s *Subject) Result {
				d := get[inv.OpenSearchDomain](s)
				return escalateIfSensitive(failIfRecorded(s, !d.InVPC, "in_vpc", func() map[string]any { return map[string]any{"domain": d.DomainName, "in_vpc": d.InVPC} }), s, critical)
			}},
		{ID: "aws-opensearch-006", Dimension: compliance, Severity: medium, ResourceTypes: []string{inv.TypeOpenSearchDomain},
			Title:       "OpenSearch domain does not publish audit logs",
			Description: "Authentication attempts and index access by users are not recorded in CloudWatch Logs.",
			Remediation: "Enable fine-grained access control and audit logs: aws opensearch update-domain-config --domain-name NAME --log-publishing-options AUDIT_LOGS={CloudWatchLogsLogGroupArn=ARN,Enabled=true}.",
			Check: func(s *Subject) Result {
				d := get[inv.OpenSearchDomain](s)
				return failIfRecorded(s, !d.AuditLogsEnabled, "audit_logs_enabled", func() map[string]any {
					return map[string]any{"domain": d.DomainName, "audit_logs_enabled": d.AuditLogsEnabled}
				})
			}},
		{ID: "aws-opensearch-007", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeOpenSearchDomain},
			Title:       "OpenSearch domain has no fine-grained access control",
			Description: "Every principal the access policy lets in has full access to every index: there are no users, roles or document-level permissions.",
			Remediation: "aws opensearch update-domain-config --domain-name NAME --advanced-security-options Enabled=true,InternalUserDatabaseEnabled=false,MasterUserOptions={MasterUserARN=ARN}.",
			Check: func(s *Subject) Result {
				d := get[inv.OpenSearchDomain](s)
				return failIfRecorded(s, !d.FineGrainedAccessControl, "fine_grained_access_control", func() map[string]any {
					return map[string]any{"domain": d.DomainName, "fine_grained_access_control": d.FineGrainedAccessControl}
				})
			}},
		{ID: "aws-opensearch-008", Dimension: architecture, Severity: medium, ResourceTypes: []string{inv.TypeOpenSearchDomain},
			Title:       "OpenSearch domain runs in a single Availability Zone",
			Description: "Zone awareness is off: all data nodes and replicas sit in one zone, so a zone outage takes the domain down.",
			Remediation: "aws opensearch update-domain-config --domain-name NAME --cluster-config ZoneAwarenessEnabled=true,ZoneAwarenessConfig={AvailabilityZoneCount=3},InstanceCount=3.",
			Check: func(s *Subject) Result {
				d := get[inv.OpenSearchDomain](s)
				return escalateIfProduction(failIfRecorded(s, !d.ZoneAwarenessEnabled, "zone_awareness_enabled", func() map[string]any {
					return map[string]any{"domain": d.DomainName, "instance_count": d.InstanceCount, "zone_awareness_enabled": d.ZoneAwarenessEnabled}
				}), s, high)
			}},
		{ID: "aws-opensearch-009", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeOpenSearchDomain},
			Title:       "Production OpenSearch domain has no dedicated master nodes",
			Description: "Cluster management runs on the data nodes, so heavy indexing or queries can destabilise the cluster. The domain is tagged as production.",
			Remediation: "aws opensearch update-domain-config --domain-name NAME --cluster-config DedicatedMasterEnabled=true,DedicatedMasterCount=3,DedicatedMasterType=m7g.large.search.",
			Check: func(s *Subject) Result {
				d := get[inv.OpenSearchDomain](s)
				return failIfRecorded(s, !d.DedicatedMasterEnabled && production(s), "dedicated_master_enabled", func() map[string]any {
					return map[string]any{"domain": d.DomainName, "instance_count": d.InstanceCount, "dedicated_master_enabled": d.DedicatedMasterEnabled}
				})
			}},
		{ID: "aws-opensearch-010", Dimension: cost, Severity: medium, ResourceTypes: []string{inv.TypeOpenSearchDomain},
			Title:       "OpenSearch domain uses a previous-generation instance type",
			Description: "Previous-generation instances (t2, m3, m4, r3, r4, c4, i2) cost more for less performance than current Graviton types.",
			Remediation: "aws opensearch update-domain-config --domain-name NAME --cluster-config InstanceType=m7g.large.search (or r7g/c7g/or1).",
			Check: func(s *Subject) Result {
				d := get[inv.OpenSearchDomain](s)
				return failIf(s, previousGenerationManaged(instanceFamily(d.InstanceType)),
					func() map[string]any {
						return notEstimated(map[string]any{"domain": d.DomainName, "instance_type": d.InstanceType, "instance_count": d.InstanceCount}, unpriced("OpenSearch instances"))
					})
			}},
		{ID: "aws-opensearch-011", Dimension: compliance, Severity: low, ResourceTypes: []string{inv.TypeOpenSearchDomain},
			Title:       "OpenSearch domain does not publish error logs",
			Description: "The domain's application (error) logs are not sent to CloudWatch Logs, which leaves failures and misuse without a trace.",
			Remediation: "aws opensearch update-domain-config --domain-name NAME --log-publishing-options ES_APPLICATION_LOGS={CloudWatchLogsLogGroupArn=ARN,Enabled=true}.",
			Check: func(s *Subject) Result {
				d := get[inv.OpenSearchDomain](s)
				return failIfRecorded(s, !d.ErrorLogsEnabled, "error_logs_enabled", func() map[string]any {
					return map[string]any{"domain": d.DomainName, "error_logs_enabled": d.ErrorLogsEnabled}
				})
			}},
	}
}
