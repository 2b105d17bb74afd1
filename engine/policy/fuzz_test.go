package policy

import (
	"context"
	"errors"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// FuzzExpression checks that no expression makes validation, compilation or
// evaluation panic, and that evaluation fails only with *EvalError.
func FuzzExpression(f *testing.F) {
	for _, seed := range []string{
		`resource.type == "aws_s3_bucket" && resource.tags["env"] == "prod" && !resource.attributes.encryption.enabled`,
		`resource.attributes.ingress.exists(r, r.cidr == "0.0.0.0/0" && r.from_port <= 22 && r.to_port >= 22)`,
		`resource.attributes.volumes.map(v, v.size).exists(s, s > 100)`,
		`has(resource.attributes.imds) && resource.attributes.imds.http_tokens != "required"`,
		`resource.tags[?"env"].orValue("") == "prod"`,
		`dyn(resource).tags.size() > 1`,
		`resource.name.matches("^[a-z]+$")`,
		`resource.attributes.objects / 0 == 1`,
		`[1,2,3].all(x, [1,2,3].all(y, x + y > 0))`,
		`resource.name.substring(5, 2) == ""`,
		`severity_rank(resource.name) == 1`,
		`resorce.name`, `((((`, `"\xff"`, `1 ? 2 : 3`,
	} {
		f.Add(seed)
	}
	resources := []engine.Resource{prodBucket, untaggedBucket, openSSHGroup, instance, resource("aws_iam_user", "", nil, "")}
	f.Fuzz(func(t *testing.T, expr string) {
		for _, p := range []engine.Policy{raisePolicy(expr), severityPolicy(engine.PolicySeverityAtLeast, engine.SeverityHigh, expr)} {
			prg, err := Compile(p)
			if err != nil {
				if engine.ErrorCode(err) != engine.CodeValidationFailed {
					t.Fatalf("Compile(%q): %v, want validation_failed", expr, err)
				}
				continue
			}
			for _, r := range resources {
				in := MustInput(t, r)
				in.Finding = &engine.Finding{RuleID: "aws-s3-encryption", Severity: engine.SeverityLow, Dimension: engine.DimensionSecurity}
				_, err := prg.Match(context.Background(), in)
				var ee *EvalError
				if err != nil && !errors.As(err, &ee) {
					t.Fatalf("Match(%q) on %s: %v (%T), want nil or *EvalError", expr, r.Name, err, err)
				}
			}
		}
	})
}

// FuzzTemplate checks that templates parse or fail with validation_failed,
// and render without panicking.
func FuzzTemplate(f *testing.F) {
	for _, seed := range []string{"", "{{resource.name}}", "{{ resource.tags.a }} x {{", "}}{{}}", "{{resource.tags.}}", "a{{resource.region}}b"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tmpl, err := parseTemplate("title", s)
		if err != nil {
			if engine.ErrorCode(err) != engine.CodeValidationFailed {
				t.Fatalf("parseTemplate(%q): %v", s, err)
			}
			return
		}
		_ = tmpl.render(&prodBucket)
	})
}
