package inventory

import (
	"encoding/json"
	"strings"
	"time"
)

// tfPolicy decodes a Terraform policy attribute (the JSON string
// jsonencode or aws_iam_policy_document writes); "" is no policy.
func tfPolicy(s string) (*PolicyDocument, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var d PolicyDocument
	if err := json.Unmarshal([]byte(s), &d); err != nil {
		return nil, err
	}
	return &d, nil
}

// tfIAMRole maps aws_iam_role: the trust policy, inline_policy blocks and
// managed_policy_arns (separate aws_iam_role_policy resources are not
// joined).
func tfIAMRole(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		UniqueID   string    `json:"unique_id"`
		Path       string    `json:"path"`
		CreateDate time.Time `json:"create_date"`
		Trust      string    `json:"assume_role_policy"`
		Inline     []struct {
			Name   string `json:"name"`
			Policy string `json:"policy"`
		} `json:"inline_policy"`
		Managed  []string `json:"managed_policy_arns"`
		Boundary string   `json:"permissions_boundary"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	r := &IAMRole{RoleName: c.Name, RoleID: t.UniqueID, Path: t.Path, CreateDate: t.CreateDate,
		AttachedPolicyARNs: t.Managed, PermissionsBoundaryARN: t.Boundary}
	var err error
	if r.AssumeRolePolicy, err = tfPolicy(t.Trust); err != nil {
		return nil, err
	}
	for _, p := range t.Inline {
		d, err := tfPolicy(p.Policy)
		if err != nil {
			return nil, err
		}
		if d != nil {
			r.InlinePolicies = append(r.InlinePolicies, NamedPolicy{Name: p.Name, Document: d})
		}
	}
	return r, nil
}

func tfIAMPolicy(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		PolicyID    string `json:"policy_id"`
		Path        string `json:"path"`
		Policy      string `json:"policy"`
		Attachments *int   `json:"attachment_count"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	d, err := tfPolicy(t.Policy)
	if err != nil {
		return nil, err
	}
	return &IAMPolicy{PolicyName: c.Name, PolicyID: t.PolicyID, Path: t.Path, AttachmentCount: t.Attachments, Document: d}, nil
}

// tfIAMGroup maps aws_iam_group: its name, id and path.
func tfIAMGroup(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		UniqueID string `json:"unique_id"`
		Path     string `json:"path"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	// aws_iam_group holds no policies (aws_iam_group_policy and
	// aws_iam_group_policy_attachment are resources of their own, not
	// joined): the state does not record them.
	return unrecorded{attrs: &IAMGroup{GroupName: c.Name, GroupID: t.UniqueID, Path: t.Path},
		keys: []string{"inline_policies", "attached_policy_arns"}}, nil
}

// tfECR maps aws_ecr_repository; its policy is a separate
// aws_ecr_repository_policy resource, not joined, so Policy stays null.
func tfECR(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		Mutability string `json:"image_tag_mutability"`
		Scanning   tfBlock[struct {
			ScanOnPush bool `json:"scan_on_push"`
		}] `json:"image_scanning_configuration"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	sc, _ := t.Scanning.first()
	return &ECRRepository{RepositoryName: c.Name, ImageTagMutability: t.Mutability, ScanOnPush: sc.ScanOnPush}, nil
}

// tfSecret maps aws_secretsmanager_secret, whose policy argument (still
// accepted, superseded by aws_secretsmanager_secret_policy) may hold the
// resource policy.
func tfSecret(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		KMSKeyID string `json:"kms_key_id"`
		Rotation bool   `json:"rotation_enabled"`
		Policy   string `json:"policy"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	d, err := tfPolicy(t.Policy)
	if err != nil {
		return nil, err
	}
	return &SecretsManagerSecret{Name: c.Name, RotationEnabled: t.Rotation, KMSKeyID: t.KMSKeyID, Policy: d}, nil
}

func tfKMSKey(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		KeyID    string `json:"key_id"`
		Spec     string `json:"customer_master_key_spec"`
		Usage    string `json:"key_usage"`
		Enabled  *bool  `json:"is_enabled"`
		Rotation *bool  `json:"enable_key_rotation"`
		Policy   string `json:"policy"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	k := &KMSKey{KeyID: firstNonEmpty(t.KeyID, c.ID), KeyManager: "CUSTOMER", KeySpec: t.Spec, KeyUsage: t.Usage,
		KeyState: "Enabled", KeyRotationEnabled: t.Rotation}
	if t.Enabled != nil && !*t.Enabled {
		k.KeyState = "Disabled"
	}
	var err error
	if k.Policy, err = tfPolicy(t.Policy); err != nil {
		return nil, err
	}
	return k, nil
}

func tfIAMUser(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		UniqueID string `json:"unique_id"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	// aws_iam_user holds no policies (aws_iam_user_policy and
	// aws_iam_user_policy_attachment are resources of their own, not
	// joined): the state does not record them.
	return unrecorded{attrs: &IAMUser{UserName: c.Name, UserID: t.UniqueID}, keys: []string{"attached_policy_arns", "inline_policy_names"}}, nil
}

func tfAccessKey(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		User       string    `json:"user"`
		Status     string    `json:"status"`
		CreateDate time.Time `json:"create_date"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	return &IAMAccessKey{AccessKeyID: c.ID, UserName: t.User, Status: firstNonEmpty(t.Status, "Active"), CreateDate: t.CreateDate}, nil
}
