package inventory

import (
	"encoding/json"
	"strings"
)

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

// s3Companion decodes a companion's bucket and body, then patches the bucket.
func s3Companion[T any](attrs []byte, j *joiner, apply func(*S3Bucket, *T) error) error {
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
	})
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
	})
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
	})
}

func tfS3Logging(attrs []byte, j *joiner) error {
	type conf struct {
		TargetBucket string `json:"target_bucket"`
	}
	return s3Companion(attrs, j, func(b *S3Bucket, c *conf) error {
		b.LoggingTargetBucket = c.TargetBucket
		return nil
	})
}

func tfS3Policy(attrs []byte, j *joiner) error {
	type conf struct {
		Policy string `json:"policy"`
	}
	var c conf
	if err := json.Unmarshal(attrs, &c); err != nil {
		return err
	}
	var doc PolicyDocument
	if err := json.Unmarshal([]byte(c.Policy), &doc); err != nil {
		return err
	}
	return s3Companion(attrs, j, func(b *S3Bucket, _ *conf) error {
		b.Policy = &doc
		return nil
	})
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
	})
}

func tfSecurityGroup(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		Description string   `json:"description"`
		VPCID       string   `json:"vpc_id"`
		Ingress     []SGRule `json:"ingress"`
		Egress      []SGRule `json:"egress"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	g := &SecurityGroup{GroupID: c.ID, GroupName: c.Name, Description: t.Description, VPCID: t.VPCID,
		Ingress: nonNilRules(t.Ingress), Egress: nonNilRules(t.Egress)}
	if g.GroupName == "" {
		g.GroupName = "default" // aws_default_security_group has no name attribute
	}
	return g, nil
}

func nonNilRules(r []SGRule) []SGRule {
	if r == nil {
		return []SGRule{}
	}
	return r
}

func tfSGRule(attrs []byte, j *joiner) error {
	var r struct {
		Type            string   `json:"type"`
		SecurityGroupID string   `json:"security_group_id"`
		Protocol        string   `json:"protocol"`
		FromPort        int      `json:"from_port"`
		ToPort          int      `json:"to_port"`
		CIDRBlocks      []string `json:"cidr_blocks"`
		IPv6CIDRBlocks  []string `json:"ipv6_cidr_blocks"`
		SourceSG        string   `json:"source_security_group_id"`
	}
	if err := json.Unmarshal(attrs, &r); err != nil {
		return err
	}
	rule := SGRule{Protocol: r.Protocol, FromPort: r.FromPort, ToPort: r.ToPort, CIDRBlocks: r.CIDRBlocks, IPv6CIDRBlocks: r.IPv6CIDRBlocks}
	if r.SourceSG != "" {
		rule.SecurityGroups = []string{r.SourceSG}
	}
	egress := r.Type == "egress"
	j.patch("sg:"+r.SecurityGroupID, func(a any) { addSGRule(a.(*SecurityGroup), rule, egress) })
	return nil
}

func tfSGIngressRule(attrs []byte, j *joiner) error { return tfVPCSGRule(attrs, j, false) }

func tfSGEgressRule(attrs []byte, j *joiner) error { return tfVPCSGRule(attrs, j, true) }

// tfVPCSGRule merges an aws_vpc_security_group_{ingress,egress}_rule.
func tfVPCSGRule(attrs []byte, j *joiner, egress bool) error {
	var r struct {
		SecurityGroupID string `json:"security_group_id"`
		IPProtocol      string `json:"ip_protocol"`
		FromPort        *int   `json:"from_port"`
		ToPort          *int   `json:"to_port"`
		CIDRIPv4        string `json:"cidr_ipv4"`
		CIDRIPv6        string `json:"cidr_ipv6"`
		Referenced      string `json:"referenced_security_group_id"`
	}
	if err := json.Unmarshal(attrs, &r); err != nil {
		return err
	}
	rule := SGRule{Protocol: r.IPProtocol, ToPort: 65535}
	if r.FromPort != nil && *r.FromPort >= 0 {
		rule.FromPort = *r.FromPort
	}
	if r.ToPort != nil && *r.ToPort >= 0 {
		rule.ToPort = *r.ToPort
	}
	if r.CIDRIPv4 != "" {
		rule.CIDRBlocks = []string{r.CIDRIPv4}
	}
	if r.CIDRIPv6 != "" {
		rule.IPv6CIDRBlocks = []string{r.CIDRIPv6}
	}
	if r.Referenced != "" {
		rule.SecurityGroups = []string{r.Referenced}
	}
	j.patch("sg:"+r.SecurityGroupID, func(a any) { addSGRule(a.(*SecurityGroup), rule, egress) })
	return nil
}

func addSGRule(g *SecurityGroup, r SGRule, egress bool) {
	if egress {
		g.Egress = append(g.Egress, r)
		return
	}
	g.Ingress = append(g.Ingress, r)
}
