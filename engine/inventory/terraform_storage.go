package inventory

import (
	"encoding/json"
	"strings"
)

// Terraform mappers of the storage family: aws_s3_bucket and the S3 bucket
// companion resources joined onto it (public access block, versioning,
// encryption, logging, policy, ACL, lifecycle), aws_ebs_volume,
// aws_ebs_snapshot and aws_efs_file_system.

type tfSSEDefault struct {
	SSEAlgorithm   string `json:"sse_algorithm"`
	KMSMasterKeyID string `json:"kms_master_key_id"`
}

type tfSSERule struct {
	Default tfBlock[tfSSEDefault] `json:"apply_server_side_encryption_by_default"`
}

type tfGrant struct {
	Type        string   `json:"type"`
	URI         string   `json:"uri"`
	ID          string   `json:"id"`
	Permissions []string `json:"permissions"`
}

func (g tfGrant) grantee() string {
	if g.URI != "" {
		return g.URI[strings.LastIndexByte(g.URI, '/')+1:]
	}
	return g.ID
}

func tfS3Bucket(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		Bucket string    `json:"bucket"`
		ACL    string    `json:"acl"`
		Grant  []tfGrant `json:"grant"`
		Policy string    `json:"policy"`
		SSE    tfBlock[struct {
			Rule tfBlock[tfSSERule] `json:"rule"`
		}] `json:"server_side_encryption_configuration"`
		Versioning tfBlock[struct {
			Enabled   bool `json:"enabled"`
			MFADelete bool `json:"mfa_delete"`
		}] `json:"versioning"`
		Logging tfBlock[struct {
			TargetBucket string `json:"target_bucket"`
		}] `json:"logging"`
		Lifecycle []struct {
			Enabled bool `json:"enabled"`
		} `json:"lifecycle_rule"`
		ObjectLock bool `json:"object_lock_enabled"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	b := &S3Bucket{Bucket: firstNonEmpty(t.Bucket, c.ID), ACL: t.ACL, ObjectLockEnabled: t.ObjectLock}
	for _, g := range t.Grant {
		for _, p := range g.Permissions {
			b.ACLGrants = append(b.ACLGrants, ACLGrant{Grantee: g.grantee(), Permission: p})
		}
	}
	if err := setPolicy(b, t.Policy); err != nil {
		return nil, err
	}
	if sse, ok := t.SSE.first(); ok {
		if r, ok := sse.Rule.first(); ok {
			if d, ok := r.Default.first(); ok {
				b.SSEAlgorithm, b.KMSMasterKeyID = d.SSEAlgorithm, d.KMSMasterKeyID
			}
		}
	}
	if v, ok := t.Versioning.first(); ok && v.Enabled {
		b.Versioning, b.MFADelete = "Enabled", v.MFADelete
	}
	if l, ok := t.Logging.first(); ok {
		b.LoggingTargetBucket = l.TargetBucket
	}
	for _, l := range t.Lifecycle {
		if l.Enabled {
			b.LifecycleRuleCount++
		}
	}
	return b, nil
}

func setPolicy(b *S3Bucket, policy string) error {
	if strings.TrimSpace(policy) == "" {
		return nil
	}
	var doc PolicyDocument
	if err := json.Unmarshal([]byte(policy), &doc); err != nil {
		return err
	}
	b.Policy = &doc
	return nil
}

// s3Companion decodes a companion's bucket and body, then patches the
// bucket. sources ("canonical=tf_attr", see tfSources) name the bucket
// attributes the companion sets: one whose Terraform attribute the
// companion lacks is left unknown on the bucket, not set to its zero value.
func s3Companion[T any](attrs []byte, j *joiner, apply func(*S3Bucket, *T) error, sources ...string) error {
	var head struct {
		Bucket string `json:"bucket"`
	}
	var body T
	if err := json.Unmarshal(attrs, &head); err != nil {
		return err
	}
	if err := json.Unmarshal(attrs, &body); err != nil {
		return err
	}
	var applyErr error
	j.unknown("s3:"+head.Bucket, tfMissing(attrs, sources)...)
	j.patch("s3:"+head.Bucket, func(a any) {
		if err := apply(a.(*S3Bucket), &body); err != nil {
			applyErr = err
		}
	})
	return applyErr
}

func tfS3PublicAccessBlock(attrs []byte, j *joiner) error {
	return s3Companion(attrs, j, func(b *S3Bucket, p *PublicAccessBlock) error {
		b.PublicAccessBlock = p
		return nil
	}, "public_access_block=block_public_acls", "public_access_block=block_public_policy",
		"public_access_block=ignore_public_acls", "public_access_block=restrict_public_buckets")
}

func tfS3Versioning(attrs []byte, j *joiner) error {
	type conf struct {
		V tfBlock[struct {
			Status    string `json:"status"`
			MFADelete string `json:"mfa_delete"`
		}] `json:"versioning_configuration"`
	}
	return s3Companion(attrs, j, func(b *S3Bucket, c *conf) error {
		if v, ok := c.V.first(); ok {
			if v.Status != "Disabled" {
				b.Versioning = v.Status
			}
			b.MFADelete = v.MFADelete == "Enabled"
		}
		return nil
	}, "versioning=versioning_configuration.status", "mfa_delete=versioning_configuration.mfa_delete")
}

func tfS3Encryption(attrs []byte, j *joiner) error {
	type conf struct {
		Rule tfBlock[tfSSERule] `json:"rule"`
	}
	return s3Companion(attrs, j, func(b *S3Bucket, c *conf) error {
		if r, ok := c.Rule.first(); ok {
			if d, ok := r.Default.first(); ok {
				b.SSEAlgorithm, b.KMSMasterKeyID = d.SSEAlgorithm, d.KMSMasterKeyID
			}
		}
		return nil
	}, "sse_algorithm=rule.apply_server_side_encryption_by_default", "kms_master_key_id=rule.apply_server_side_encryption_by_default")
}

func tfS3Logging(attrs []byte, j *joiner) error {
	type conf struct {
		TargetBucket string `json:"target_bucket"`
	}
	return s3Companion(attrs, j, func(b *S3Bucket, c *conf) error {
		b.LoggingTargetBucket = c.TargetBucket
		return nil
	}, "logging_target_bucket=target_bucket")
}

func tfS3Policy(attrs []byte, j *joiner) error {
	type conf struct {
		Policy string `json:"policy"`
	}
	var c conf
	if err := json.Unmarshal(attrs, &c); err != nil {
		return err
	}
	var doc *PolicyDocument
	if c.Policy != "" { // absent: unknown (see s3Companion); null: no policy
		doc = new(PolicyDocument)
		if err := json.Unmarshal([]byte(c.Policy), doc); err != nil {
			return err
		}
	}
	return s3Companion(attrs, j, func(b *S3Bucket, _ *conf) error {
		if doc != nil {
			b.Policy = doc
		}
		return nil
	}, "policy=policy")
}

func tfS3ACL(attrs []byte, j *joiner) error {
	type conf struct {
		ACL    string `json:"acl"`
		Policy tfBlock[struct {
			Grant []struct {
				Grantee    tfBlock[tfGrant] `json:"grantee"`
				Permission string           `json:"permission"`
			} `json:"grant"`
		}] `json:"access_control_policy"`
	}
	return s3Companion(attrs, j, func(b *S3Bucket, c *conf) error {
		if c.ACL != "" {
			b.ACL = c.ACL
		}
		if p, ok := c.Policy.first(); ok {
			for _, g := range p.Grant {
				if gr, ok := g.Grantee.first(); ok {
					b.ACLGrants = append(b.ACLGrants, ACLGrant{Grantee: gr.grantee(), Permission: g.Permission})
				}
			}
		}
		return nil
	})
}

func tfS3Lifecycle(attrs []byte, j *joiner) error {
	type conf struct {
		Rule []struct {
			Status string `json:"status"`
		} `json:"rule"`
	}
	return s3Companion(attrs, j, func(b *S3Bucket, c *conf) error {
		for _, r := range c.Rule {
			if r.Status == "Enabled" {
				b.LifecycleRuleCount++
			}
		}
		return nil
	}, "lifecycle_rule_count=rule.status")
}

func tfVolume(attrs []byte, c *tfCommon) (any, error) {
	var v EBSVolume
	if err := json.Unmarshal(attrs, &v); err != nil {
		return nil, err
	}
	v.VolumeID, v.AvailabilityZone = c.ID, c.AvailabilityZone
	v.State = "" // Terraform does not know; attachments are aws_volume_attachment resources
	return &v, nil
}

func tfSnapshot(attrs []byte, c *tfCommon) (any, error) {
	var s EBSSnapshot
	if err := json.Unmarshal(attrs, &s); err != nil {
		return nil, err
	}
	s.SnapshotID = c.ID
	return &s, nil
}

func tfEFS(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		Encrypted bool   `json:"encrypted"`
		KMSKeyID  string `json:"kms_key_id"`
		Mode      string `json:"performance_mode"`
		Lifecycle []struct {
			TransitionToIA string `json:"transition_to_ia"`
		} `json:"lifecycle_policy"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	f := &EFSFileSystem{FileSystemID: c.ID, Encrypted: t.Encrypted, KMSKeyID: t.KMSKeyID, PerformanceMode: t.Mode}
	for _, l := range t.Lifecycle {
		if l.TransitionToIA != "" {
			f.TransitionToIA = l.TransitionToIA
		}
	}
	return f, nil
}
