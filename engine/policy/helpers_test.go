package policy

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// raisePolicy is a valid raise policy with the given expression.
func raisePolicy(expr string) engine.Policy {
	return engine.Policy{
		ID:         "pol_01hzx0000000000000000000aa",
		TenantID:   "ten_01hzx0000000000000000000bb",
		Name:       "Unencrypted prod buckets",
		Expression: expr,
		Effect:     engine.PolicyRaise,
		Dimension:  engine.DimensionSecurity,
		Severity:   engine.SeverityCritical,
		Version:    3,
	}
}

// severityPolicy is a valid severity policy with the given effect and
// expression.
func severityPolicy(effect engine.PolicyEffect, sev engine.Severity, expr string) engine.Policy {
	p := raisePolicy(expr)
	p.Name = "Prod findings"
	p.Effect = effect
	p.Severity = sev
	p.Dimension = ""
	return p
}

// MustCompile compiles p or fails the test.
func MustCompile(t testing.TB, p engine.Policy) *Program {
	t.Helper()
	prg, err := Compile(p)
	if err != nil {
		t.Fatalf("Compile(%q): %v", p.Expression, err)
	}
	return prg
}

// MustInput builds an Input with parsed attributes or fails the test.
func MustInput(t testing.TB, r engine.Resource) Input {
	t.Helper()
	attrs, err := ParseAttributes(r.Attributes)
	if err != nil {
		t.Fatalf("ParseAttributes(%s): %v", r.Attributes, err)
	}
	return Input{Resource: r, Attributes: attrs}
}

// match evaluates p on in with a background context.
func match(t testing.TB, prg *Program, in Input) (bool, error) {
	t.Helper()
	return prg.Match(context.Background(), in)
}

func resource(typ, name string, tags map[string]string, attrs string) engine.Resource {
	return engine.Resource{
		ID:         engine.ResourceID("ten_01hzx0000000000000000000bb", "aws", "arn:"+name),
		TenantID:   "ten_01hzx0000000000000000000bb",
		Provider:   "aws",
		Account:    "123456789012",
		Region:     "eu-west-1",
		Type:       typ,
		NativeID:   "arn:" + name,
		Name:       name,
		Tags:       engine.TagsFromMap(tags),
		Attributes: json.RawMessage(attrs),
	}
}

// Realistic resources.
var (
	prodBucket = resource("aws_s3_bucket", "billing-exports", map[string]string{"env": "prod", "owner": "finance"},
		`{"encryption":{"enabled":false},"versioning":true,"public_access_block":{"block_public_acls":true},"size_gb":1250.5,"objects":48211}`)
	devBucket = resource("aws_s3_bucket", "scratch", map[string]string{"env": "dev"},
		`{"encryption":{"enabled":false,"algorithm":null},"versioning":false}`)
	encryptedBucket = resource("aws_s3_bucket", "audit-logs", map[string]string{"env": "prod"},
		`{"encryption":{"enabled":true,"algorithm":"aws:kms"},"versioning":true}`)
	untaggedBucket = resource("aws_s3_bucket", "legacy", nil, `{"encryption":{"enabled":false}}`)
	openSSHGroup   = resource("aws_security_group", "bastion", map[string]string{"env": "prod"},
		`{"vpc_id":"vpc-1","ingress":[{"protocol":"tcp","from_port":443,"to_port":443,"cidr":"0.0.0.0/0"},{"protocol":"tcp","from_port":0,"to_port":65535,"cidr":"0.0.0.0/0"}]}`)
	closedGroup = resource("aws_security_group", "internal", map[string]string{"env": "prod"},
		`{"vpc_id":"vpc-1","ingress":[{"protocol":"tcp","from_port":22,"to_port":22,"cidr":"10.0.0.0/8"},{"protocol":"tcp","from_port":443,"to_port":443,"cidr":"0.0.0.0/0"}]}`)
	instance = resource("aws_instance", "api-1", map[string]string{"env": "prod", "team": "core"},
		`{"instance_type":"m5.large","imds":{"http_tokens":"optional"},"public_ip":"54.1.2.3","volumes":[{"size":100,"encrypted":true},{"size":500,"encrypted":false}]}`)
)
