package policy

import (
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/go-cmp/cmp"
)

func TestValidate(t *testing.T) {
	const okExpr = `resource.type == "aws_s3_bucket" && resource.tags["env"] == "prod" && !resource.attributes.encryption.enabled`
	with := func(f func(p *engine.Policy)) engine.Policy {
		p := raisePolicy(okExpr)
		f(&p)
		return p
	}
	tests := []struct {
		name   string
		policy engine.Policy
		want   *engine.Error // nil: valid
	}{
		{"valid raise", raisePolicy(okExpr), nil},
		{"valid severity with finding", severityPolicy(engine.PolicySeverityAtLeast, engine.SeverityHigh,
			`resource.tags[?"env"].orValue("") == "prod" && severity_rank(finding.severity) >= 2`), nil},
		{"valid dyn result", raisePolicy(`resource.attributes.public`), nil},
		{"valid templates", with(func(p *engine.Policy) {
			p.Title = "Bucket {{resource.name}} in {{ resource.region }} is unencrypted"
			p.Remediation = "Ask {{resource.tags.owner}} to enable SSE-KMS on {{resource.native_id}}."
		}), nil},
		{"syntax error with position", raisePolicy(`resource.type == "x" &&`),
			&engine.Error{Field: "expression", Message: "expression: ERROR: <input>:1:24: Syntax error: mismatched input '<EOF>'"}},
		{"unknown variable", raisePolicy(`resorce.type == "aws_s3_bucket"`),
			&engine.Error{Field: "expression", Message: "expression: ERROR: <input>:1:1: undeclared reference to 'resorce'"}},
		{"unknown field", raisePolicy(`resource.nmae == "x"`),
			&engine.Error{Field: "expression", Message: "expression: ERROR: <input>:1:9: undefined field 'nmae'"}},
		{"type error", raisePolicy(`resource.tags.env + 1 == 2`),
			&engine.Error{Field: "expression", Message: "expression: ERROR: <input>:1:19: found no matching overload for '_+_' applied to '(string, int)'"}},
		{"not bool", raisePolicy(`size(resource.tags)`),
			&engine.Error{Field: "expression", Message: "expression: must evaluate to bool, got int"}},
		{"finding in a raise policy", raisePolicy(`finding.severity == "low"`),
			&engine.Error{Field: "expression", Message: "expression: ERROR: <input>:1:1: undeclared reference to 'finding'"}},
		{"amplifying function", raisePolicy(`resource.name.size() > 0 && resource.name.replace("", resource.name).size() > 9`),
			&engine.Error{Field: "expression", Message: "expression: ERROR: <input>:1:50: function 'replace' is not available in policies"}},
		{"join", raisePolicy(`resource.name.split("").join("-") == "a"`),
			&engine.Error{Field: "expression", Message: "expression: ERROR: <input>:1:29: function 'join' is not available in policies"}},
		{"invalid constant regex", raisePolicy(`resource.name.matches("^(prod")`),
			&engine.Error{Field: "expression", Message: "expression: ERROR: <input>:1:23: invalid regular expression: error parsing regexp: missing closing ): `^(prod`"}},
		{"invalid constant regex, global form", raisePolicy(`true && matches(resource.name, "[")`),
			&engine.Error{Field: "expression", Message: "expression: ERROR: <input>:1:32: invalid regular expression: error parsing regexp: missing closing ]"}},
		{"empty expression", raisePolicy("  "),
			&engine.Error{Field: "expression", Message: "expression must not be empty"}},
		{"too long expression", raisePolicy(`resource.name == "` + strings.Repeat("a", MaxExpressionLength) + `"`),
			&engine.Error{Field: "expression", Message: "expression must be at most 4096 bytes"}},
		{"empty name", with(func(p *engine.Policy) { p.Name = "" }),
			&engine.Error{Field: "name", Message: "name must be 1 to 200 characters"}},
		{"long name", with(func(p *engine.Policy) { p.Name = strings.Repeat("é", 201) }),
			&engine.Error{Field: "name", Message: "name must be 1 to 200 characters; got 201"}},
		{"bad effect", with(func(p *engine.Policy) { p.Effect = "delete" }),
			&engine.Error{Field: "effect", Message: "effect must be one of raise, severity_at_least, severity_at_most"}},
		{"missing dimension for raise", with(func(p *engine.Policy) { p.Dimension = "" }),
			&engine.Error{Field: "dimension", Message: "dimension must be one of security"}},
		{"bad dimension for severity", func() engine.Policy {
			p := severityPolicy(engine.PolicySeverityAtMost, engine.SeverityLow, `true`)
			p.Dimension = "money"
			return p
		}(), &engine.Error{Field: "dimension", Message: "dimension must be empty"}},
		{"bad severity", with(func(p *engine.Policy) { p.Severity = "urgent" }),
			&engine.Error{Field: "severity", Message: "severity must be one of info"}},
		{"bad resource type", with(func(p *engine.Policy) { p.ResourceTypes = []string{"aws_s3_bucket", "AWS::EC2"} }),
			&engine.Error{Field: "resource_types", Message: "resource_types[1] must match"}},
		{"too many resource types", with(func(p *engine.Policy) { p.ResourceTypes = make([]string, 51) }),
			&engine.Error{Field: "resource_types", Message: "resource_types must list at most 50 types; got 51"}},
		{"unknown placeholder", with(func(p *engine.Policy) { p.Title = "Bucket {{resource.nme}}" }),
			&engine.Error{Field: "title", Message: "title: unknown placeholder {{resource.nme}} at offset 7"}},
		{"unclosed placeholder", with(func(p *engine.Policy) { p.Remediation = "Fix {{resource.name" }),
			&engine.Error{Field: "remediation", Message: "remediation: unclosed {{ at offset 4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(tt.policy)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Validate: %v, want nil", err)
				}
				return
			}
			got, ok := err.(*engine.Error)
			if !ok {
				t.Fatalf("Validate: %v (%T), want *engine.Error", err, err)
			}
			if !strings.HasPrefix(got.Message, tt.want.Message) {
				t.Errorf("message = %q, want prefix %q", got.Message, tt.want.Message)
			}
			want := engine.Error{Code: engine.CodeValidationFailed, Field: tt.want.Field}
			if diff := cmp.Diff(want, engine.Error{Code: got.Code, Field: got.Field}); diff != "" {
				t.Errorf("code and field (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidateReportsSeveralIssues(t *testing.T) {
	err := Validate(raisePolicy(`resource.a == 1 && resource.b == 2 && resource.c == 3 && resource.d == 4`))
	got := engine.ErrorMessage(err)
	want := "expression: ERROR: <input>:1:9: undefined field 'a'; ERROR: <input>:1:28: undefined field 'b'; " +
		"ERROR: <input>:1:47: undefined field 'c'; and 1 more"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}
}

func TestNormalize(t *testing.T) {
	in := engine.Policy{Name: "  Prod  ", ResourceTypes: []string{"aws_s3_bucket", "aws_instance", "aws_s3_bucket"}}
	want := engine.Policy{Name: "Prod", Effect: engine.PolicyRaise, ResourceTypes: []string{"aws_s3_bucket", "aws_instance"}}
	if diff := cmp.Diff(want, Normalize(in)); diff != "" {
		t.Errorf("Normalize (-want +got):\n%s", diff)
	}
	keep := engine.Policy{Effect: engine.PolicySeverityAtMost}
	if got := Normalize(keep).Effect; got != engine.PolicySeverityAtMost {
		t.Errorf("Normalize changed effect to %q", got)
	}
}

func TestConfig(t *testing.T) {
	tests := []struct {
		name    string
		cfg     Config
		wantErr bool
		limit   uint64
	}{
		{"default", Config{}, false, DefaultCostLimit},
		{"custom", Config{CostLimit: 500}, false, 500},
		{"too high", Config{CostLimit: MaxCostLimit + 1}, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewCompiler(tt.cfg)
			if (err != nil) != tt.wantErr {
				t.Fatalf("NewCompiler: %v, wantErr %v", err, tt.wantErr)
			}
			if err == nil && c.CostLimit() != tt.limit {
				t.Errorf("CostLimit = %d, want %d", c.CostLimit(), tt.limit)
			}
		})
	}
}
