package inventory

// AWS Config's IAM items carry their policy documents URL-encoded
// (policyVersionList[].document, assumeRolePolicyDocument,
// rolePolicyList[].policyDocument, userPolicyList[].policyDocument,
// groupPolicyList[].policyDocument); PolicyDocument's UnmarshalJSON
// decodes them, as it does the JSON-string policies of resource items.

// cfgInlinePolicy is one entry of userPolicyList, groupPolicyList or
// rolePolicyList.
type cfgInlinePolicy struct {
	Name     string          `json:"policyName"`
	Document *PolicyDocument `json:"policyDocument"`
}

type cfgAttachedPolicy struct {
	ARN string `json:"policyArn"`
}

func inlinePolicies(in []cfgInlinePolicy) []NamedPolicy {
	var out []NamedPolicy
	for _, p := range in {
		out = append(out, NamedPolicy{Name: p.Name, Document: p.Document})
	}
	return out
}

func attachedARNs(in []cfgAttachedPolicy) []string {
	var out []string
	for _, p := range in {
		out = append(out, p.ARN)
	}
	return out
}

// attachedKnown returns attrs with attached_policy_arns unknown when an
// entry of attachedManagedPolicies names no policy: AWS writes each
// attachment with its policyArn (AWS::IAM::{Role,User,Group} in
// awslabs/aws-config-resource-schema: attachedManagedPolicies.policyArn),
// so such an entry lost it, and the principal's attached policies are
// unknown, not "a policy of no name".
func attachedKnown(attrs any, in []cfgAttachedPolicy) any {
	for _, p := range in {
		if p.ARN == "" {
			return withUnrecorded(attrs, "attached_policy_arns")
		}
	}
	return attrs
}

func cfgIAMRole(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		RoleName   string              `json:"roleName"`
		RoleID     string              `json:"roleId"`
		Path       string              `json:"path"`
		CreateDate flexTime            `json:"createDate"`
		Trust      *PolicyDocument     `json:"assumeRolePolicyDocument"`
		Inline     []cfgInlinePolicy   `json:"rolePolicyList"`
		Attached   []cfgAttachedPolicy `json:"attachedManagedPolicies"`
		Boundary   *struct {
			ARN string `json:"permissionsBoundaryArn"`
		} `json:"permissionsBoundary"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	r := IAMRole{RoleName: c.RoleName, RoleID: c.RoleID, Path: c.Path, CreateDate: c.CreateDate.t(),
		AssumeRolePolicy: c.Trust, InlinePolicies: inlinePolicies(c.Inline), AttachedPolicyARNs: attachedARNs(c.Attached)}
	if c.Boundary != nil {
		r.PermissionsBoundaryARN = c.Boundary.ARN
	}
	return TypeIAMRole, attachedKnown(recordedOnly(ci, conf, r, "inline_policies=rolePolicyList", "attached_policy_arns=attachedManagedPolicies"), c.Attached), nil
}

func cfgIAMPolicy(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		PolicyName       string   `json:"policyName"`
		PolicyID         string   `json:"policyId"`
		Path             string   `json:"path"`
		DefaultVersionID string   `json:"defaultVersionId"`
		AttachmentCount  *flexInt `json:"attachmentCount"`
		Versions         []struct {
			Document  *PolicyDocument `json:"document"`
			VersionID string          `json:"versionId"`
			IsDefault flexBool        `json:"isDefaultVersion"`
		} `json:"policyVersionList"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	p := IAMPolicy{PolicyName: c.PolicyName, PolicyID: c.PolicyID, Path: c.Path, DefaultVersionID: c.DefaultVersionID}
	if p.PolicyName == "" {
		p.PolicyName = ci.ResourceName
	}
	if c.AttachmentCount != nil {
		n := int(*c.AttachmentCount)
		p.AttachmentCount = &n
	}
	for _, v := range c.Versions {
		if bool(v.IsDefault) || v.VersionID != "" && v.VersionID == c.DefaultVersionID {
			p.Document = v.Document
			if p.DefaultVersionID == "" {
				p.DefaultVersionID = v.VersionID
			}
			break
		}
	}
	return TypeIAMPolicy, p, nil
}

func cfgIAMGroup(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		GroupName string              `json:"groupName"`
		GroupID   string              `json:"groupId"`
		Path      string              `json:"path"`
		Inline    []cfgInlinePolicy   `json:"groupPolicyList"`
		Attached  []cfgAttachedPolicy `json:"attachedManagedPolicies"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	return TypeIAMGroup, attachedKnown(recordedOnly(ci, conf, IAMGroup{GroupName: c.GroupName, GroupID: c.GroupID, Path: c.Path,
		InlinePolicies: inlinePolicies(c.Inline), AttachedPolicyARNs: attachedARNs(c.Attached)},
		"inline_policies=groupPolicyList", "attached_policy_arns=attachedManagedPolicies"), c.Attached), nil
}

// cfgECR reads AWS::ECR::Repository, which AWS Config records with
// CloudFormation's property names (RepositoryPolicyText as an object or a
// JSON string).
func cfgECR(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name       string `json:"RepositoryName"`
		Mutability string `json:"ImageTagMutability"`
		Scanning   struct {
			ScanOnPush flexBool `json:"ScanOnPush"`
		} `json:"ImageScanningConfiguration"`
		Policy *PolicyDocument `json:"RepositoryPolicyText"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	r := ECRRepository{RepositoryName: c.Name, ImageTagMutability: c.Mutability, ScanOnPush: bool(c.Scanning.ScanOnPush), Policy: c.Policy}
	if r.RepositoryName == "" {
		r.RepositoryName = ci.ResourceName
	}
	return TypeECRRepository, r, nil
}

// cfgSecret reads AWS::SecretsManager::Secret. AWS Config does not record
// a secret's resource policy (AWS's own policy-validation rule fetches it
// with GetResourcePolicy), so Policy stays null: unknown, not "none".
func cfgSecret(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name     string   `json:"Name"`
		Rotation flexBool `json:"RotationEnabled"`
		KMSKeyID string   `json:"KmsKeyId"`
		Rules    struct {
			Days flexInt `json:"AutomaticallyAfterDays"`
		} `json:"RotationRules"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	s := SecretsManagerSecret{Name: c.Name, RotationEnabled: bool(c.Rotation), KMSKeyID: c.KMSKeyID, RotationIntervalDays: int(c.Rules.Days)}
	if s.Name == "" {
		s.Name = ci.ResourceName
	}
	return TypeSecretsManagerSecret, recordedOnly(ci, conf, s, "rotation_enabled=?RotationEnabled"), nil
}

func cfgIAMUser(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		UserName   string              `json:"userName"`
		UserID     string              `json:"userId"`
		CreateDate flexTime            `json:"createDate"`
		Inline     []cfgInlinePolicy   `json:"userPolicyList"`
		Attached   []cfgAttachedPolicy `json:"attachedManagedPolicies"`
		Groups     []string            `json:"groupList"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	u := IAMUser{UserName: c.UserName, UserID: c.UserID, CreateDate: c.CreateDate.t(), Groups: c.Groups}
	for _, p := range c.Inline {
		u.InlinePolicyNames = append(u.InlinePolicyNames, p.Name)
	}
	u.InlinePolicies = inlinePolicies(c.Inline)
	for _, p := range c.Attached {
		u.AttachedPolicyARNs = append(u.AttachedPolicyARNs, p.ARN)
	}
	return TypeIAMUser, attachedKnown(recordedOnly(ci, conf, u, "attached_policy_arns=attachedManagedPolicies", "inline_policy_names=userPolicyList",
		"inline_policies=userPolicyList"), c.Attached), nil
}

func cfgKMSKey(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		KeyID        string    `json:"keyId"`
		KeyManager   string    `json:"keyManager"`
		KeySpec      string    `json:"keySpec"`
		CMKSpec      string    `json:"customerMasterKeySpec"`
		KeyUsage     string    `json:"keyUsage"`
		KeyState     string    `json:"keyState"`
		Rotation     *flexBool `json:"keyRotationEnabled"`
		DeletionDate flexTime  `json:"deletionDate"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	k := KMSKey{KeyID: c.KeyID, KeyManager: c.KeyManager, KeySpec: c.KeySpec, KeyUsage: c.KeyUsage,
		KeyState: c.KeyState, KeyRotationEnabled: c.Rotation.ptr(), DeletionDate: c.DeletionDate.t()}
	if k.KeySpec == "" {
		k.KeySpec = c.CMKSpec
	}
	var rot *flexBool
	if err := supp(ci, "KeyRotationStatus", &rot); err != nil {
		return "", nil, err
	}
	if rot != nil {
		k.KeyRotationEnabled = boolPtr(bool(*rot) || k.KeyRotationEnabled != nil && *k.KeyRotationEnabled)
	}
	if err := supp(ci, "Policy", &k.Policy); err != nil {
		return "", nil, err
	}
	return TypeKMSKey, k, nil
}
