package rules

import (
	"os"
	"runtime"
	"slices"
	"sort"
	"syscall"
	"testing"

	"github.com/fourd-dev/fourd/internal/jsonvalid"
)

// The presence scan's skipper, measured (issue 29 §4): the scan walks the
// top-level keys of a resource's canonical attributes. Candidates: the
// trusted walk (jsonvalid.Members, the one skipper of engine/rules and
// engine/inventory), the validating jsonvalid.Skip, and the package's own
// skipper before they were merged (presenceScanBefore, kept here only as
// the reference of the figure).

// presenceAttrs are the attributes of every sample inventory's resources.
func presenceAttrs(t testing.TB) [][]byte {
	var out [][]byte
	for _, f := range sampleFiles {
		for _, r := range loadSample(t, f) {
			out = append(out, r.Attributes)
		}
	}
	return out
}

// presenceScanJV is the presence scan stepping over values with the
// validating jsonvalid.Skip.
func presenceScanJV(b []byte, fn func(name, value []byte) bool) {
	i := jsonvalid.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return
	}
	i++
	for {
		i = jsonvalid.SkipSpace(b, i)
		if i >= len(b) || b[i] != '"' {
			return
		}
		end, ok := jsonvalid.Skip(b, i)
		if !ok {
			return
		}
		if raw := b[i:end]; len(raw) >= 2 && !slices.Contains(raw, '\\') {
			if !fn(raw[1:len(raw)-1], nil) {
				return
			}
		}
		i = jsonvalid.SkipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return
		}
		if i, ok = jsonvalid.Skip(b, i+1); !ok {
			return
		}
		i = jsonvalid.SkipSpace(b, i)
		if i >= len(b) || b[i] != ',' {
			return
		}
		i++
	}
}

// presenceScanBefore is engine/rules' own scan before the merge.
func presenceScanBefore(b []byte, fn func(name, value []byte) bool) {
	i := jsonvalid.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return
	}
	i++
	for {
		i = jsonvalid.SkipSpace(b, i)
		if i >= len(b) || b[i] != '"' {
			return
		}
		end := beforeSkipString(b, i)
		if raw := b[i:end]; len(raw) >= 2 && !slices.Contains(raw, '\\') {
			if !fn(raw[1:len(raw)-1], nil) {
				return
			}
		}
		i = jsonvalid.SkipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return
		}
		i = jsonvalid.SkipSpace(b, beforeSkipValue(b, jsonvalid.SkipSpace(b, i+1)))
		if i >= len(b) || b[i] != ',' {
			return
		}
		i++
	}
}

func beforeSkipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

func beforeSkipValue(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			i = beforeSkipString(b, i)
			if depth == 0 {
				return i
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth <= 0 {
				return i + 1
			}
		case ',':
			if depth == 0 {
				return i
			}
		}
		i++
	}
	return i
}

var presenceScans = []struct {
	name string
	scan func([]byte, func(name, value []byte) bool)
}{{"members", eachTopLevelKey}, {"jsonvalid_skip", presenceScanJV}, {"before", presenceScanBefore}}

// BenchmarkPresenceScan walks the top-level keys of every sample
// resource's attributes with each candidate.
func BenchmarkPresenceScan(b *testing.B) {
	attrs := presenceAttrs(b)
	size := 0
	for _, a := range attrs {
		size += len(a)
	}
	for _, c := range presenceScans {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			keys := 0
			for b.Loop() {
				for _, a := range attrs {
					c.scan(a, func(_, _ []byte) bool { keys++; return true })
				}
			}
		})
	}
}

// TestPresenceScanCost compares the candidates interleaved, round by
// round, in thread CPU time (a shared machine's wall clock says little):
// FOURD_PRESENCE_ROUNDS=200 go test ./engine/rules -run TestPresenceScanCost -v.
// Every candidate must find the same keys.
func TestPresenceScanCost(t *testing.T) {
	attrs := presenceAttrs(t)
	for _, a := range attrs {
		var want []string
		eachTopLevelKey(a, func(n, _ []byte) bool { want = append(want, string(n)); return true })
		for _, c := range presenceScans {
			var got []string
			c.scan(a, func(n, _ []byte) bool { got = append(got, string(n)); return true })
			if !slices.Equal(got, want) && !slices.Contains(a, '\\') {
				t.Fatalf("%s finds %q in %s, members %q", c.name, got, a, want)
			}
		}
	}
	rounds := 0
	if n, err := parseRounds(os.Getenv("FOURD_PRESENCE_ROUNDS")); err == nil {
		rounds = n
	}
	if rounds == 0 {
		t.Skip("set FOURD_PRESENCE_ROUNDS to measure")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu := func() int64 {
		var ru syscall.Rusage
		_ = syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru)
		return ru.Utime.Nano() + ru.Stime.Nano()
	}
	costs := make([][]float64, len(presenceScans))
	keys := 0
	for r := range rounds {
		for j := range presenceScans {
			k := (j + r) % len(presenceScans) // each candidate first in turn
			c := presenceScans[k]
			start := cpu()
			for range 200 {
				for _, a := range attrs {
					c.scan(a, func(_, _ []byte) bool { keys++; return true })
				}
			}
			costs[k] = append(costs[k], float64(cpu()-start)/200)
		}
	}
	median := func(x []float64) float64 { s := slices.Clone(x); sort.Float64s(s); return s[len(s)/2] }
	base := median(costs[0])
	for k, c := range presenceScans {
		t.Logf("%-15s %8.0f ns CPU per scan of the samples (median of %d rounds), %.3f× members", c.name, median(costs[k]), rounds, median(costs[k])/base)
	}
}

func parseRounds(s string) (int, error) {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, os.ErrInvalid
		}
		n = n*10 + int(c-'0')
	}
	return n, nil
}
