package clickhouse_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/inventory"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// sampleResources decodes n resources of the sample estate
// (testdata/inventory/fourd.ndjson) replicated with unique native ids, as
// scripts/gen-inventory.sh makes the import's bench inventory: each
// resource's strings lie in its decoded line, as in an import.
func sampleResources(t testing.TB, tenantID string, n int) []engine.Resource {
	t.Helper()
	sample, err := os.ReadFile("../../testdata/inventory/fourd.ndjson")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(sample), []byte("\n"))
	var in bytes.Buffer
	for i := range n {
		l := lines[i%len(lines)]
		at := bytes.Index(l, []byte(`"native_id":"`)) + len(`"native_id":"`)
		end := at + bytes.IndexByte(l[at:], '"')
		in.Write(l[:end])
		in.WriteString("#" + strconv.Itoa(i))
		in.Write(l[end:])
		in.WriteByte('\n')
	}
	d := inventory.NewNDJSONDecoder(&in)
	rs := make([]engine.Resource, 0, n)
	for {
		r, err := d.Next()
		if err != nil {
			break
		}
		r.ID = engine.ResourceID(tenantID, r.Provider, r.NativeID)
		rs = append(rs, r)
	}
	if len(rs) != n {
		t.Fatalf("decoded %d resources of %d", len(rs), n)
	}
	return rs
}

// BenchmarkAppendWholeRows is an inserter's client work for one batch of
// a first import (10,000 resources of the sample estate, in key order)
// appended to an open INSERT into resources, without sending it: what the
// bulk path's appends cost through the driver's public API. Per resource.
func BenchmarkAppendWholeRows(b *testing.B) {
	s := chtest.New(b)
	rs := sampleResources(b, "ten_bench", 10_000)
	// The thread's CPU time, not the wall's: other processes on a shared
	// machine stretch the wall time.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := threadCPU(b)
	if err := s.AppendWholeRowsLoop(context.Background(), "ten_bench", rs, b.N); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(threadCPU(b)-cpu0)/float64(b.N*len(rs)), "cpu-ns/resource")
}

// threadCPU is the calling thread's CPU time (user and system) in
// nanoseconds.
func threadCPU(t testing.TB) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		t.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// oddResource is the i-th resource of a set whose strings vary in every
// way the gathered columns must carry through to the driver (rowColumns):
// empty values, multi-byte and control characters, no tags or many (an
// empty tag value among them), attributes from tiny to 64 kB.
func oddResource(tenantID string, i int, seen time.Time) engine.Resource {
	rnd := rand.New(rand.NewPCG(uint64(i), 7))
	word := func(n int) string {
		const alphabet = "abcXYZ09 -_/:é€\t\\\"'\x01"
		var b strings.Builder
		for range rnd.IntN(n + 1) {
			b.WriteString(string([]rune(alphabet)[rnd.IntN(len([]rune(alphabet)))]))
		}
		return b.String()
	}
	native := "arn:odd:" + strconv.Itoa(i) + ":" + word(20)
	tags := map[string]string{}
	for k := range rnd.IntN(8) {
		tags["k"+strconv.Itoa(k)+word(6)] = word(12)
	}
	attrs, err := json.Marshal(map[string]string{"v": word([]int{0, 10, 300, 64 << 10}[i%4])})
	if err != nil {
		panic(err)
	}
	return engine.Resource{ID: engine.ResourceID(tenantID, "aws", native), TenantID: tenantID,
		Provider: "aws", Account: word(12), Region: word(3), Type: "aws_" + word(10), NativeID: native, Name: word(30),
		Tags: engine.TagsFromMap(tags), Attributes: attrs, FirstSeenAt: seen, LastSeenAt: seen}
}

// TestGatheredRowsRoundTrip: whole rows whose strings were gathered into
// rowColumns read back as written, through the bulk write (one INSERT
// kept open over many batches) and through single INSERTs whose scratch
// is reused by a smaller batch after a larger one; and the tag index
// (gathered from the same columns) finds each tagged resource by each of
// its tags.
func TestGatheredRowsRoundTrip(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	var bulkRs, small []engine.Resource
	for i := range 2500 {
		bulkRs = append(bulkRs, oddResource("ten_bulk", i, testNow))
	}
	for i := range 300 {
		small = append(small, oddResource("ten_one", i, testNow))
	}
	clickhouse.SetWholeRowFlush(t, 1000, time.Minute)
	mustWriteResources(t, s, "ten_bulk", bulkRs)
	var sc clickhouse.ResourceScratch
	if err := s.InsertResources(ctx, &sc, "ten_one", small[:250]); err != nil {
		t.Fatal(err)
	}
	if err := s.InsertResources(ctx, &sc, "ten_one", small[250:]); err != nil {
		t.Fatal(err)
	}
	for tenant, want := range map[string][]engine.Resource{"ten_bulk": bulkRs, "ten_one": small} {
		ids := make([]string, len(want))
		for i, r := range want {
			ids[i] = r.ID
		}
		got, err := s.GetResources(ctx, tenant, ids)
		if err != nil {
			t.Fatal(err)
		}
		want = slices.Clone(want)
		slices.SortFunc(want, byID)
		slices.SortFunc(got, byID)
		if len(got) != len(want) {
			t.Fatalf("%s: read back %d resources of %d", tenant, len(got), len(want))
		}
		for i := range want {
			if diff := gocmp.Diff(want[i], got[i]); diff != "" {
				t.Fatalf("%s read back (-want +got):\n%s", tenant, diff)
			}
		}
		for _, r := range want[:8] {
			for _, tag := range r.Tags {
				if ids := clickhouse.TagMatchingIDs(t, s, tenant, tag.Key+"="+tag.Value); !slices.Contains(ids, r.ID) {
					t.Fatalf("%s: tag %s=%q does not find %s (%v)", tenant, tag.Key, tag.Value, r.ID, ids)
				}
			}
		}
	}
}
