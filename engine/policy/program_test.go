package policy

import (
	"context"
	"errors"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/go-cmp/cmp"
)

func TestMatch(t *testing.T) {
	const unencryptedProd = `resource.type == "aws_s3_bucket" && resource.tags["env"] == "prod" && !resource.attributes.encryption.enabled`
	const openSSH = `resource.attributes.ingress.exists(r, r.cidr == "0.0.0.0/0" && r.from_port <= 22 && r.to_port >= 22)`
	tests := []struct {
		name string
		expr string
		res  engine.Resource
		want bool
	}{
		{"unencrypted prod bucket", unencryptedProd, prodBucket, true},
		{"dev bucket", unencryptedProd, devBucket, false},
		{"encrypted prod bucket", unencryptedProd, encryptedBucket, false},
		{"not a bucket: && short-circuits", unencryptedProd, instance, false},
		{"ssh open to the world", openSSH, openSSHGroup, true},
		{"ssh only internal", openSSH, closedGroup, false},
		{"has() on a missing tag", `has(resource.tags.env) && resource.tags.env == "prod"`, untaggedBucket, false},
		{"in on tags", `"owner" in resource.tags`, prodBucket, true},
		{"optional tag", `resource.tags[?"env"].orValue("none") == "none"`, untaggedBucket, true},
		{"has() on attributes", `has(resource.attributes.public_ip)`, instance, true},
		{"has() on a missing attribute", `has(resource.attributes.public_ip)`, prodBucket, false},
		{"nested attribute string", `resource.attributes.imds.http_tokens != "required"`, instance, true},
		{"list all", `resource.attributes.volumes.all(v, v.encrypted)`, instance, false},
		{"list filter and sum", `resource.attributes.volumes.filter(v, !v.encrypted).size() == 1`, instance, true},
		{"int attribute", `resource.attributes.objects > 40000`, prodBucket, true},
		{"double attribute vs int", `resource.attributes.size_gb > 1000`, prodBucket, true},
		{"int attribute equals double", `resource.attributes.objects == 48211.0`, prodBucket, true},
		{"json null", `resource.attributes.encryption.algorithm == null`, devBucket, true},
		{"string functions", `resource.name.startsWith("billing") && resource.account.matches("^[0-9]{12}$")`, prodBucket, true},
		{"ext strings", `resource.region.upperAscii().split("-")[0] == "EU"`, prodBucket, true},
		{"fields", `resource.provider == "aws" && resource.native_id == "arn:api-1" && resource.id.startsWith("res_")`, instance, true},
		{"dyn result", `resource.attributes.versioning`, encryptedBucket, true},
		{"no attributes", `size(resource.attributes) == 0 && !has(resource.attributes.x)`, resource("aws_iam_user", "u", nil, ""), true},
		{"tags of an untagged resource", `size(resource.tags) == 0`, untaggedBucket, true},
		{"dyn object access", `dyn(resource).name == "api-1"`, instance, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prg := MustCompile(t, raisePolicy(tt.expr))
			got, err := match(t, prg, MustInput(t, tt.res))
			if err != nil {
				t.Fatalf("Match: %v", err)
			}
			if got != tt.want {
				t.Errorf("Match = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestMatchErrors(t *testing.T) {
	big := make([]any, 400)
	for i := range big {
		big[i] = int64(i)
	}
	bigInput := MustInput(t, instance)
	bigInput.Attributes = map[string]any{"ports": big}
	tests := []struct {
		name   string
		expr   string
		in     Input
		reason EvalReason
		msg    string
	}{
		{"missing tag key", `resource.tags["env"] == "prod"`, MustInput(t, untaggedBucket), ReasonRuntime, "no such key: env"},
		{"missing attribute", `resource.attributes.kms_key_id == ""`, MustInput(t, prodBucket), ReasonRuntime, "no such key: kms_key_id"},
		{"wrong attribute type", `resource.attributes.versioning + 1 > 0`, MustInput(t, prodBucket), ReasonRuntime, "no such overload: _+_"},
		{"dyn result is not bool", `resource.attributes.objects`, MustInput(t, prodBucket), ReasonNotBool, "expression evaluated to int, not a bool"},
		{"division by zero", `1 / (size(resource.tags) - 2) == 1`, MustInput(t, prodBucket), ReasonRuntime, "division by zero"},
		{"unknown severity", `severity_rank(resource.name) > 1`, MustInput(t, prodBucket), ReasonRuntime, `severity_rank: unknown severity "billing-exports"`},
		{"cost limit: nested comprehensions", `resource.attributes.ports.exists(a, resource.attributes.ports.exists(b, a + b == -1))`,
			bigInput, ReasonCostLimit, "cost limit of 10000 exceeded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := raisePolicy(tt.expr)
			prg := MustCompile(t, p)
			got, err := match(t, prg, tt.in)
			var ee *EvalError
			if !errors.As(err, &ee) {
				t.Fatalf("Match = %v, %v; want an *EvalError", got, err)
			}
			want := &EvalError{PolicyID: p.ID, ResourceID: tt.in.Resource.ID, Reason: tt.reason, Message: tt.msg}
			if diff := cmp.Diff(want, ee); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if got {
				t.Error("a failed evaluation matched")
			}
		})
	}
}

func TestMatchCostLimitIsConfigurable(t *testing.T) {
	expr := `resource.attributes.volumes.exists(v, v.size > 1000)`
	c, err := NewCompiler(Config{CostLimit: 1})
	if err != nil {
		t.Fatal(err)
	}
	prg, err := c.Compile(raisePolicy(expr))
	if err != nil {
		t.Fatal(err)
	}
	_, err = prg.Match(context.Background(), MustInput(t, instance))
	var ee *EvalError
	if !errors.As(err, &ee) || ee.Reason != ReasonCostLimit {
		t.Fatalf("Match with limit 1: %v, want cost_limit_exceeded", err)
	}
	if ok, err := match(t, MustCompile(t, raisePolicy(expr)), MustInput(t, instance)); ok || err != nil {
		t.Errorf("Match with the default limit = %v, %v; want false, nil", ok, err)
	}
}

func TestMatchCanceledContext(t *testing.T) {
	big := make([]any, 5000)
	for i := range big {
		big[i] = int64(i)
	}
	in := MustInput(t, instance)
	in.Attributes = map[string]any{"ports": big}
	c, err := NewCompiler(Config{CostLimit: MaxCostLimit})
	if err != nil {
		t.Fatal(err)
	}
	prg, err := c.Compile(raisePolicy(`resource.attributes.ports.exists(a, resource.attributes.ports.exists(b, a + b == -1))`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := prg.Match(ctx, in); !errors.Is(err, context.Canceled) {
		t.Errorf("Match = %v, want context.Canceled", err)
	}
}

func TestScope(t *testing.T) {
	p := raisePolicy(`true`)
	p.ResourceTypes = []string{"aws_s3_bucket", "aws_instance"}
	scoped := MustCompile(t, p)
	all := MustCompile(t, raisePolicy(`true`))
	tests := []struct {
		typ         string
		scoped, all bool
	}{
		{"aws_s3_bucket", true, true},
		{"aws_instance", true, true},
		{"aws_security_group", false, true},
		{"", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			got := []bool{scoped.Applies(tt.typ), all.Applies(tt.typ)}
			if diff := cmp.Diff([]bool{tt.scoped, tt.all}, got); diff != "" {
				t.Errorf("Applies scoped, all (-want +got):\n%s", diff)
			}
			in := Input{Resource: engine.Resource{Type: tt.typ}}
			if ok, err := match(t, scoped, in); ok != tt.scoped || err != nil {
				t.Errorf("Match = %v, %v; want %v, nil", ok, err, tt.scoped)
			}
		})
	}
}

func TestMatchSeverityPolicies(t *testing.T) {
	sec := &engine.Finding{RuleID: "aws-s3-public-acl", Severity: engine.SeverityMedium, Dimension: engine.DimensionSecurity, Status: engine.StatusOpen}
	cost := &engine.Finding{RuleID: "aws-ec2-idle", Severity: engine.SeverityLow, Dimension: engine.DimensionCost, Status: engine.StatusOpen}
	prodFinding := `resource.tags[?"env"].orValue("") == "prod"`
	tests := []struct {
		name      string
		expr      string
		dimension engine.Dimension
		res       engine.Resource
		finding   *engine.Finding
		want      bool
		wantErr   bool
	}{
		{"prod resource", prodFinding, "", prodBucket, sec, true, false},
		{"dev resource", prodFinding, "", devBucket, sec, false, false},
		{"finding fields", `finding.rule_id.startsWith("aws-s3") && finding.dimension == "security" && finding.status == "open"`, "", prodBucket, sec, true, false},
		{"severity rank", `severity_rank(finding.severity) < severity_rank("high")`, "", prodBucket, sec, true, false},
		{"dimension scope excludes", prodFinding, engine.DimensionSecurity, prodBucket, cost, false, false},
		{"dimension scope includes", prodFinding, engine.DimensionCost, prodBucket, cost, true, false},
		{"no finding given", prodFinding, "", prodBucket, nil, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := severityPolicy(engine.PolicySeverityAtLeast, engine.SeverityHigh, tt.expr)
			p.Dimension = tt.dimension
			in := MustInput(t, tt.res)
			in.Finding = tt.finding
			got, err := match(t, MustCompile(t, p), in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Match error = %v, wantErr %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("Match = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestMatchConcurrent shares one Program and one parsed Input between
// goroutines, as the audit runner does; run with -race.
func TestMatchConcurrent(t *testing.T) {
	prg := MustCompile(t, raisePolicy(`resource.attributes.ingress.exists(r, r.cidr == "0.0.0.0/0" && r.from_port <= 22 && r.to_port >= 22)`))
	inputs := []Input{MustInput(t, openSSHGroup), MustInput(t, closedGroup)}
	want := []bool{true, false}
	errs := make(chan error, 8)
	for g := range 8 {
		go func() {
			for i := range 200 {
				k := (g + i) % 2
				got, err := prg.Match(context.Background(), inputs[k])
				if err == nil && got != want[k] {
					err = errors.New("wrong answer under concurrency")
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
