package inventory

import "time"

// Canonical types of IAM principals and policies, and of the resources
// whose only security-relevant facts here are their resource policies.
const (
	TypeIAMRole              = "aws_iam_role"
	TypeIAMPolicy            = "aws_iam_policy"
	TypeIAMGroup             = "aws_iam_group"
	TypeECRRepository        = "aws_ecr_repository"
	TypeSecretsManagerSecret = "aws_secretsmanager_secret"
)

// IAMRole is the canonical attributes of aws_iam_role.
type IAMRole struct {
	RoleName   string    `json:"role_name"`
	RoleID     string    `json:"role_id"`
	Path       string    `json:"path,omitempty"`
	CreateDate time.Time `json:"create_date,omitzero"`
	// AssumeRolePolicy is the trust policy; null when the source omits it.
	AssumeRolePolicy       *PolicyDocument `json:"assume_role_policy"`
	InlinePolicies         []NamedPolicy   `json:"inline_policies,omitempty"`
	AttachedPolicyARNs     []string        `json:"attached_policy_arns,omitempty"`
	PermissionsBoundaryARN string          `json:"permissions_boundary_arn,omitempty"`
}

// IAMPolicy is the canonical attributes of aws_iam_policy: a customer
// managed policy and its default version's document.
type IAMPolicy struct {
	PolicyName       string `json:"policy_name"`
	PolicyID         string `json:"policy_id"`
	Path             string `json:"path,omitempty"`
	DefaultVersionID string `json:"default_version_id,omitempty"`
	// AttachmentCount is how many users, groups and roles use the policy;
	// null when the source does not say.
	AttachmentCount *int `json:"attachment_count"`
	// Document is the default version's document; null when absent.
	Document *PolicyDocument `json:"document"`
}

// IAMGroup is the canonical attributes of aws_iam_group.
type IAMGroup struct {
	GroupName          string        `json:"group_name"`
	GroupID            string        `json:"group_id"`
	Path               string        `json:"path,omitempty"`
	InlinePolicies     []NamedPolicy `json:"inline_policies,omitempty"`
	AttachedPolicyARNs []string      `json:"attached_policy_arns,omitempty"`
}

// ECRRepository is the canonical attributes of aws_ecr_repository.
type ECRRepository struct {
	RepositoryName     string `json:"repository_name"`
	ImageTagMutability string `json:"image_tag_mutability,omitempty"` // MUTABLE or IMMUTABLE
	ScanOnPush         bool   `json:"scan_on_push"`
	// Policy is the repository policy; null when it has none or the source
	// does not say.
	Policy *PolicyDocument `json:"policy"`
}

// SecretsManagerSecret is the canonical attributes of
// aws_secretsmanager_secret.
type SecretsManagerSecret struct {
	Name            string `json:"name"`
	RotationEnabled bool   `json:"rotation_enabled"`
	// RotationIntervalDays is RotationRules.AutomaticallyAfterDays; 0
	// when not recorded or the schedule is an expression.
	RotationIntervalDays int    `json:"rotation_interval_days,omitempty"`
	KMSKeyID             string `json:"kms_key_id,omitempty"`
	// Policy is the secret's resource policy. AWS Config does not record
	// it, so it is null for secrets imported from AWS Config.
	Policy *PolicyDocument `json:"policy"`
}
