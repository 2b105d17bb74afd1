package clickhouse

import (
	"cmp"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// The batch sort must give exactly what a comparison sort of the full keys
// gives: ids that share their first bytes (all of sortKey's) force long runs
// of equal packed keys, and the bytes behind them decide, in both orders
// a batch is sent in.
func TestSortByMatchesComparisonSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 100, 5000} {
		for _, alphabet := range []string{"a", "ab", "abcdefghijklmnopqrstuvwxyz0123456789"} {
			b := &findingBatch{}
			hashes := make([]uint64, n)
			for i := range n {
				var id [idBytesLen]byte
				for k := range id {
					id[k] = alphabet[r.IntN(len(alphabet))]
				}
				b.id = append(b.id, id)
				b.sevOrder = append(b.sevOrder, uint8(r.IntN(len(alphabet))%5))
				hashes[i] = r.Uint64N(uint64(len(alphabet)) * 3)
			}
			order := make([]sortEntry, n)
			tmp := make([]sortEntry, n)
			for i := range order {
				order[i] = sortEntry{key: b.key(i), row: int32(i)}
			}
			got := sortBy(order, tmp, b.compareFindings)
			want := rowsSorted(n, b.compareFindings)
			if !slices.Equal(rowsOf(got), want) {
				t.Fatalf("n=%d alphabet=%q: finding order %v, want %v", n, alphabet, rowsOf(got), want)
			}
			for i := range got {
				got[i].key = hashes[got[i].row]
			}
			other := tmp
			if n > 0 && &got[0] == &tmp[0] {
				other = order
			}
			got = sortBy(got, other, b.compareResources(hashes))
			if want := rowsSorted(n, b.compareResources(hashes)); !slices.Equal(rowsOf(got), want) {
				t.Fatalf("n=%d alphabet=%q: resource order %v, want %v", n, alphabet, rowsOf(got), want)
			}
		}
	}
}

func rowsOf(order []sortEntry) []int32 {
	out := make([]int32, len(order))
	for i, e := range order {
		out[i] = e.row
	}
	return out
}

// rowsSorted is the rows 0..n-1 sorted by c, ties by row number (the
// batch's own order, which a stable sort keeps).
func rowsSorted(n int, c func(a, b int32) int) []int32 {
	rows := make([]int32, n)
	for i := range rows {
		rows[i] = int32(i)
	}
	slices.SortFunc(rows, func(a, b int32) int {
		if x := c(a, b); x != 0 {
			return x
		}
		return cmp.Compare(a, b)
	})
	return rows
}

func TestStringDict(t *testing.T) {
	var d stringDict
	for i, s := range []string{"a", "a", "b", "a", "", "b", ""} {
		c := d.code(s)
		if d.values[c] != s {
			t.Fatalf("value %d: code %d decodes to %q, want %q", i, c, d.values[c], s)
		}
	}
	if !slices.Equal(d.values, []string{"a", "b", ""}) {
		t.Fatalf("values %q, want a, b and the empty string once each", d.values)
	}
}

// A byte column gives back each value as added, empty ones included, and
// after a reset holds only what is added next.
func TestByteColumn(t *testing.T) {
	var c byteColumn
	for range 2 {
		values := []string{"fnd_a", "", `{"k":"v"}`, "", "x"}
		for i, v := range values {
			if i%2 == 0 {
				c.add(v)
			} else {
				c.addBytes([]byte(v))
			}
		}
		if len(c.end) != len(values) {
			t.Fatalf("%d values, want %d", len(c.end), len(values))
		}
		for i, v := range values {
			if got := string(c.at(i)); got != v {
				t.Fatalf("value %d = %q, want %q", i, got, v)
			}
		}
		// A value cannot grow into its neighbour through append.
		if got := cap(c.at(0)); got != len("fnd_a") {
			t.Fatalf("cap of value 0 = %d, want %d", got, len("fnd_a"))
		}
		c.reset()
	}
}

// BenchmarkGatherSorted is the sorted gather of a batch's string columns at
// send time: 30-byte ids read in a random order from a batch of 100k and of
// 500k rows, to measure what a larger batch costs a value once its columns
// outgrow the caches (session 8 in `git show 77779a1^:docs/benchmarks.md`).
func BenchmarkGatherSorted(b *testing.B) {
	for _, n := range []int{100_000, 500_000} {
		var col byteColumn
		r := rand.New(rand.NewPCG(1, 2))
		for range n {
			col.add(fmt.Sprintf("fnd_%026x", r.Uint64()))
		}
		order := make([]sortEntry, n)
		for i := range order {
			order[i] = sortEntry{key: r.Uint64(), row: int32(i)}
		}
		order = radixSort(order, make([]sortEntry, n))
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dst := make([]byte, 0, len(col.data))
			for b.Loop() {
				dst = dst[:0]
				for _, e := range order {
					dst = append(dst, col.at(int(e.row))...)
				}
			}
			if len(dst) != len(col.data) {
				b.Fatalf("gathered %d bytes, want %d", len(dst), len(col.data))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/value")
		})
	}
}

// The buckets of a run, each sorted and sent after the one before, are the
// whole run in the table's order (sev_order, then id): the server finds
// the run's part sorted. The first run sets the buckets' ranges, which
// split the later runs about evenly, with a severity skew like an audit's.
func TestRunBucketsFollowTableOrder(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	r := rand.New(rand.NewPCG(3, 4))
	skew := []engine.Severity{engine.SeverityCritical, engine.SeverityHigh, engine.SeverityHigh,
		engine.SeverityMedium, engine.SeverityMedium, engine.SeverityMedium, engine.SeverityLow, engine.SeverityInfo}
	finding := func() engine.Finding {
		res := engine.ResourceID("ten_a", "aws", fmt.Sprint("arn:", r.Uint64()))
		rule := fmt.Sprint("rule-", r.IntN(60))
		return engine.Finding{ID: engine.FindingID("ten_a", rule, res), ResourceID: res, RuleID: rule,
			Severity: skew[r.IntN(len(skew))], Dimension: engine.Dimensions[r.IntN(len(engine.Dimensions))],
			Status: engine.StatusOpen, Provider: "aws", Account: "123456789012", Region: "eu-west-1",
			ResourceType: "aws_s3_bucket", FirstSeenAt: now, LastSeenAt: now}
	}
	app := &batchAppender{dicts: new(snapshotDicts)}
	fill := func(run *findingRun, n int) {
		for range n {
			f := finding()
			if _, _, err := app.add(run, &f); err != nil {
				t.Fatal(err)
			}
		}
	}
	first := mustNewFindingRun(t, nil)
	fill(first, 2000)
	splitters := first.learnSplitters()
	if len(splitters) != runBuckets-1 {
		t.Fatalf("splitters %x, want %d", splitters, runBuckets-1)
	}
	run := mustNewFindingRun(t, splitters)
	const n = 20000
	fill(run, n)
	type row struct {
		sevOrder uint8
		id       string
	}
	var sent []row
	for i, b := range run.buckets {
		if b.len() < n/runBuckets/2 || b.len() > 2*n/runBuckets {
			t.Errorf("bucket %d holds %d of %d findings", i, b.len(), n)
		}
		order := make([]sortEntry, b.len())
		for j := range order {
			order[j] = sortEntry{key: b.key(j), row: int32(j)}
		}
		for _, e := range sortBy(order, make([]sortEntry, len(order)), b.compareFindings) {
			sent = append(sent, row{b.sevOrder[e.row], string(b.id[e.row][:])})
		}
	}
	if len(sent) != n {
		t.Fatalf("sent %d rows, want %d", len(sent), n)
	}
	if !slices.IsSortedFunc(sent, func(a, b row) int {
		return cmp.Or(cmp.Compare(a.sevOrder, b.sevOrder), cmp.Compare(a.id, b.id))
	}) {
		t.Error("the run's buckets, each sorted, are not in the table's order one after the other")
	}
	// Too few findings to tell: the next runs stay whole.
	small := mustNewFindingRun(t, nil)
	fill(small, 10)
	if got := small.learnSplitters(); got != nil {
		t.Errorf("splitters from 10 findings: %x, want none", got)
	}
}

func mustNewFindingRun(t *testing.T, splitters []uint64) *findingRun {
	t.Helper()
	r, err := newFindingRun(splitters, newBucket)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// BenchmarkAppendFindings is the client's per-finding work before a send:
// validating a finding into its bucket and counting it, over a synthetic
// snapshot shaped like the loadgen's (100 rules, 10 types, 12 accounts, 5
// regions; each resource's strings its own) in the two orders findings
// come in: a rule over every resource (loadgen) and every rule over one
// resource (an audit).
func BenchmarkAppendFindings(b *testing.B) {
	const resources, rules = 2000, 100
	type res struct{ id, typ, acct, region string }
	rs := make([]res, resources)
	for i := range rs {
		rs[i] = res{engine.ResourceID("t1", "aws", fmt.Sprint("arn:", i)), fmt.Sprintf("aws_type_%d", i%10),
			fmt.Sprintf("%012d", 100000000000+uint64(i%12)*7919), fmt.Sprintf("eu-region-%d", (i/12)%5)}
	}
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	titles := make([]string, rules)
	for i := range titles {
		titles[i] = fmt.Sprintf("Rule %d's title", i)
	}
	evidence := []byte(`{"synthetic":true}`)
	finding := func(rule, resource int) engine.Finding {
		r := &rs[resource]
		ruleID := fmt.Sprintf("rule.%03d", rule)
		return engine.Finding{ID: engine.FindingID("t1", ruleID, r.id), ResourceID: r.id, RuleID: ruleID,
			Severity: engine.Severities[(rule+resource)%5], Dimension: engine.Dimensions[(rule*7+resource)%4],
			Status: engine.StatusOpen, Title: titles[rule], Description: "d", Remediation: "r", Evidence: evidence,
			Compliance: []string{}, Provider: "aws", Account: r.acct, Region: r.region, ResourceType: r.typ,
			FirstSeenAt: now, LastSeenAt: now}
	}
	for _, order := range []string{"rule-major", "resource-major"} {
		fs := make([]engine.Finding, 0, resources*rules)
		if order == "rule-major" {
			for rule := range rules {
				for res := range resources {
					fs = append(fs, finding(rule, res))
				}
			}
		} else {
			for res := range resources {
				for rule := range rules {
					fs = append(fs, finding(rule, res))
				}
			}
		}
		// rule ids shared by a rule's findings, as a rule pack's are
		ruleIDs := map[string]string{}
		for i := range fs {
			if id, ok := ruleIDs[fs[i].RuleID]; ok {
				fs[i].RuleID = id
			} else {
				ruleIDs[fs[i].RuleID] = fs[i].RuleID
			}
		}
		b.Run(order, func(b *testing.B) {
			app := &batchAppender{dicts: new(snapshotDicts)}
			counts := newSnapshotCounts(maxCountGroups)
			counts.dicts = app.dicts
			run := &findingRun{buckets: []*findingBatch{new(findingBatch)}}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if i%len(fs) == 0 {
					run.buckets[0].reset()
				}
				_, cc, err := app.add(run, &fs[i%len(fs)])
				if err != nil {
					b.Fatal(err)
				}
				counts.add(cc)
			}
		})
	}
}

// The counts keep every group apart whether its codes pack into one
// integer or not, and give up at their bound as before.
func TestSnapshotCountsPackedAndWide(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	code := func(bits int) uint32 {
		if r.IntN(8) == 0 { // too large to pack, now and then
			return 1<<bits + uint32(r.IntN(3))
		}
		return uint32(r.IntN(1 << bits))
	}
	want := map[countCodes]uint64{}
	c := newSnapshotCounts(1 << 20)
	packed := 0
	for range 20000 {
		k := countCodes{severity: int8(1 + r.IntN(5)), dimension: int8(1 + r.IntN(4)), status: int8(1 + r.IntN(2)),
			rule: code(packRuleBits), resourceType: code(packTypeBits), account: code(packAccountBits), region: code(packRegionBits)}
		if r.IntN(2) == 0 { // a few groups, many times
			k.rule, k.resourceType, k.account, k.region = k.rule%3, k.resourceType%2, 7, 1<<packRegionBits-1
		}
		if p, ok := k.pack(); ok {
			packed++
			if unpackCounts(p) != k {
				t.Fatalf("unpack(pack(%+v)) = %+v", k, unpackCounts(p))
			}
		}
		want[k]++
		c.add(k)
	}
	if packed == 0 || packed == 20000 {
		t.Fatalf("%d of 20000 groups packed: the test covers one kind only", packed)
	}
	got := map[countCodes]uint64{}
	if err := c.each(func(k countCodes, n uint64) error { got[k] += n; return nil }); err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(got, want) {
		t.Fatalf("counts differ: %d groups, want %d", len(got), len(want))
	}

	small := newSnapshotCounts(2)
	small.add(countCodes{severity: 1, dimension: 1, status: 1})
	small.add(countCodes{severity: 1, dimension: 1, status: 1, rule: 1 << packRuleBits}) // wide
	small.add(countCodes{severity: 1, dimension: 1, status: 1})
	if small.overflow {
		t.Fatal("two groups overflowed a bound of two")
	}
	small.add(countCodes{severity: 2, dimension: 1, status: 1})
	if !small.overflow {
		t.Fatal("a third group did not overflow a bound of two")
	}
}

// Values that share a dictionary slot (same length, same first and last
// eight bytes) still get their own codes.
func TestStringDictCodes(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var d stringDict
	want := map[string]uint32{}
	var values []string
	for i := range 300 {
		values = append(values, fmt.Sprintf("arn:aws:%03d:tail0000", i), fmt.Sprint(i), "")
	}
	for range 20000 {
		s := values[r.IntN(len(values))]
		s = string([]byte(s)) // its own bytes, as decoded values have
		c := d.code(s)
		if w, ok := want[s]; ok && w != c {
			t.Fatalf("code(%q) = %d, then %d", s, w, c)
		}
		want[s] = c
		if d.values[c] != s {
			t.Fatalf("values[code(%q)] = %q", s, d.values[c])
		}
	}
	if len(d.values) != len(want) {
		t.Fatalf("%d values for %d distinct strings", len(d.values), len(want))
	}
}

// Evidence equal to the last valid one skips validation; anything else
// is validated.
func TestAppenderValidEvidence(t *testing.T) {
	a := &batchAppender{}
	for _, c := range []struct {
		e    string
		want bool
	}{{"", true}, {`{"a":1}`, true}, {`{"a":1}`, true}, {`{"a":1`, false}, {`{"a":1}`, true}, {`[`, false}, {`[]`, true}} {
		if got := a.validEvidence([]byte(c.e)); got != c.want {
			t.Errorf("validEvidence(%q) = %v, want %v", c.e, got, c.want)
		}
	}
}

// BenchmarkSortBy is a sender's two sorts of one 100k-row bucket: the
// finding order (sev_order, then the id's hash bytes) and the resource
// order (the rows' resource hashes), as sendBucket does them.
func BenchmarkSortBy(b *testing.B) {
	const n = 100_000
	r := rand.New(rand.NewPCG(5, 6))
	batch := &findingBatch{}
	hashes := make([]uint64, n)
	for i := range n {
		var id [idBytesLen]byte
		for k := range id {
			id[k] = byte(r.Uint32())
		}
		batch.id = append(batch.id, id)
		batch.sevOrder = append(batch.sevOrder, uint8(2+r.IntN(2))) // a middle bucket: two severities
		hashes[i] = r.Uint64()
	}
	order, tmp := make([]sortEntry, n), make([]sortEntry, n)
	for b.Loop() {
		for i := range order {
			order[i] = sortEntry{key: batch.key(i), row: int32(i)}
		}
		got := sortBy(order, tmp, batch.compareFindings)
		other := tmp
		if &got[0] == &tmp[0] {
			other = order
		}
		for i := range got {
			got[i].key = hashes[got[i].row]
		}
		sortBy(got, other, batch.compareResources(hashes))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/row")
}
