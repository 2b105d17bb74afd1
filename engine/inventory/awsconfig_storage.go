package inventory

import (
	"encoding/json"
	"strings"
)

// AWS Config mappers of the storage family: AWS::S3::Bucket,
// AWS::S3::AccountPublicAccessBlock, AWS::EC2::Volume and
// AWS::EFS::FileSystem.

func cfgS3Bucket(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name         string   `json:"name"`
		CreationDate flexTime `json:"creationDate"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	b := S3Bucket{Bucket: c.Name, CreationDate: c.CreationDate.t()}
	if b.Bucket == "" {
		b.Bucket = ci.ResourceName
	}
	var acl struct {
		GrantList []struct {
			Grantee    json.RawMessage `json:"grantee"`
			Permission string          `json:"permission"`
		} `json:"grantList"`
	}
	if err := supp(ci, "AccessControlList", &acl); err != nil {
		return "", nil, err
	}
	for _, g := range acl.GrantList {
		b.ACLGrants = append(b.ACLGrants, ACLGrant{Grantee: granteeName(g.Grantee), Permission: g.Permission})
	}
	pab, partialPAB, err := cfgPublicAccessBlock(ci.Supplementary["PublicAccessBlockConfiguration"])
	if err != nil {
		return "", nil, err
	}
	b.PublicAccessBlock = pab
	var pol struct {
		PolicyText *PolicyDocument `json:"policyText"`
	}
	if err := supp(ci, "BucketPolicy", &pol); err != nil {
		return "", nil, err
	}
	b.Policy = pol.PolicyText
	var sse struct {
		Rules []struct {
			Default struct {
				SSEAlgorithm   string `json:"sseAlgorithm"`
				KMSMasterKeyID string `json:"kmsMasterKeyID"`
			} `json:"applyServerSideEncryptionByDefault"`
		} `json:"rules"`
	}
	if err := supp(ci, "ServerSideEncryptionConfiguration", &sse); err != nil {
		return "", nil, err
	}
	if len(sse.Rules) > 0 {
		b.SSEAlgorithm, b.KMSMasterKeyID = sse.Rules[0].Default.SSEAlgorithm, sse.Rules[0].Default.KMSMasterKeyID
	}
	var ver struct {
		Status    string   `json:"status"`
		MFADelete flexBool `json:"isMfaDeleteEnabled"`
	}
	if err := supp(ci, "BucketVersioningConfiguration", &ver); err != nil {
		return "", nil, err
	}
	if ver.Status != "Off" {
		b.Versioning = ver.Status
	}
	b.MFADelete = bool(ver.MFADelete)
	var logging struct {
		Destination string `json:"destinationBucketName"`
	}
	if err := supp(ci, "BucketLoggingConfiguration", &logging); err != nil {
		return "", nil, err
	}
	b.LoggingTargetBucket = logging.Destination
	var lc struct {
		Rules []struct {
			Status string `json:"status"`
		} `json:"rules"`
	}
	if err := supp(ci, "BucketLifecycleConfiguration", &lc); err != nil {
		return "", nil, err
	}
	for _, r := range lc.Rules {
		if strings.EqualFold(r.Status, "Enabled") {
			b.LifecycleRuleCount++
		}
	}
	unknown := s3Unrecorded(ci.Supplementary, ci.partial)
	if len(partialPAB) > 0 {
		unknown = append(unknown, "public_access_block") // a switch unknown: the block is
	}
	if len(unknown) > 0 {
		return TypeS3Bucket, unrecorded{attrs: b, keys: unknown}, nil
	}
	return TypeS3Bucket, b, nil
}

// s3Supplements maps each of a bucket's supplementary configurations to
// the canonical attributes read from it. always marks the ones AWS Config
// records for every bucket, with null values when the feature is off (the
// AWS Config Developer Guide's example S3 snapshot, example-s3-snapshot.html:
// BucketPolicy {"policyText":null}, BucketVersioningConfiguration
// {"status":"Off"}, BucketLoggingConfiguration {"destinationBucketName":
// null}); the others it leaves out of a bucket that has none.
// fields name, per canonical attribute, the key inside the supplement
// that carries it: a supplement without it is a partial record, and the
// attribute is unknown (AWS writes it, null or "Off" when unset).
var s3Supplements = []struct {
	name   string
	always bool
	keys   []string
	fields []string
}{
	{"BucketPolicy", true, []string{"policy"}, []string{"policyText"}},
	{"BucketVersioningConfiguration", true, []string{"versioning", "mfa_delete"}, []string{"status", "isMfaDeleteEnabled"}},
	{"BucketLoggingConfiguration", true, []string{"logging_target_bucket"}, []string{"destinationBucketName"}},
	{"PublicAccessBlockConfiguration", false, []string{"public_access_block"}, nil}, // its switches: cfgPublicAccessBlock
	{"ServerSideEncryptionConfiguration", false, []string{"sse_algorithm", "kms_master_key_id"}, []string{"rules", "rules"}},
	{"BucketLifecycleConfiguration", false, []string{"lifecycle_rule_count"}, []string{"rules"}},
}

// s3Unrecorded returns the attributes a bucket's item does not record: an
// item without supplementary configuration (an advanced query that
// selected configuration only) or one that may be partial (an Advanced
// Query result) records none of those it lacks; a whole one lacks only the
// always-recorded supplements it leaves out.
func s3Unrecorded(supp map[string]json.RawMessage, partial bool) []string {
	var out []string
	for _, s := range s3Supplements {
		raw, ok := supp[s.name]
		if !ok {
			if len(supp) == 0 || s.always || partial {
				out = append(out, s.keys...)
			}
			continue
		}
		if obj := jsonObject(raw); obj != nil {
			for i, f := range s.fields {
				if !hasKey(obj, f) {
					out = append(out, s.keys[i])
				}
			}
		}
	}
	return out
}

// cfgPAB is S3's public access block as AWS Config writes it: the API's
// PublicAccessBlockConfiguration with camelCase keys, the same shape in a
// bucket's supplementaryConfiguration and in the configuration of an
// AWS::S3::AccountPublicAccessBlock item.
type cfgPAB struct {
	BlockPublicACLs       present[flexBool] `json:"blockPublicAcls"`
	IgnorePublicACLs      present[flexBool] `json:"ignorePublicAcls"`
	BlockPublicPolicy     present[flexBool] `json:"blockPublicPolicy"`
	RestrictPublicBuckets present[flexBool] `json:"restrictPublicBuckets"`
}

// cfgPublicAccessBlock reads a public access block value (an object or a
// JSON string holding one); nil when absent or null. missing names, by
// their canonical keys, the switches the object lacks: AWS writes all
// four, so a block without one is a partial record whose switch is
// unknown, not off.
func cfgPublicAccessBlock(raw json.RawMessage) (pab *PublicAccessBlock, missing []string, err error) {
	b := jsonObject(raw)
	if b == nil {
		return nil, nil, nil
	}
	var c cfgPAB
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, nil, err
	}
	for _, sw := range []struct {
		v   present[flexBool]
		key string
	}{{c.BlockPublicACLs, "block_public_acls"}, {c.IgnorePublicACLs, "ignore_public_acls"},
		{c.BlockPublicPolicy, "block_public_policy"}, {c.RestrictPublicBuckets, "restrict_public_buckets"}} {
		if !sw.v.Set {
			missing = append(missing, sw.key)
		}
	}
	return &PublicAccessBlock{BlockPublicACLs: bool(c.BlockPublicACLs.V), IgnorePublicACLs: bool(c.IgnorePublicACLs.V),
		BlockPublicPolicy: bool(c.BlockPublicPolicy.V), RestrictPublicBuckets: bool(c.RestrictPublicBuckets.V)}, missing, nil
}

// granteeName reads an ACL grantee: a group name string ("AllUsers") or a
// canonical user object ({"id": …}).
func granteeName(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var u struct {
		ID  string `json:"id"`
		URI string `json:"uri"`
	}
	_ = json.Unmarshal(raw, &u)
	if u.URI != "" {
		return u.URI[strings.LastIndexByte(u.URI, '/')+1:]
	}
	return u.ID
}

func cfgVolume(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		VolumeID    string   `json:"volumeId"`
		Size        flexInt  `json:"size"`
		VolumeType  string   `json:"volumeType"`
		IOPS        flexInt  `json:"iops"`
		Encrypted   flexBool `json:"encrypted"`
		KMSKeyID    string   `json:"kmsKeyId"`
		State       string   `json:"state"`
		AZ          string   `json:"availabilityZone"`
		CreateTime  flexTime `json:"createTime"`
		Attachments []struct {
			InstanceID string `json:"instanceId"`
		} `json:"attachments"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	v := EBSVolume{VolumeID: c.VolumeID, Size: int(c.Size), Type: c.VolumeType, IOPS: int(c.IOPS), Encrypted: bool(c.Encrypted),
		KMSKeyID: c.KMSKeyID, State: c.State, AvailabilityZone: c.AZ, CreateTime: c.CreateTime.t()}
	for _, a := range c.Attachments {
		v.AttachedTo = append(v.AttachedTo, a.InstanceID)
	}
	return TypeEBSVolume, recordedOnly(ci, conf, v, "encrypted=encrypted", "size=size", "type=volumeType", "state=state",
		"attached_to=attachments", "kms_key_id=?kmsKeyId", "iops=?iops"), nil
}

func cfgEFS(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		ID              string   `json:"FileSystemId"`
		Encrypted       flexBool `json:"Encrypted"`
		KMSKeyID        string   `json:"KmsKeyId"`
		PerformanceMode string   `json:"PerformanceMode"`
		Backup          struct {
			Status string `json:"Status"`
		} `json:"BackupPolicy"`
		Lifecycle []struct {
			TransitionToIA string `json:"TransitionToIA"`
		} `json:"LifecyclePolicies"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	f := EFSFileSystem{FileSystemID: c.ID, Encrypted: bool(c.Encrypted), KMSKeyID: c.KMSKeyID,
		PerformanceMode: c.PerformanceMode, BackupPolicy: c.Backup.Status}
	for _, l := range c.Lifecycle {
		if l.TransitionToIA != "" {
			f.TransitionToIA = l.TransitionToIA
		}
	}
	return TypeEFSFileSystem, recordedOnly(ci, conf, f, "encrypted=Encrypted", "performance_mode=PerformanceMode",
		"transition_to_ia=?LifecyclePolicies.?TransitionToIA", "backup_policy=?BackupPolicy", "kms_key_id=?KmsKeyId"), nil
}

// cfgAccountPAB maps AWS::S3::AccountPublicAccessBlock, whose configuration
// is the four camelCase switches (awslabs/aws-config-resource-schema:
// configuration.blockPublicAcls, …).
func cfgAccountPAB(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	p, missing, err := cfgPublicAccessBlock(conf)
	if err != nil {
		return "", nil, err
	}
	a := S3AccountPublicAccessBlock{AccountID: ci.AWSAccountID}
	if a.AccountID == "" {
		a.AccountID = ci.AccountID
	}
	if p != nil {
		a.PublicAccessBlock = *p
	}
	return TypeS3AccountPublicAccessBlock, withUnrecorded(a, missing...), nil
}
