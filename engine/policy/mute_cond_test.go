package policy

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
)

// TestMuteCondition: which mute expressions become a condition the store
// applies itself, and what they become. Everything else (text, lists,
// tags, attributes, functions, comparisons of two fields, ordering) stays
// with CEL. That the two agree on data is TestMuteConditionAgreesWithCEL
// (store/clickhouse).
func TestMuteCondition(t *testing.T) {
	c, err := NewCompiler(Config{})
	if err != nil {
		t.Fatal(err)
	}
	eq := func(f engine.MuteField, v string) engine.MuteCond {
		return engine.MuteCond{Op: engine.MuteEq, Field: f, Values: []string{v}}
	}
	for _, tc := range []struct {
		expr string
		want engine.MuteCond
	}{
		{`finding.rule_id == "r1"`, eq(engine.MuteRuleID, "r1")},
		{`"high" == finding.severity`, eq(engine.MuteSeverity, "high")},
		{`resource.account != "1"`, engine.MuteCond{Op: engine.MuteNot, Args: []engine.MuteCond{eq(engine.MuteAccount, "1")}}},
		{`resource.region in ["a", "b"] && resource.type == "t" && resource.provider == "aws"`, engine.MuteCond{Op: engine.MuteAnd,
			Args: []engine.MuteCond{{Op: engine.MuteIn, Field: engine.MuteRegion, Values: []string{"a", "b"}},
				eq(engine.MuteResourceType, "t"), eq(engine.MuteProvider, "aws")}}},
		{`!(finding.dimension == "cost") || resource.id in [] || false`, engine.MuteCond{Op: engine.MuteOr,
			Args: []engine.MuteCond{{Op: engine.MuteNot, Args: []engine.MuteCond{eq(engine.MuteDimension, "cost")}},
				{Op: engine.MuteIn, Field: engine.MuteResourceID, Values: []string{}}, {Op: engine.MuteFalse}}}},
		{`true`, engine.MuteCond{Op: engine.MuteTrue}},
	} {
		m, err := c.CompileMute(tc.expr)
		if err != nil {
			t.Fatalf("%s: %v", tc.expr, err)
		}
		got, ok := m.Condition()
		if !ok {
			t.Errorf("%s: not translated", tc.expr)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.expr, diff)
		}
	}
	for _, expr := range []string{
		`finding.title == "x"`,
		`"CIS-AWS-4.0.1:2.1.1" in finding.compliance`,
		`resource.tags["env"] == "prod"`,
		`resource.name == "x"`,
		`resource.attributes.encrypted == false`,
		`finding.rule_id.startsWith("r")`,
		`finding.severity == finding.dimension`,
		`finding.severity < "m"`,
		`finding.status == "open"`,
		`finding.id == "x"`,
		`finding.rule_id == "a" && resource.name == "b"`,
		`finding.rule_id in ["a", finding.dimension]`,
		`finding.rule_id == "a" ? true : false`,
		`size(finding.rule_id) > 2`,
	} {
		m, err := c.CompileMute(expr)
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		if got, ok := m.Condition(); ok {
			t.Errorf("%s translated to %+v", expr, got)
		}
	}
}
