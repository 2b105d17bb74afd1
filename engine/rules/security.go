package rules

import (
	"strings"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// adminPorts are the remote administration ports CIS 5.2 and 5.3 name.
var adminPorts = []int{22, 3389}

// databasePorts are database and cache ports that should never face the internet.
var databasePorts = []int{1433, 1521, 3306, 5432, 6379, 9200, 11211, 27017}

func securityRules() []Rule {
	return []Rule{
		{ID: "aws-s3-001", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeS3Bucket},
			Compliance:  []string{"CIS-AWS-3.0.0:2.1.4", "CIS-AWS-4.0.1:2.1.4"},
			Joins:       []string{inv.TypeS3AccountPublicAccessBlock},
			Title:       "S3 bucket does not block public access",
			Description: "The Block Public Access settings in force on the bucket (its own, each switch also on when the account's is) are missing or not all enabled, so an ACL or bucket policy can make its objects public.",
			Remediation: "Enable all four Block Public Access settings on the account (or on the bucket): aws s3control put-public-access-block --account-id ID --public-access-block-configuration BlockPublicAcls=true,IgnorePublicAcls=true,BlockPublicPolicy=true,RestrictPublicBuckets=true.",
			Check: func(s *Subject) Result {
				b := get[inv.S3Bucket](s)
				full := func(p inv.PublicAccessBlock) bool {
					return p.BlockPublicACLs && p.IgnorePublicACLs && p.BlockPublicPolicy && p.RestrictPublicBuckets
				}
				eff, acct, wait := bucketBlock(s, b, full)
				switch {
				case wait:
					return Result{deferred: true}
				case full(eff):
					return passed(s, func() map[string]any { return blockEvidence(b, eff, acct) })
				case !s.recorded("public_access_block"):
					return notEvaluated("public_access_block")
				}
				return escalateIfSensitive(fail(map[string]any{"bucket": b.Bucket, "public_access_block": b.PublicAccessBlock,
					"account_public_access_block": accountEvidence(acct)}), s, critical)
			}},
		{ID: "aws-s3-002", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeS3Bucket},
			Compliance:  []string{"CIS-AWS-3.0.0:2.1.4", "CIS-AWS-4.0.1:2.1.4"},
			Joins:       []string{inv.TypeS3AccountPublicAccessBlock},
			Title:       "S3 bucket ACL grants access to everyone",
			Description: "The bucket's ACL grants AllUsers or AuthenticatedUsers (any AWS account) access, and Block Public Access (the bucket's or the account's IgnorePublicAcls) does not neutralize it.",
			Remediation: "Set the bucket ACL to private (or disable ACLs with Object Ownership 'bucket owner enforced') and enable IgnorePublicAcls.",
			Check: func(s *Subject) Result {
				b := get[inv.S3Bucket](s)
				var grants []string
				switch b.ACL {
				case "public-read", "public-read-write", "authenticated-read":
					grants = append(grants, "canned ACL "+b.ACL)
				}
				for _, g := range b.ACLGrants {
					if g.Grantee == "AllUsers" || g.Grantee == "AuthenticatedUsers" {
						grants = append(grants, g.Grantee+":"+g.Permission)
					}
				}
				if len(grants) == 0 {
					return passed(s, func() map[string]any {
						return map[string]any{"bucket": b.Bucket, "acl": b.ACL, "acl_grants": b.ACLGrants, "public_grants": []string{}}
					})
				}
				eff, acct, wait := bucketBlock(s, b, func(p inv.PublicAccessBlock) bool { return p.IgnorePublicACLs })
				switch {
				case wait:
					return Result{deferred: true}
				case eff.IgnorePublicACLs:
					return passed(s, func() map[string]any { return withEvidence(blockEvidence(b, eff, acct), "public_grants", grants) })
				case !s.recorded("public_access_block"):
					return notEvaluated("public_access_block")
				}
				return escalateIfSensitive(fail(map[string]any{"bucket": b.Bucket, "public_grants": grants,
					"account_public_access_block": accountEvidence(acct)}), s, critical)
			}},
		{ID: "aws-s3-003", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeS3Bucket},
			Compliance:  []string{"CIS-AWS-3.0.0:2.1.4", "CIS-AWS-4.0.1:2.1.4"},
			Joins:       []string{inv.TypeS3AccountPublicAccessBlock},
			Title:       "S3 bucket policy allows public access",
			Description: "A bucket policy statement allows any principal (\"*\" or a NotPrincipal) without a condition that limits who may call (aws:SourceVpce, aws:PrincipalOrgID, aws:SourceArn…), and RestrictPublicBuckets is off on the bucket and on its account.",
			Remediation: "Remove or scope the public statements (name principals, add aws:SourceVpce or aws:PrincipalOrgID conditions) and enable BlockPublicPolicy and RestrictPublicBuckets.",
			Check: func(s *Subject) Result {
				b := get[inv.S3Bucket](s)
				st := s.policy(b.Policy).PublicStatements()
				if len(st) == 0 {
					return passed(s, func() map[string]any {
						return map[string]any{"bucket": b.Bucket, "has_policy": b.Policy != nil, "public_statements": []string{}}
					})
				}
				eff, acct, wait := bucketBlock(s, b, func(p inv.PublicAccessBlock) bool { return p.RestrictPublicBuckets })
				switch {
				case wait:
					return Result{deferred: true}
				case eff.RestrictPublicBuckets:
					return passed(s, func() map[string]any { return withEvidence(blockEvidence(b, eff, acct), "public_statements", st) })
				case !s.recorded("public_access_block"):
					return notEvaluated("public_access_block")
				}
				return escalateIfSensitive(fail(map[string]any{"bucket": b.Bucket, "public_statements": st,
					"account_public_access_block": accountEvidence(acct)}), s, critical)
			}},
		{ID: "aws-s3-004", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeS3Bucket},
			Title:       "S3 bucket has no default encryption",
			Description: "The bucket has no default server-side encryption configuration, so objects may be stored unencrypted.",
			Remediation: "Configure default encryption with SSE-KMS (or at least SSE-S3): aws s3api put-bucket-encryption.",
			Check: func(s *Subject) Result {
				b := get[inv.S3Bucket](s)
				return escalateIfSensitive(failIfRecorded(s, b.SSEAlgorithm == "", "sse_algorithm", func() map[string]any { return map[string]any{"bucket": b.Bucket, "sse_algorithm": b.SSEAlgorithm} }), s, high)
			}},
		{ID: "aws-s3-005", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeS3Bucket},
			Compliance:  []string{"CIS-AWS-3.0.0:2.1.1", "CIS-AWS-4.0.1:2.1.1"},
			Title:       "S3 bucket policy does not deny HTTP requests",
			Description: "No bucket policy statement denies requests where aws:SecureTransport is false, so data can travel unencrypted.",
			Remediation: "Add a Deny statement for all principals and s3:* with the condition {\"Bool\": {\"aws:SecureTransport\": \"false\"}}.",
			Check: func(s *Subject) Result {
				b := get[inv.S3Bucket](s)
				p := s.policy(b.Policy)
				denies := p != nil && p.DeniesInsecureTransport("s3:GetObject", s3ObjectsARN(s, b.Bucket))
				if !denies && b.Policy == nil && !s.recorded("policy") {
					return notEvaluated("policy")
				}
				return failIf(s, !denies, func() map[string]any {
					return map[string]any{"bucket": b.Bucket, "has_policy": b.Policy != nil, "denies_insecure_transport": denies}
				})
			}},
		sgPortRule("aws-ec2-001", "SSH (22)", 22, true, false, high, "CIS-AWS-3.0.0:5.2", "CIS-AWS-4.0.1:5.3"),
		sgPortRule("aws-ec2-002", "RDP (3389)", 3389, true, false, high, "CIS-AWS-3.0.0:5.2", "CIS-AWS-4.0.1:5.3"),
		{ID: "aws-ec2-003", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeSecurityGroup},
			Compliance:  []string{"CIS-AWS-3.0.0:5.3", "CIS-AWS-4.0.1:5.4"},
			Title:       "Security group allows remote administration from ::/0",
			Description: "An ingress rule opens SSH (22) or RDP (3389) to every IPv6 address.",
			Remediation: "Remove the ::/0 rule; reach instances through Systems Manager Session Manager or a VPN with a narrow source range.",
			Check: func(s *Subject) Result {
				g := get[inv.SecurityGroup](s)
				var ports []int
				for _, p := range adminPorts {
					if len(exposedRules(g, p, false, true)) > 0 {
						ports = append(ports, p)
					}
				}
				return failIf(s, len(ports) > 0, func() map[string]any { return map[string]any{"group_id": g.GroupID, "ports": ports, "source": "::/0"} })
			}},
		{ID: "aws-ec2-004", Dimension: security, Severity: critical, ResourceTypes: []string{inv.TypeSecurityGroup},
			Compliance:  []string{"CIS-AWS-3.0.0:5.2", "CIS-AWS-3.0.0:5.3", "CIS-AWS-4.0.1:5.3", "CIS-AWS-4.0.1:5.4"},
			Title:       "Security group allows all traffic from the internet",
			Description: "An ingress rule allows every protocol and port from 0.0.0.0/0 or ::/0.",
			Remediation: "Replace the rule with rules for the specific ports the workload serves, from the narrowest source that works.",
			Check: func(s *Subject) Result {
				g := get[inv.SecurityGroup](s)
				for _, r := range exposedRules(g, -1, true, true) {
					if allTraffic(r) {
						return fail(map[string]any{"group_id": g.GroupID, "rule": r})
					}
				}
				return passed(s, func() map[string]any {
					return map[string]any{"group_id": g.GroupID, "internet_ingress_rules": exposedRules(g, -1, true, true), "all_traffic_rule": false}
				})
			}},
		{ID: "aws-ec2-005", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeSecurityGroup},
			Title:       "Security group exposes database ports to the internet",
			Description: "An ingress rule opens a database or cache port (MySQL, PostgreSQL, SQL Server, Oracle, Redis, Memcached, MongoDB, Elasticsearch) to the internet.",
			Remediation: "Allow database ports only from the application's security groups or private CIDR ranges.",
			Check: func(s *Subject) Result {
				g := get[inv.SecurityGroup](s)
				var ports []int
				for _, p := range databasePorts {
					for _, r := range exposedRules(g, p, true, true) {
						if !allTraffic(r) { // aws-ec2-004 reports those
							ports = append(ports, p)
							break
						}
					}
				}
				return failIf(s, len(ports) > 0, func() map[string]any { return map[string]any{"group_id": g.GroupID, "ports": ports} })
			}},
		{ID: "aws-ec2-006", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeSecurityGroup},
			Compliance:  []string{"CIS-AWS-3.0.0:5.4", "CIS-AWS-4.0.1:5.5"},
			Title:       "Default security group allows traffic",
			Description: "The VPC's default security group has inbound or outbound rules, so anything launched without an explicit group gets them.",
			Remediation: "Remove every rule from the default security group and attach purpose-made groups instead.",
			Check: func(s *Subject) Result {
				g := get[inv.SecurityGroup](s)
				return failIf(s, g.GroupName == "default" && len(g.Ingress)+len(g.Egress) > 0,
					func() map[string]any {
						return map[string]any{"group_id": g.GroupID, "ingress_rules": len(g.Ingress), "egress_rules": len(g.Egress)}
					})
			}},
		{ID: "aws-ec2-007", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeInstance},
			Compliance:  []string{"CIS-AWS-3.0.0:5.6", "CIS-AWS-4.0.1:5.7"},
			Title:       "EC2 instance does not require IMDSv2",
			Description: "The instance metadata service accepts IMDSv1 requests, which SSRF bugs can use to steal the instance role's credentials.",
			Remediation: "Require session tokens: aws ec2 modify-instance-metadata-options --instance-id ID --http-tokens required.",
			Check: func(s *Subject) Result {
				in := get[inv.Instance](s)
				if in.State == "terminated" {
					return passed(s, func() map[string]any { return map[string]any{"instance_id": in.InstanceID, "state": in.State} })
				}
				if in.MetadataHTTPTokens == "" {
					return notEvaluated("metadata_http_tokens")
				}
				return failIf(s, in.MetadataHTTPTokens != "required",
					func() map[string]any {
						return map[string]any{"instance_id": in.InstanceID, "http_tokens": in.MetadataHTTPTokens}
					})
			}},
		{ID: "aws-ec2-008", Dimension: security, Severity: low, ResourceTypes: []string{inv.TypeInstance},
			Title:       "EC2 instance has a public IP address",
			Description: "The instance is directly reachable from the internet, subject only to its security groups.",
			Remediation: "Place the instance in a private subnet behind a load balancer or NAT, and use Session Manager for access.",
			Check: func(s *Subject) Result {
				in := get[inv.Instance](s)
				return failIf(s, in.PublicIP != "", func() map[string]any { return map[string]any{"instance_id": in.InstanceID, "public_ip": in.PublicIP} })
			}},
		{ID: "aws-ebs-001", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeEBSVolume},
			Compliance:  []string{"CIS-AWS-3.0.0:2.2.1", "CIS-AWS-4.0.1:5.1.1"},
			Title:       "EBS volume is not encrypted",
			Description: "The volume's data, its snapshots and the traffic to its instance are not encrypted.",
			Remediation: "Snapshot the volume, copy the snapshot with encryption, restore it, and enable EBS encryption by default in every region.",
			Check: func(s *Subject) Result {
				v := get[inv.EBSVolume](s)
				return escalateIfSensitive(failIfRecorded(s, !v.Encrypted, "encrypted", func() map[string]any {
					return map[string]any{"volume_id": v.VolumeID, "size_gib": v.Size, "encrypted": v.Encrypted}
				}), s, high)
			}},
		{ID: "aws-ebs-002", Dimension: security, Severity: critical, ResourceTypes: []string{inv.TypeEBSSnapshot},
			Title:       "EBS snapshot is public",
			Description: "Any AWS account can create a volume from this snapshot and read its data.",
			Remediation: "Remove the 'all' create-volume permission: aws ec2 modify-snapshot-attribute --snapshot-id ID --attribute createVolumePermission --operation-type remove --group-names all; enable block public access for snapshots.",
			Check: func(s *Subject) Result {
				sn := get[inv.EBSSnapshot](s)
				if sn.Public == nil {
					return notEvaluated("public")
				}
				return failIf(s, *sn.Public, func() map[string]any {
					return map[string]any{"snapshot_id": sn.SnapshotID, "volume_id": sn.VolumeID, "public": *sn.Public}
				})
			}},
		{ID: "aws-ebs-003", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeEBSSnapshot},
			Title:       "EBS snapshot is not encrypted",
			Description: "The snapshot holds a copy of a volume's data without encryption.",
			Remediation: "Copy the snapshot with --encrypted and a KMS key, then delete the unencrypted one.",
			Check: func(s *Subject) Result {
				sn := get[inv.EBSSnapshot](s)
				return failIfRecorded(s, !sn.Encrypted, "encrypted", func() map[string]any { return map[string]any{"snapshot_id": sn.SnapshotID, "encrypted": sn.Encrypted} })
			}},
		{ID: "aws-rds-001", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeDBInstance},
			Compliance:  []string{"CIS-AWS-3.0.0:2.3.3", "CIS-AWS-4.0.1:2.2.3"},
			Title:       "RDS instance is publicly accessible",
			Description: "The database has a public endpoint that resolves to a public IP address.",
			Remediation: "Modify the instance with --no-publicly-accessible and keep it in private subnets.",
			Check: func(s *Subject) Result {
				d := get[inv.DBInstance](s)
				return escalateIfSensitive(failIf(s, d.PubliclyAccessible, func() map[string]any { return map[string]any{"identifier": d.Identifier, "engine": d.Engine} }), s, critical)
			}},
		{ID: "aws-rds-009", Dimension: security, Severity: critical, ResourceTypes: []string{inv.TypeDBSnapshot},
			Title:       "RDS snapshot is public",
			Description: "The snapshot's restore attribute holds \"all\": any AWS account can restore the database from it.",
			Remediation: "aws rds modify-db-snapshot-attribute --db-snapshot-identifier ID --attribute-name restore --values-to-remove all; share with named accounts instead.",
			Check: func(s *Subject) Result {
				sn := get[inv.DBSnapshot](s)
				if sn.Public == nil {
					return notEvaluated("public")
				}
				return escalateIfSensitive(failIf(s, *sn.Public, func() map[string]any {
					return map[string]any{"snapshot": sn.Identifier, "db_instance": sn.DBInstanceIdentifier}
				}), s, critical)
			}},
		{ID: "aws-rds-010", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeDBSnapshot},
			Title:       "RDS snapshot is not encrypted",
			Description: "The snapshot holds a copy of the database without encryption at rest.",
			Remediation: "Copy the snapshot with a KMS key (aws rds copy-db-snapshot --kms-key-id …) and delete the unencrypted one.",
			Check: func(s *Subject) Result {
				sn := get[inv.DBSnapshot](s)
				return escalateIfSensitive(failIfRecorded(s, !sn.Encrypted, "encrypted", func() map[string]any { return map[string]any{"snapshot": sn.Identifier, "encrypted": sn.Encrypted} }), s, high)
			}},
		{ID: "aws-rds-002", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeDBInstance},
			Compliance:  []string{"CIS-AWS-3.0.0:2.3.1", "CIS-AWS-4.0.1:2.2.1"},
			Title:       "RDS storage is not encrypted",
			Description: "The database's storage, automated backups, replicas and snapshots are not encrypted at rest.",
			Remediation: "Take a snapshot, copy it with encryption, and restore a new encrypted instance from it.",
			Check: func(s *Subject) Result {
				d := get[inv.DBInstance](s)
				return escalateIfSensitive(failIfRecorded(s, !d.StorageEncrypted, "storage_encrypted", func() map[string]any {
					return map[string]any{"identifier": d.Identifier, "storage_encrypted": d.StorageEncrypted}
				}), s, critical)
			}},
	}
}

// sgPortRule is a rule about one administration port open to 0.0.0.0/0.
func sgPortRule(id, what string, port int, v4, v6 bool, sev engine.Severity, refs ...string) Rule {
	return Rule{ID: id, Dimension: security, Severity: sev, ResourceTypes: []string{inv.TypeSecurityGroup},
		Compliance:  refs,
		Title:       "Security group allows " + what + " from 0.0.0.0/0",
		Description: "An ingress rule opens " + what + " to every IPv4 address, inviting brute-force and exploit attempts.",
		Remediation: "Remove the 0.0.0.0/0 rule; allow " + strings.SplitN(what, " ", 2)[0] + " only from known ranges, or use Systems Manager Session Manager.",
		Check: func(s *Subject) Result {
			g := get[inv.SecurityGroup](s)
			rs := exposedRules(g, port, v4, v6)
			return failIf(s, len(rs) > 0, func() map[string]any {
				return map[string]any{"group_id": g.GroupID, "port": port, "source": "0.0.0.0/0"}
			})
		}}
}
