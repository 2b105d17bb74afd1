package rules

import (
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// securityIAMPolicyRules are the checks that read IAM policy documents,
// all through engine/rules/iampolicy.
func securityIAMPolicyRules() []Rule {
	principals := []string{inv.TypeIAMPolicy, inv.TypeIAMUser, inv.TypeIAMRole, inv.TypeIAMGroup}
	return []Rule{
		{ID: "aws-iam-012", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeIAMPolicy},
			Compliance:  []string{"CIS-AWS-3.0.0:1.16", "CIS-AWS-4.0.1:1.16"},
			Title:       "Customer managed IAM policy grants full administrator privileges",
			Description: "The policy's default version allows every action on every resource (\"*\" on \"*\") without a condition; whoever it is attached to controls the account.",
			Remediation: "Replace the statement with the actions and resources the users of the policy need (IAM Access Analyzer can generate a policy from CloudTrail activity), then detach or delete the broad version.",
			Check: func(s *Subject) Result {
				p := get[inv.IAMPolicy](s)
				if p.Document == nil {
					return notEvaluated("document")
				}
				st, ok := s.policy(p.Document).FullAdmin()
				if !ok {
					return passed(s, func() map[string]any {
						return map[string]any{"policy_name": p.PolicyName, "statements": len(p.Document.Statement), "full_admin_statement": nil}
					})
				}
				r := fail(map[string]any{"policy_name": p.PolicyName, "statement": st, "attachment_count": p.AttachmentCount})
				if p.AttachmentCount != nil && *p.AttachmentCount == 0 {
					r.Severity, r.Reason = medium, "the policy is attached to no user, group or role"
				}
				return r
			}},
		{ID: "aws-iam-013", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeIAMRole},
			Compliance:  []string{"CIS-AWS-3.0.0:1.16", "CIS-AWS-4.0.1:1.16"},
			Title:       "IAM role has full administrator privileges",
			Description: "AdministratorAccess is attached to the role, or an inline policy of the role allows \"*\" on \"*\".",
			Remediation: "Give the role the permissions its workload needs; keep administrator access for a few break-glass roles that require MFA to assume.",
			Check: func(s *Subject) Result {
				r := get[inv.IAMRole](s)
				return fullAdminResult(s, "role_name", r.RoleName, r.AttachedPolicyARNs, r.InlinePolicies)
			}},
		{ID: "aws-iam-014", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeIAMGroup},
			Compliance:  []string{"CIS-AWS-3.0.0:1.16", "CIS-AWS-4.0.1:1.16"},
			Title:       "IAM group has full administrator privileges",
			Description: "AdministratorAccess is attached to the group, or an inline policy of the group allows \"*\" on \"*\": every member is an administrator.",
			Remediation: "Grant the group least-privilege permissions; let administrators assume an MFA-protected role instead.",
			Check: func(s *Subject) Result {
				g := get[inv.IAMGroup](s)
				return fullAdminResult(s, "group_name", g.GroupName, g.AttachedPolicyARNs, g.InlinePolicies)
			}},
		{ID: "aws-iam-019", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeIAMUser, inv.TypeIAMRole, inv.TypeIAMGroup},
			Compliance:  []string{"CIS-AWS-3.0.0:1.16", "CIS-AWS-4.0.1:1.16"},
			Joins:       []string{inv.TypeIAMPolicy},
			Title:       "IAM principal has a full-administrator customer managed policy attached",
			Description: "A customer managed policy attached to the user, role or group allows \"*\" on \"*\" (read from the policy's own record in the inventory).",
			Remediation: "Detach the policy, or replace its broad statement with the actions and resources the principal needs.",
			Check: func(s *Subject) Result {
				switch a := s.attrs.(type) {
				case *inv.IAMUser:
					return attachedAdminResult(s, "user_name", a.UserName, a.AttachedPolicyARNs)
				case *inv.IAMRole:
					return attachedAdminResult(s, "role_name", a.RoleName, a.AttachedPolicyARNs)
				case *inv.IAMGroup:
					return attachedAdminResult(s, "group_name", a.GroupName, a.AttachedPolicyARNs)
				}
				return pass
			}},
		{ID: "aws-iam-015", Dimension: security, Severity: critical, ResourceTypes: []string{inv.TypeIAMRole},
			Title:       "IAM role can be assumed by any AWS principal",
			Description: "The role's trust policy allows sts:AssumeRole to every principal (\"*\" or {\"AWS\": \"*\"}) without a condition that limits who (aws:PrincipalOrgID, aws:PrincipalAccount, aws:SourceArn…): anyone with an AWS account can take the role's permissions.",
			Remediation: "Name the accounts or roles that may assume the role in Principal, or add a condition on aws:PrincipalOrgID.",
			Check: func(s *Subject) Result {
				r := get[inv.IAMRole](s)
				if r.AssumeRolePolicy == nil {
					return notEvaluated("assume_role_policy")
				}
				st := s.policy(r.AssumeRolePolicy).TrustsAnyone()
				return failIf(s, len(st) > 0, func() map[string]any { return map[string]any{"role_name": r.RoleName, "trust_statements": st} })
			}},
		{ID: "aws-iam-016", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeIAMRole},
			Title:       "IAM role trusts another account without an external id",
			Description: "The trust policy lets principals of another AWS account assume the role with no sts:ExternalId condition (nor aws:PrincipalOrgID or MFA), the guard AWS documents against the confused-deputy problem for third parties.",
			Remediation: "Add a Condition {\"StringEquals\": {\"sts:ExternalId\": \"<id from the third party>\"}} to the statement, or limit it to your organization with aws:PrincipalOrgID.",
			Check: func(s *Subject) Result {
				r := get[inv.IAMRole](s)
				if r.AssumeRolePolicy == nil {
					return notEvaluated("assume_role_policy")
				}
				accts := s.policy(r.AssumeRolePolicy).ExternalTrust(s.Resource.Account)
				return failIf(s, len(accts) > 0, func() map[string]any { return map[string]any{"role_name": r.RoleName, "external_accounts": accts} })
			}},
		{ID: "aws-iam-018", Dimension: security, Severity: critical, ResourceTypes: []string{inv.TypeIAMRole},
			Title:       "IAM role trusts an OIDC provider without pinning the subject",
			Description: "The trust policy lets tokens of a web identity provider (GitHub Actions, an EKS cluster…) assume the role with no condition on the token's sub claim narrower than \"repo:*\" or \"system:serviceaccount:*\": any repository on GitHub, or any service account of the cluster, can take the role.",
			Remediation: "Add a StringEquals/StringLike condition on <provider>:sub naming the repository and branch (repo:ORG/REPO:ref:refs/heads/main) or the namespace and service account.",
			Check: func(s *Subject) Result {
				r := get[inv.IAMRole](s)
				if r.AssumeRolePolicy == nil {
					return notEvaluated("assume_role_policy")
				}
				p := s.policy(r.AssumeRolePolicy).OpenWebIdentity()
				return failIf(s, len(p) > 0, func() map[string]any { return map[string]any{"role_name": r.RoleName, "oidc_providers": p} })
			}},
		{ID: "aws-iam-017", Dimension: security, Severity: high, ResourceTypes: principals,
			Title:       "IAM policy allows privilege escalation",
			Description: "On every resource, the permissions allow a known escalation path (iam:PassRole with ec2:RunInstances or lambda:CreateFunction, iam:CreatePolicyVersion, iam:AttachUserPolicy, iam:PutRolePolicy, …): whoever holds them can make themselves administrator.",
			Remediation: "Scope iam:PassRole to the roles the workload passes and the IAM write actions to the principals it manages (Resource ARNs instead of \"*\"), or remove them.",
			Check: func(s *Subject) Result {
				switch a := s.attrs.(type) {
				case *inv.IAMPolicy:
					if a.Document == nil {
						return notEvaluated("document")
					}
					return escalationResult(s.policy(a.Document), map[string]any{"policy_name": a.PolicyName})
				case *inv.IAMUser:
					if len(a.InlinePolicyNames) > len(a.InlinePolicies) {
						return notEvaluated("inline_policies")
					}
					d := inlinePolicy(a.InlinePolicies)
					return escalationResult(d, map[string]any{"user_name": a.UserName})
				case *inv.IAMRole:
					d := inlinePolicy(a.InlinePolicies)
					return escalationResult(d, map[string]any{"role_name": a.RoleName})
				case *inv.IAMGroup:
					d := inlinePolicy(a.InlinePolicies)
					return escalationResult(d, map[string]any{"group_name": a.GroupName})
				}
				return pass
			}},
		{ID: "aws-kms-003", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeKMSKey},
			Title:       "KMS key policy allows any principal",
			Description: "A key policy statement allows everyone (\"*\") to use or manage the key without a condition limiting callers (kms:CallerAccount, aws:PrincipalOrgID…).",
			Remediation: "Name the accounts and roles that may use the key in the key policy, or add a kms:CallerAccount / aws:PrincipalOrgID condition.",
			Check: func(s *Subject) Result {
				k := get[inv.KMSKey](s)
				if k.Policy == nil {
					return notEvaluated("policy") // every key has a key policy: absent is unknown
				}
				return publicPolicyResult(s, k.Policy, "key_id", k.KeyID)
			}},
		{ID: "aws-sqs-003", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeSQSQueue},
			Title:       "SQS queue policy allows any principal",
			Description: "A queue policy statement allows everyone (\"*\") without a condition such as aws:SourceArn or aws:SourceAccount: anyone can send, read or delete messages.",
			Remediation: "Name the principals in the queue policy, or restrict the statement with aws:SourceArn (the SNS topic or S3 bucket that sends) or aws:PrincipalOrgID.",
			Check: func(s *Subject) Result {
				q := get[inv.SQSQueue](s)
				return publicPolicyResult(s, q.Policy, "queue", q.Name)
			}},
		{ID: "aws-sns-002", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeSNSTopic},
			Title:       "SNS topic policy allows any principal",
			Description: "A topic policy statement allows everyone (\"*\") without a condition such as aws:SourceOwner or aws:SourceAccount: anyone can publish or subscribe.",
			Remediation: "Keep the default AWS:SourceOwner condition, or name the principals allowed to publish and subscribe.",
			Check: func(s *Subject) Result {
				t := get[inv.SNSTopic](s)
				return publicPolicyResult(s, t.Policy, "topic", t.Name)
			}},
		{ID: "aws-lambda-005", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeLambdaFunction},
			Title:       "Lambda function policy allows any principal",
			Description: "The function's resource policy lets everyone (\"*\") invoke or manage it without a condition such as aws:SourceArn or aws:SourceAccount.",
			Remediation: "Remove the public permission (aws lambda remove-permission) and grant the invoking service with --source-arn and --source-account.",
			Check: func(s *Subject) Result {
				f := get[inv.LambdaFunction](s)
				if f.Policy == nil {
					return notEvaluated("policy") // neither AWS Config nor aws_lambda_function records it
				}
				return publicPolicyResult(s, f.Policy, "function_name", f.FunctionName)
			}},
		{ID: "aws-ecr-001", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeECRRepository},
			Title:       "ECR repository policy allows any principal",
			Description: "The repository policy lets everyone (\"*\") pull or push images without a condition such as aws:PrincipalOrgID.",
			Remediation: "Name the accounts allowed to pull in the repository policy, or add an aws:PrincipalOrgID condition; use ECR Public for images meant to be public.",
			Check: func(s *Subject) Result {
				r := get[inv.ECRRepository](s)
				return publicPolicyResult(s, r.Policy, "repository_name", r.RepositoryName)
			}},
		{ID: "aws-secretsmanager-001", Dimension: security, Severity: critical, ResourceTypes: []string{inv.TypeSecretsManagerSecret},
			Title:       "Secrets Manager secret policy allows any principal",
			Description: "The secret's resource policy lets everyone (\"*\") read or change it without a condition limiting callers.",
			Remediation: "Delete the public statement (aws secretsmanager delete-resource-policy, or put a policy naming the principals) and enable BlockPublicPolicy when putting policies.",
			Check: func(s *Subject) Result {
				x := get[inv.SecretsManagerSecret](s)
				if x.Policy == nil {
					return notEvaluated("policy") // AWS Config does not record it
				}
				return publicPolicyResult(s, x.Policy, "secret", x.Name)
			}},
	}
}
