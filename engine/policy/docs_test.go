package policy

import (
	"errors"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// TestDocExamples keeps docs/policies.md honest: its examples compile and
// its cost figures hold.
func TestDocExamples(t *testing.T) {
	tests := []struct {
		name   string
		effect engine.PolicyEffect
		expr   string
	}{
		{"unencrypted prod buckets", engine.PolicyRaise, `resource.tags[?"env"].orValue("") == "prod" && !resource.attributes.encryption.enabled`},
		{"ssh", engine.PolicyRaise, `resource.attributes.ingress.exists(r, r.cidr == "0.0.0.0/0" && r.from_port <= 22 && r.to_port >= 22)`},
		{"prod at least high", engine.PolicySeverityAtLeast, `resource.tags[?"env"].orValue("") == "prod"`},
		{"sandboxes", engine.PolicySeverityAtMost, `resource.account == "210987654321" && finding.dimension in ["cost", "architecture"]`},
		{"has tag", engine.PolicyRaise, `has(resource.tags.env) && resource.tags.env == "prod"`},
		{"in tags", engine.PolicyRaise, `"env" in resource.tags && resource.tags["env"] == "prod"`},
		{"has attribute", engine.PolicyRaise, `has(resource.attributes.encryption) && !resource.attributes.encryption.enabled`},
		{"severity rank", engine.PolicySeverityAtLeast, `severity_rank(finding.severity) >= severity_rank("high")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := raisePolicy(tt.expr)
			if tt.effect != engine.PolicyRaise {
				p = severityPolicy(tt.effect, engine.SeverityHigh, tt.expr)
			}
			MustCompile(t, p)
		})
	}
}

func TestDocCostFigures(t *testing.T) {
	list := func(n int) []any {
		l := make([]any, n)
		for i := range l {
			l[i] = int64(i)
		}
		return l
	}
	tests := []struct {
		name     string
		expr     string
		x, y     int
		exceeded bool
	}{
		{"nested 200 x 200 costs 40,200", `resource.attributes.x.exists(a, resource.attributes.y.exists(b, a + b < 0))`, 200, 200, true},
		{"nested 99 x 99 costs 9,900", `resource.attributes.x.exists(a, resource.attributes.y.exists(b, a + b < 0))`, 99, 99, false},
		{"one loop over 5,000 fits", `resource.attributes.x.exists(a, a < 0)`, 5000, 0, false},
		{"one loop over 10,001 does not", `resource.attributes.x.exists(a, a < 0)`, 10001, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := MustInput(t, instance)
			in.Attributes = map[string]any{"x": list(tt.x), "y": list(tt.y)}
			_, err := match(t, MustCompile(t, raisePolicy(tt.expr)), in)
			var ee *EvalError
			got := errors.As(err, &ee) && ee.Reason == ReasonCostLimit
			if got != tt.exceeded || (!got && err != nil) {
				t.Errorf("Match error = %v, want cost limit exceeded: %v", err, tt.exceeded)
			}
		})
	}
}
