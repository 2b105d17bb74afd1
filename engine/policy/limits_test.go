package policy

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// doubling is issue 28's expression: each level maps a one-element list
// with a + a, doubling the string; 24 levels are 479 bytes and 16 million
// times resource.name.
func doubling(levels int) string {
	e := "resource.name"
	for range levels {
		e = "[" + e + "].map(a, a + a)[0]"
	}
	return "size(" + e + ") > 0"
}

// namedResource is a resource whose name is n bytes, the most an import
// accepts being 1,024.
func namedResource(n int) Input {
	r := instance
	r.Name = strings.Repeat("n", n)
	return Input{Resource: r, Attributes: map[string]any{}}
}

// allocated runs f and returns the bytes it allocated.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestValidateRefusesExpressionsThatBuildTooMuch(t *testing.T) {
	if n := len(doubling(24)); n != 479 {
		t.Fatalf("the issue's expression is 479 bytes; built %d", n)
	}
	tests := []struct {
		name, expr, want string
	}{
		{"issue 28: 24 doublings", doubling(24),
			"expression: too large to evaluate: it can build a string of up to 2097152 characters, over the limit of 1048576 bytes"},
		{"11 doublings of the name", doubling(11),
			"expression: too large to evaluate: it can build a string of up to 2097152 characters, over the limit of 1048576 bytes"},
		{"list doubling", `size(` + strings.Repeat("[", 17) + "[1, 2]" + strings.Repeat("].map(l, l + l)[0]", 17) + `) > 0`,
			"expression: too large to evaluate: it can build a list of up to 262144 elements, over the limit of 131072"},
		{"three attributes", `string(resource.attributes.a) + string(resource.attributes.b) + string(resource.attributes.c) == ""`,
			"expression: too large to evaluate: it can build a string of up to 1572864 characters, over the limit of 1048576 bytes"},
		{"derived values", `resource.attributes.a.split(",")[0] + resource.name.lowerAscii().upperAscii() + resource.attributes.b.lowerAscii() == ""`,
			"expression: too large to evaluate: it can build a string of up to 1049600 characters, over the limit of 1048576 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(raisePolicy(tt.expr))
			var e *engine.Error
			if !errors.As(err, &e) || e.Code != engine.CodeValidationFailed || e.Field != "expression" || e.Message != tt.want {
				t.Fatalf("Validate = %v\nwant validation_failed on expression: %s", err, tt.want)
			}
			_, err = DryRun(context.Background(), raisePolicy(tt.expr), func(func(engine.Resource, error) bool) {}, 10)
			if !errors.As(err, &e) || e.Message != tt.want {
				t.Errorf("DryRun = %v, want the same refusal", err)
			}
		})
	}
}

// TestValidateAcceptsBoundedConcatenation is the clean twin: expressions
// that build strings from bounded inputs are accepted and evaluate.
func TestValidateAcceptsBoundedConcatenation(t *testing.T) {
	for _, expr := range []string{
		`resource.name + "-" + resource.region == "web-eu-west-1"`,
		doubling(9),
		`resource.tags.exists(k, k + "=" + resource.tags[k] == "env=prod")`,
		`resource.attributes.a + "x" != ""`,
		`resource.attributes.a + resource.attributes.b != ""`,
		`resource.attributes.a.split(",")[0] + "x" != ""`,
		`size(resource.attributes.ports + resource.attributes.more_ports) > 2`,
		`["a", "b"].exists(s, resource.name + s == "webb")`,
		`resource.name.lowerAscii() + resource.name.upperAscii() != ""`,
	} {
		if err := Validate(raisePolicy(expr)); err != nil {
			t.Errorf("Validate(%s) = %v, want nil", expr, err)
		}
	}
	ok, err := match(t, MustCompile(t, raisePolicy(doubling(9))), namedResource(1024))
	if !ok || err != nil {
		t.Errorf("9 doublings of a 1,024-byte name = %v, %v; want true, nil", ok, err)
	}
}

// TestMatchStopsBuildingAtTheSizeLimit evaluates policies stored before
// the write-time check (Compile does not refuse them): the evaluation
// stops with size_limit_exceeded, cheaply.
func TestMatchStopsBuildingAtTheSizeLimit(t *testing.T) {
	tests := []struct {
		name string
		expr string
		msg  string
	}{
		{"14 doublings", doubling(14), "a string built by the expression exceeds 1048576 bytes"},
		{"issue 28: 24 doublings", doubling(24), "a string built by the expression exceeds 1048576 bytes"},
		{"string error swallowed by ||", "(" + doubling(14) + ") || true", "a string built by the expression exceeds 1048576 bytes"},
		{"many strings under the value limit", `[` + strings.Repeat("0, ", 20) + `0].all(i, ` + doubling(9) + `)`,
			"the strings built by the expression exceed 16777216 bytes in all"},
		{"list doubling", `size(` + strings.Repeat("[", 21) + "[1]" + strings.Repeat("].map(l, l + l)[0]", 21) + `) > 0`,
			"a list built by the expression exceeds 131072 elements"},
	}
	in := namedResource(1024)
	for i, tt := range tests {
		passed := t.Run(tt.name, func(t *testing.T) {
			p := raisePolicy(tt.expr)
			prg := MustCompile(t, p)
			var (
				ok  bool
				err error
			)
			alloc := allocated(func() { ok, err = match(t, prg, in) })
			var ee *EvalError
			if !errors.As(err, &ee) || ee.Reason != ReasonSizeLimit || ee.Message != tt.msg || ee.PolicyID != p.ID {
				t.Fatalf("Match = %v, %v; want size_limit_exceeded: %s", ok, err, tt.msg)
			}
			if ok {
				t.Error("a refused evaluation matched")
			}
			// Two values near the limit are live at once, plus the
			// interpreter's own garbage.
			if alloc > 64<<20 {
				t.Errorf("the evaluation allocated %d MiB; want at most 64", alloc>>20)
			}
			t.Logf("allocated %d KiB", alloc>>10)
		})
		if i == 0 && !passed {
			// Without the limits, 24 doublings of a 1 KiB name need 16 GiB.
			t.Fatal("the shallow case failed: not running the deep ones")
		}
	}
}

// BenchmarkMatchDoubling measures issue 28's 24-level expression, stopped
// by the size limits: time and bytes allocated per evaluation.
func BenchmarkMatchDoubling(b *testing.B) {
	prg, err := Compile(raisePolicy(doubling(24)))
	if err != nil {
		b.Fatal(err)
	}
	in := namedResource(1024)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := prg.Match(context.Background(), in); err == nil {
			b.Fatal("the evaluation was not stopped")
		}
	}
}
