package inventory

import (
	"encoding/json"
	"time"
)

// Canonical types of IAM (the account summary, users and their access keys,
// roles, groups, policies), and of the resources whose security-relevant
// facts here are mostly their resource policies (KMS keys, ECR repositories,
// Secrets Manager secrets).
const (
	TypeIAMRole              = "aws_iam_role"
	TypeIAMPolicy            = "aws_iam_policy"
	TypeIAMGroup             = "aws_iam_group"
	TypeECRRepository        = "aws_ecr_repository"
	TypeSecretsManagerSecret = "aws_secretsmanager_secret"
	TypeKMSKey               = "aws_kms_key"
	TypeIAMAccount           = "aws_iam_account"
	TypeIAMUser              = "aws_iam_user"
	TypeIAMAccessKey         = "aws_iam_access_key"
)

// IAMRole is the canonical attributes of aws_iam_role.
type IAMRole struct {
	RoleName   string    `json:"role_name"`
	RoleID     string    `json:"role_id"`
	Path       string    `json:"path,omitempty"`
	CreateDate time.Time `json:"create_date,omitzero"`
	// AssumeRolePolicy is the trust policy; null when the source omits it.
	AssumeRolePolicy *PolicyDocument `json:"assume_role_policy"`
	// InlinePolicies and AttachedPolicyARNs are written even when empty
	// (null), by a source that recorded them only: a role record without
	// them is partial (issue 29), so no check passes it for want of a
	// policy.
	InlinePolicies         []NamedPolicy `json:"inline_policies"`
	AttachedPolicyARNs     []string      `json:"attached_policy_arns"`
	PermissionsBoundaryARN string        `json:"permissions_boundary_arn,omitempty"`
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

// IAMGroup is the canonical attributes of aws_iam_group. Its policy
// lists are written even when empty (null), by a source that recorded the
// group's policies only: a group record without them (a Terraform
// aws_iam_group, whose policies are separate resources) is partial, so a
// check that passes for want of a policy is not evaluated (issue 29).
type IAMGroup struct {
	GroupName          string        `json:"group_name"`
	GroupID            string        `json:"group_id"`
	Path               string        `json:"path,omitempty"`
	InlinePolicies     []NamedPolicy `json:"inline_policies"`
	AttachedPolicyARNs []string      `json:"attached_policy_arns"`
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

// KMSKey is the canonical attributes of aws_kms_key.
type KMSKey struct {
	KeyID              string    `json:"key_id"`
	KeyManager         string    `json:"key_manager"` // AWS or CUSTOMER
	KeySpec            string    `json:"key_spec"`    // SYMMETRIC_DEFAULT, RSA_2048, …
	KeyUsage           string    `json:"key_usage"`
	KeyState           string    `json:"key_state"`            // Enabled, Disabled, PendingDeletion, …
	KeyRotationEnabled *bool     `json:"key_rotation_enabled"` // null: not recorded
	DeletionDate       time.Time `json:"deletion_date,omitzero"`
	// Policy is the key policy; null when the source does not say.
	Policy *PolicyDocument `json:"policy,omitempty"`
}

// IAMAccount is the canonical attributes of aws_iam_account: the account's
// root user and password policy (from the IAM credential report and
// account summary). Its native id is arn:aws:iam::<account>:root.
type IAMAccount struct {
	AccountID             string          `json:"account_id"`
	RootAccessKeysPresent bool            `json:"root_access_keys_present"`
	RootMFAEnabled        bool            `json:"root_mfa_enabled"`
	RootHardwareMFA       bool            `json:"root_hardware_mfa"`
	RootLastUsed          time.Time       `json:"root_last_used,omitzero"`
	PasswordPolicy        *PasswordPolicy `json:"password_policy"` // null: none set
	// Synthesized marks a stand-in for an account no source described (see
	// rules.AccountViolation); rules about the root user skip it.
	Synthesized bool `json:"synthesized,omitempty"`
}

// PasswordPolicy is an account's IAM password policy.
type PasswordPolicy struct {
	MinimumPasswordLength      int  `json:"minimum_password_length"`
	PasswordReusePrevention    int  `json:"password_reuse_prevention"`
	RequireSymbols             bool `json:"require_symbols"`
	RequireNumbers             bool `json:"require_numbers"`
	RequireUppercaseCharacters bool `json:"require_uppercase_characters"`
	RequireLowercaseCharacters bool `json:"require_lowercase_characters"`
	MaxPasswordAge             int  `json:"max_password_age"`
}

// IAMUser is the canonical attributes of aws_iam_user.
type IAMUser struct {
	UserName   string    `json:"user_name"`
	UserID     string    `json:"user_id"`
	CreateDate time.Time `json:"create_date,omitzero"`
	// PasswordEnabled (console access) and MFAActive come from the IAM
	// credential report; null when the source has none (AWS Config does
	// not record them).
	PasswordEnabled  *bool     `json:"password_enabled"`
	PasswordLastUsed time.Time `json:"password_last_used,omitzero"`
	MFAActive        *bool     `json:"mfa_active"`
	// AttachedPolicyARNs and InlinePolicyNames are written even when
	// empty (null), by a source that recorded the user's policies only: a
	// user record without them (a Terraform aws_iam_user, whose policies
	// are separate resources) is partial (issue 29).
	AttachedPolicyARNs []string `json:"attached_policy_arns"`
	InlinePolicyNames  []string `json:"inline_policy_names"`
	Groups             []string `json:"groups,omitempty"`
	// InlinePolicies holds the inline policies' documents when the source
	// has them (AWS Config's userPolicyList does).
	InlinePolicies []NamedPolicy `json:"inline_policies,omitempty"`
}

// IAMAccessKey is the canonical attributes of aws_iam_access_key.
type IAMAccessKey struct {
	AccessKeyID string    `json:"access_key_id"`
	UserName    string    `json:"user_name"`
	Status      string    `json:"status"` // Active or Inactive
	CreateDate  time.Time `json:"create_date,omitzero"`
	// LastUsedDate is when the key was last used: null when it never
	// was (the credential report's N/A), omitted when the source does not
	// know (Terraform's aws_iam_access_key).
	LastUsedDate LastUse `json:"last_used_date,omitzero"`
}

// LastUse is when a credential was last used, as the IAM credential report
// says it: a time, never (written null), or unknown (the zero LastUse,
// omitted from the attributes).
type LastUse struct {
	Known bool
	At    time.Time // zero when never used
}

// UsedAt is a LastUse known to be t (never, when t is zero).
func UsedAt(t time.Time) LastUse { return LastUse{Known: true, At: t} }

// IsZero reports whether the use is unknown, for omitzero.
func (u LastUse) IsZero() bool { return !u.Known }

// MarshalJSON writes the time, or null when never used.
func (u LastUse) MarshalJSON() ([]byte, error) {
	if u.At.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(u.At)
}

// UnmarshalJSON reads a time, or null for never used; either is known.
func (u *LastUse) UnmarshalJSON(b []byte) error {
	*u = LastUse{Known: true}
	if string(b) == "null" {
		return nil
	}
	return json.Unmarshal(b, &u.At)
}
