package clickhouse_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// pack is a window as resource_tokens keys it: up to 8 bytes big-endian.
func pack(s string) uint64 {
	var w uint64
	for k := range 8 {
		w <<= 8
		if k < len(s) {
			w |= uint64(s[k])
		}
	}
	return w
}

// asciiLower lower-cases ASCII letters only, as ClickHouse's lower.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// TestQWindows: the key ranges of a q, on examples: none where q has no
// letter or digit after a separator that starts a run other than a stop
// token, nor for a q that is not ASCII.
func TestQWindows(t *testing.T) {
	for q, want := range map[string][][2]uint64{
		"lg-eip-4242":        {{pack("4242"), pack("4242") | 0xFFFFFFFF}}, // lg, eip: stop tokens
		"I-0ABC":             {{pack("0abc"), pack("0abc") | 0xFFFFFFFF}},
		"/xy4":               {{pack("xy4"), pack("xy4") | 1<<40 - 1}},
		"x-db-12:abcd":       {{pack("12:abcd"), pack("12:abcd") | 0xFF}, {pack("abcd"), pack("abcd") | 0xFFFFFFFF}},
		"synthetic CRITICAL": {{pack("critical"), pack("critical")}},
		"/x":                 nil, // a prefix of the stop token x, or of xy
		"/xyz":               nil,
		"-4":                 nil,
		"prod":               nil, // inside any token: the scan
		"4242":               nil,
		"x-":                 nil,
		"caf\u00e9-db12":     nil, // not ASCII: the scan
	} {
		if got := clickhouse.QWindows(q); !gocmp.Equal(got, want) {
			t.Errorf("QWindows(%q) = %x, want %x", q, got, want)
		}
	}
}

// TestQIndexWindowsOnServer: the windows ClickHouse computes (the build's
// SQL) hold every resource that holds a q in that q's ranges: random names
// and native ids (separators, digits, stop tokens, upper case, non-ASCII,
// the Kelvin sign), built, then random substrings of them (upper-cased
// half the time) as q: each resource that holds q is a candidate whenever
// the index answers, and it answers most of them.
func TestQIndexWindowsOnServer(t *testing.T) {
	skipOnCluster(t)
	s := chtest.New(t)
	ctx := context.Background()
	const tenant = "ten_qwin"
	rng := rand.New(rand.NewPCG(33, 5))
	alphabet := []string{"a", "B", "z", "0", "9", "-", ":", "/", "_", " ", ".", "\u00e9", "\u212a", "k", "K", "lg", "eip", "Prod", "12", "x7q"}
	random := func() string {
		var b strings.Builder
		for range 1 + rng.IntN(14) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	var rs []engine.Resource
	for i := range 300 {
		rs = append(rs, engine.Resource{ID: engine.ResourceID(tenant, "aws", "arn:"+strconv.Itoa(i)), TenantID: tenant, Provider: "aws",
			Account: "acct-1", Region: "us-east-1", Type: "aws_x", Name: random(), NativeID: random(),
			FirstSeenAt: testNow, LastSeenAt: testNow})
	}
	mustWriteResources(t, s, tenant, rs)
	if err := s.BuildQIndex(ctx, tenant); err != nil {
		t.Fatal(err)
	}
	asked, answered := 0, 0
	for range 1500 {
		r := rs[rng.IntN(len(rs))]
		hay := r.Name
		if rng.IntN(2) == 0 {
			hay = r.NativeID
		}
		i := rng.IntN(len(hay))
		q := hay[i : i+1+rng.IntN(len(hay)-i)]
		if rng.IntN(2) == 0 {
			q = strings.ToUpper(q)
		}
		if len(clickhouse.QWindows(q)) == 0 {
			continue
		}
		asked++
		cands, ok, err := s.QIndexCandidates(ctx, tenant, q)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			continue
		}
		answered++
		for _, x := range rs {
			if strings.Contains(asciiLower(x.Name), asciiLower(q)) || strings.Contains(asciiLower(x.NativeID), asciiLower(q)) {
				if !slices.Contains(cands, x.ID) {
					t.Fatalf("q %q: %s (name %q, native id %q) holds it but is no candidate", q, x.ID, x.Name, x.NativeID)
				}
			}
		}
	}
	if asked < 50 || answered < asked/2 {
		t.Errorf("the index answered %d of %d q's with windows", answered, asked)
	}
}

// qResources are resources shaped as people name them (and loadgen does),
// on the native ids of mustWriteSnapshot's findings ("arn:<i>" as ids).
func qResources(tenant string, n int) []engine.Resource {
	var rs []engine.Resource
	for i := range n {
		typ := []string{"eip", "instance", "db", "bucket"}[i%4]
		name := fmt.Sprintf("lg-%s-%d", typ, i)
		switch i % 9 {
		case 1:
			name = "Prod-DB-" + strconv.Itoa(i)
		case 2:
			name = "caf\u00e9-\u212aey-" + strconv.Itoa(i) // non-ASCII, a Kelvin sign
		case 3:
			name = ""
		case 7:
			name = "--Web_01::x/" + strconv.Itoa(i) // separators first
		}
		rs = append(rs, engine.Resource{ID: engine.ResourceID(tenant, "aws", "arn:"+strconv.Itoa(i)), TenantID: tenant, Provider: "aws",
			Account: "acct-1", Region: "us-east-1", Type: "aws_" + typ,
			NativeID:    fmt.Sprintf("arn:aws:ec2:us-east-1:%012d:%s/i-0%x", 100000000000+i%3, typ, 0xabc000+i),
			Name:        name,
			FirstSeenAt: testNow, LastSeenAt: testNow})
	}
	return rs
}

// qWant is what a q filter matches among a snapshot's findings of rs.
func qWant(snap snapshot, rs []engine.Resource, q string) []engine.Finding {
	byID := map[string]engine.Resource{}
	for _, r := range rs {
		byID[r.ID] = r
	}
	var out []engine.Finding
	lq := strings.ToLower(q)
	for _, x := range snap.findings {
		r := byID[x.ResourceID]
		if strings.Contains(strings.ToLower(x.Title), lq) || strings.Contains(strings.ToLower(r.Name), lq) ||
			strings.Contains(strings.ToLower(r.NativeID), lq) {
			out = append(out, x)
		}
	}
	slices.SortFunc(out, listOrder)
	return out
}

// TestQIndexDifferential (issue 33 §3): the q filter through its index
// answers the pages (cursors across pages) and counts that the scan of
// the tenant's resources does and that the resources written say: q's in
// native ids and names, upper-cased, in titles, inside one token (the
// scan), a resource renamed and one added after the build (in parts the
// index does not cover: scanned) matched by their new names only, a
// non-ASCII name, and with one candidate allowed a window (the index
// gives up, the scan answers). Another tenant, indexed too, holds the
// same names and native ids: none of its resources is an answer. The
// index answers the q's it can (on the old code there is none).
func TestQIndexDifferential(t *testing.T) {
	defer clickhouse.SetFilterMemo(false)()
	s := chtest.New(t)
	ctx := context.Background()
	const tenant, other, nres = "ten_qidx", "ten_qidx_b", 90
	aud := engine.NewID(engine.PrefixAudit, testNow)
	rs := qResources(tenant, nres+1)
	added := rs[nres]
	rs = rs[:nres]
	mustWriteResources(t, s, tenant, rs)
	mustWriteResources(t, s, other, qResources(other, nres+1))
	snap := mustWriteSnapshot(t, s, tenant, aud, (nres+1)*5)
	mustWriteSnapshot(t, s, other, aud, (nres+1)*5)
	for _, tn := range []string{tenant, other} {
		if err := s.BuildQIndex(ctx, tn); err != nil {
			t.Fatal(err)
		}
	}
	// After the build: resource 4 renamed, resource 90 added.
	renamed := rs[4]
	renamed.Name, renamed.LastSeenAt = "renamed-web-4", testNow.Add(time.Hour)
	added.Name = "added-web-90"
	mustWriteResources(t, s, tenant, []engine.Resource{renamed, added})
	rs[4] = renamed
	rs = append(rs, added)

	qs := []string{"lg-eip-4", "LG-EIP-40", "i-0abc01", "I-0ABC0", "prod-db", "-db-1", "/i-0abc05a", ":100000000001:",
		"lg-instance-41", "renamed-web", "lg-db-4", "-web-90", "-\u212aey-2", "\u212aey-11", "caf\u00e9-", "rule 3", "Rule 1: a",
		"prod", "0abc", "nothing-like-it", "-zzz", "east-1:1000", "instance/i-0abc0", "lg-bucket-1", "-DB-10", "/i-0abc05b"}
	rng := rand.New(rand.NewPCG(33, 4))
	for range 12 { // substrings of names and native ids
		r := rs[rng.IntN(len(rs))]
		src := r.NativeID
		if rng.IntN(2) == 0 && r.Name != "" {
			src = r.Name
		}
		i := rng.IntN(len(src))
		if q := src[i:min(len(src), i+3+rng.IntN(10))]; utf8.ValidString(q) {
			qs = append(qs, q)
		}
	}
	before := clickhouse.QIndexAnswers()
	for _, q := range qs {
		t.Run(q, func(t *testing.T) {
			f := engine.FindingFilter{AuditID: aud, Q: q}
			w := qWant(snap, rs, q)
			for _, way := range []struct {
				name       string
				index      bool
				candidates int
			}{{"index", true, 256}, {"scan", false, 256}, {"index, 1 candidate at most", true, 1}} {
				restore := clickhouse.SetQIndex(way.index)
				restoreCand := clickhouse.SetMaxQCandidates(way.candidates)
				limit := 7 // cursors across pages; fewer pages for a broad q
				if len(w) > 70 {
					limit = 61
				}
				got := pageAll(t, s, tenant, f, limit)
				count := countAll(t, s, tenant, f)
				restoreCand()
				restore()
				if diff := gocmp.Diff(w, got); diff != "" {
					t.Errorf("%s: pages (-want +got):\n%s", way.name, diff)
				}
				if count != int64(len(w)) {
					t.Errorf("%s: count %d, want %d", way.name, count, len(w))
				}
			}
		})
	}
	if n := clickhouse.QIndexAnswers() - before; n < 20 && chtest.Cluster() == "" {
		t.Errorf("the index answered %d times for %d q's", n, len(qs))
	}
}

// TestQIndexReadAndBuiltLazily: the q filter reads its candidates from the
// index it was told covers the tenant (emptied, a q finds nothing of what
// it covers: the old code scanned and found it); without a build row (a
// tenant written before the index, as after migration 0020) every part is
// scanned, the answer is the scan's, and the q starts the tenant's build,
// after which the index answers again. A bulk write of at least
// qIndexBuildAfter resources starts one too.
func TestQIndexReadAndBuiltLazily(t *testing.T) {
	skipOnCluster(t)
	defer clickhouse.SetFilterMemo(false)()
	s := chtest.New(t)
	s.EnableQIndexBuilds()
	ctx := context.Background()
	const tenant, other = "ten_qlazy", "ten_qlazy_b"
	aud := engine.NewID(engine.PrefixAudit, testNow)
	rs := qResources(tenant, 40)
	mustWriteResources(t, s, tenant, rs)
	snap := mustWriteSnapshot(t, s, tenant, aud, 200)
	if err := s.BuildQIndex(ctx, tenant); err != nil {
		t.Fatal(err)
	}
	const q = "lg-eip-32" // only resource 32
	f := engine.FindingFilter{AuditID: aud, Q: q}
	want := qWant(snap, rs, q)
	if len(want) == 0 {
		t.Fatal("the fixture has no finding of resource 32")
	}
	if diff := gocmp.Diff(want, pageAll(t, s, tenant, f, 50)); diff != "" {
		t.Fatalf("built: pages (-want +got):\n%s", diff)
	}
	mustDelete := func(table string) {
		t.Helper()
		if err := s.AlterLocal(ctx, table, "DELETE WHERE 1"); err != nil {
			t.Fatal(err)
		}
		if err := s.WaitForMutations(ctx); err != nil {
			t.Fatal(err)
		}
	}
	mustDelete("resource_tokens")
	if got := pageAll(t, s, tenant, f, 50); len(got) != 0 {
		t.Fatalf("with the index emptied q still finds %d findings: the index is not read", len(got))
	}
	mustDelete("resource_tokens_built")
	builds := clickhouse.QIndexBuilds()
	if diff := gocmp.Diff(want, pageAll(t, s, tenant, f, 50)); diff != "" {
		t.Fatalf("not built: pages (-want +got):\n%s", diff)
	}
	waitFor(t, func() bool { return clickhouse.QIndexBuilds() > builds && s.QIndexBuildsIdle() })
	answers := clickhouse.QIndexAnswers()
	cands, ok, err := s.QIndexCandidates(ctx, tenant, q)
	if err != nil || !ok || len(cands) == 0 || clickhouse.QIndexAnswers() == answers {
		t.Fatalf("after the lazy build: candidates %v, answered %v, err %v", cands, ok, err)
	}
	// Emptied again: the index is what answers (the scan covers no part).
	mustDelete("resource_tokens")
	if cands, ok, _ := s.QIndexCandidates(ctx, tenant, q); !ok || len(cands) != 0 {
		t.Fatalf("the lazy build's index emptied: candidates %v, answered %v", cands, ok)
	}

	// A bulk write of qIndexBuildAfter resources builds its tenant's index.
	clickhouse.SetQIndexBuildAfter(t, 10)
	builds = clickhouse.QIndexBuilds()
	others := qResources(other, 12)
	mustWriteResources(t, s, other, others)
	waitFor(t, func() bool { return clickhouse.QIndexBuilds() > builds && s.QIndexBuildsIdle() })
	// Resource 8's native id, and the two with non-ASCII names (window 0).
	cands, ok, err = s.QIndexCandidates(ctx, other, "/I-0ABC008")
	if slices.Sort(cands); err != nil || !ok || !slices.Equal(cands, sortedIDs(others[2], others[8], others[11])) {
		t.Fatalf("after a bulk write: candidates %v, answered %v, err %v", cands, ok, err)
	}
}

// waitFor polls cond for up to 30 s.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
	}
}

// sortedIDs are the resources' ids, sorted.
func sortedIDs(rs ...engine.Resource) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	slices.Sort(out)
	return out
}

// skipOnCluster skips a test of the q index itself in cluster mode, which
// neither builds nor reads it (resource_tokens.go).
func skipOnCluster(t *testing.T) {
	if chtest.Cluster() != "" {
		t.Skip("cluster mode neither builds nor reads the q index")
	}
}

// TestQIndexRebuildAfterMergeFolds: a build after the resources' parts were
// merged indexes the merged part's rows again; the index must not keep
// them twice once it merges (a plain MergeTree doubled here).
func TestQIndexRebuildAfterMergeFolds(t *testing.T) {
	skipOnCluster(t)
	s := chtest.New(t)
	ctx := context.Background()
	const tenant = "ten_qfold"
	rs := qResources(tenant, 40)
	mustWriteResources(t, s, tenant, rs[:20])
	mustWriteResources(t, s, tenant, rs[20:])
	rows := func() string {
		t.Helper()
		if err := s.Exec(ctx, "OPTIMIZE TABLE "+s.LocalTable("resource_tokens")+" FINAL"); err != nil {
			t.Fatal(err)
		}
		got, err := s.QueryStrings(ctx, "SELECT toString(count()) FROM resource_tokens")
		if err != nil {
			t.Fatal(err)
		}
		return got[0]
	}
	if err := s.BuildQIndex(ctx, tenant); err != nil {
		t.Fatal(err)
	}
	once := rows()
	if once == "0" {
		t.Fatal("the build indexed nothing")
	}
	// One more write past the watermark, then every part merged into one
	// whose greatest block is past it: the next build reads all its rows.
	mustWriteResources(t, s, tenant, qResources(tenant, 41)[40:])
	if err := s.Exec(ctx, "OPTIMIZE TABLE "+s.LocalTable("resources")+" FINAL"); err != nil {
		t.Fatal(err)
	}
	if err := s.BuildQIndex(ctx, tenant); err != nil {
		t.Fatal(err)
	}
	want, err := s.QueryStrings(ctx, "SELECT toString(count()) FROM (SELECT DISTINCT tenant, token, id FROM resource_tokens)")
	if err != nil {
		t.Fatal(err)
	}
	if got := rows(); got != want[0] {
		t.Fatalf("after a build over merged parts the index holds %s rows, %s distinct (first build: %s)", got, want[0], once)
	}
}
