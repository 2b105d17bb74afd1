package policy

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// benchPolicies are ten realistic custom policies: seven raise policies and
// three severity policies (the figure the issue sets is 10 per audit).
var benchPolicies = []struct {
	effect engine.PolicyEffect
	types  []string
	expr   string
}{
	{engine.PolicyRaise, []string{"aws_s3_bucket"}, `resource.tags[?"env"].orValue("") == "prod" && !resource.attributes.encryption.enabled`},
	{engine.PolicyRaise, []string{"aws_security_group"}, `resource.attributes.ingress.exists(r, r.cidr == "0.0.0.0/0" && r.from_port <= 22 && r.to_port >= 22)`},
	{engine.PolicyRaise, nil, `!("owner" in resource.tags)`},
	{engine.PolicyRaise, []string{"aws_instance"}, `has(resource.attributes.imds) && resource.attributes.imds.http_tokens != "required"`},
	{engine.PolicyRaise, []string{"aws_instance"}, `resource.attributes.volumes.exists(v, !v.encrypted && v.size >= 100)`},
	{engine.PolicyRaise, nil, `resource.region.startsWith("us-") && resource.tags[?"data"].orValue("") == "pii"`},
	{engine.PolicyRaise, []string{"aws_instance", "aws_s3_bucket"}, `resource.tags[?"cost_center"].orValue("").matches("^[0-9]{4}$") == false`},
	{engine.PolicySeverityAtLeast, nil, `resource.tags[?"env"].orValue("") == "prod"`},
	{engine.PolicySeverityAtMost, nil, `resource.tags[?"env"].orValue("") in ["sandbox", "dev"] && finding.dimension != "compliance"`},
	{engine.PolicySeverityAtLeast, nil, `severity_rank(finding.severity) >= 3 && resource.attributes[?"public_ip"].hasValue()`},
}

func benchPrograms(b *testing.B) []*Program {
	b.Helper()
	prgs := make([]*Program, len(benchPolicies))
	for i, bp := range benchPolicies {
		p := raisePolicy(bp.expr)
		p.ID = fmt.Sprintf("pol_%026d", i)
		p.Effect, p.ResourceTypes = bp.effect, bp.types
		if bp.effect != engine.PolicyRaise {
			p.Dimension, p.Severity = "", engine.SeverityHigh
		}
		prgs[i] = MustCompile(b, p)
	}
	return prgs
}

// benchInventory is n resources cycling through buckets, security groups
// and instances with realistic attribute documents (200–500 bytes).
func benchInventory(n int) []engine.Resource {
	envs := []string{"prod", "dev", "staging", "sandbox"}
	rs := make([]engine.Resource, n)
	for i := range rs {
		tags := map[string]string{"env": envs[i%4], "team": "core"}
		if i%3 != 0 {
			tags["owner"] = "team-" + fmt.Sprint(i%17)
		}
		if i%5 == 0 {
			tags["cost_center"] = "12a4"
		}
		var typ, attrs string
		switch i % 3 {
		case 0:
			typ = "aws_s3_bucket"
			attrs = fmt.Sprintf(`{"encryption":{"enabled":%v,"algorithm":"aws:kms"},"versioning":true,"public_access_block":{"block_public_acls":true,"ignore_public_acls":true},"objects":%d,"size_gb":%d.5,"lifecycle_rules":[{"id":"expire","days":90}]}`, i%2 == 0, i*7, i%1000)
		case 1:
			typ = "aws_security_group"
			attrs = fmt.Sprintf(`{"vpc_id":"vpc-%d","ingress":[{"protocol":"tcp","from_port":443,"to_port":443,"cidr":"0.0.0.0/0"},{"protocol":"tcp","from_port":%d,"to_port":%d,"cidr":"%s"},{"protocol":"udp","from_port":53,"to_port":53,"cidr":"10.0.0.0/8"}],"egress":[{"protocol":"-1","cidr":"0.0.0.0/0"}]}`, i%50, 22, 22+i%3, []string{"10.0.0.0/8", "0.0.0.0/0"}[i%2])
		default:
			typ = "aws_instance"
			attrs = fmt.Sprintf(`{"instance_type":"m5.large","imds":{"http_tokens":"%s"},"public_ip":"54.1.%d.%d","volumes":[{"size":%d,"encrypted":true},{"size":500,"encrypted":%v}],"ami":"ami-0abc","monitoring":false}`, []string{"required", "optional"}[i%2], i%250, i%200, 8+i%100, i%4 == 0)
		}
		r := resource(typ, fmt.Sprintf("res-%d", i), tags, attrs)
		r.Region = []string{"eu-west-1", "us-east-1", "us-west-2"}[i%3]
		rs[i] = r
	}
	return rs
}

// BenchmarkAudit10Policies is the audit's inner loop: per resource, parse
// the attributes once, evaluate the raise policies in scope and raise
// findings, and run the severity policies over one built-in finding.
func BenchmarkAudit10Policies(b *testing.B) {
	prgs := benchPrograms(b)
	rs := benchInventory(3000)
	builtin := engine.Finding{RuleID: "aws-s3-public", Severity: engine.SeverityMedium, Dimension: engine.DimensionSecurity}
	ctx := context.Background()
	now := time.Now()
	var matched, errs int
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		r := &rs[n%len(rs)]
		n++
		attrs, err := ParseAttributes(r.Attributes)
		if err != nil {
			b.Fatal(err)
		}
		in := Input{Resource: *r, Attributes: attrs, Tags: r.Tags.Map(), Finding: &builtin}
		for _, p := range prgs {
			if !p.Applies(r.Type) {
				continue
			}
			ok, err := p.Match(ctx, in)
			switch {
			case err != nil:
				errs++
			case ok && p.Policy().Effect == engine.PolicyRaise:
				_ = p.Finding(*r, now)
				matched++
			case ok:
				_, _ = p.AdjustSeverity(builtin)
				matched++
			}
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "resources/s")
	if n > len(rs) && (matched == 0 || errs > 0) {
		b.Fatalf("matched %d, errors %d: the benchmark policies should match some resources and never fail", matched, errs)
	}
}

// BenchmarkParseAttributes is the per-resource cost shared by all policies.
func BenchmarkParseAttributes(b *testing.B) {
	rs := benchInventory(3)
	for _, r := range rs {
		b.Run(r.Type, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(r.Attributes)))
			for b.Loop() {
				if _, err := ParseAttributes(r.Attributes); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkMatch is the cost of one evaluation, per policy, on a resource
// in the policy's scope with pre-parsed attributes.
func BenchmarkMatch(b *testing.B) {
	prgs := benchPrograms(b)
	rs := benchInventory(3)
	builtin := engine.Finding{Severity: engine.SeverityHigh, Dimension: engine.DimensionSecurity}
	for i, p := range prgs {
		var in Input
		for _, r := range rs {
			if p.Applies(r.Type) {
				attrs, _ := ParseAttributes(r.Attributes)
				in = Input{Resource: r, Attributes: attrs, Tags: r.Tags.Map(), Finding: &builtin}
				break
			}
		}
		b.Run(fmt.Sprintf("policy%d", i), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Match(context.Background(), in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCompile is the once-per-audit cost of compiling a policy.
func BenchmarkCompile(b *testing.B) {
	p := raisePolicy(benchPolicies[1].expr)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile(p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFinding is the cost of raising one finding.
func BenchmarkFinding(b *testing.B) {
	p := raisePolicy(`true`)
	p.Title = "Bucket {{resource.name}} in {{resource.region}}"
	prg := MustCompile(b, p)
	b.ReportAllocs()
	now := time.Now()
	for b.Loop() {
		f := prg.Finding(prodBucket, now)
		if f.ID == "" {
			b.Fatal("no id")
		}
	}
}
