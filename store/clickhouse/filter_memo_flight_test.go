package clickhouse_test

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// TestFilterMemoSharesConcurrentResolutions: pages and counts of one q
// filter asked at once, before the memo holds it, resolve it once per
// tenant (each resolution slowed down so that every read arrives while
// it runs; before, each read resolved it: 8 here), and each read answers
// what it answers without the memo; tenant B, asking the same filter under
// the same audit id at the same time, resolves its own and sees its own
// resources' findings only; a read whose context ends while it waits
// returns at once with its error, and the others are not failed by it.
func TestFilterMemoSharesConcurrentResolutions(t *testing.T) {
	s := chtest.New(t)
	aud := engine.NewID(engine.PrefixAudit, testNow)
	mustWriteSnapshot(t, s, "ten_a", aud, 500) // resources arn:0…99
	mustWriteSnapshot(t, s, "ten_b", aud, 500)
	for _, tenant := range []string{"ten_a", "ten_b"} {
		var rs []engine.Resource
		for i := range 100 {
			native := "arn:" + strconv.Itoa(i)
			name := "flight-" + strconv.Itoa(i)
			if tenant == "ten_b" && i%2 == 1 {
				name = "other-" + strconv.Itoa(i)
			}
			rs = append(rs, engine.Resource{ID: engine.ResourceID(tenant, "aws", native), TenantID: tenant, Provider: "aws",
				Account: "acct-1", Region: "region-1", Type: "aws_instance", NativeID: native, Name: name,
				FirstSeenAt: testNow, LastSeenAt: testNow})
		}
		mustWriteResources(t, s, tenant, rs)
	}
	f := engine.FindingFilter{AuditID: aud, Q: "FLIGHT-1"}
	ctx := context.Background()
	type answer struct {
		page  []engine.Finding
		count int64
	}
	read := func(ctx context.Context, tenant string, count bool) (answer, error) {
		if count {
			got, err := s.CountFindings(ctx, engine.FindingCountQuery{TenantID: tenant, Filter: f})
			var n int64
			for _, g := range got {
				n += g.Count
			}
			return answer{count: n}, err
		}
		page, err := s.ListFindings(ctx, engine.FindingQuery{TenantID: tenant, Filter: f, Limit: 200})
		return answer{page: page}, err
	}
	want := map[string]answer{}
	restore := clickhouse.SetFilterMemo(false)
	for _, tenant := range []string{"ten_a", "ten_b"} {
		p, err := read(ctx, tenant, false)
		c, err2 := read(ctx, tenant, true)
		if err != nil || err2 != nil || len(p.page) == 0 || c.count != int64(len(p.page)) {
			t.Fatalf("%s without the memo: %d findings, count %d (%v, %v)", tenant, len(p.page), c.count, err, err2)
		}
		want[tenant] = answer{page: p.page, count: c.count}
	}
	restore()
	if len(want["ten_b"].page) >= len(want["ten_a"].page) {
		t.Fatalf("tenant B matches %d findings, tenant A %d: the tenants are not told apart", len(want["ten_b"].page), len(want["ten_a"].page))
	}

	defer clickhouse.SetSelectiveResolveHook(func() { time.Sleep(400 * time.Millisecond) })()
	before := clickhouse.SelectiveResolutions()
	var wg sync.WaitGroup
	// A read that gives up while the resolution runs.
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	wg.Add(1)
	go func() {
		defer wg.Done()
		if _, err := read(short, "ten_a", false); err == nil {
			t.Error("a read whose context ended while it waited answered no error")
		}
	}()
	for _, tenant := range []string{"ten_a", "ten_b"} {
		for i := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got, err := read(ctx, tenant, i%2 == 1)
				if err != nil {
					t.Errorf("%s, read %d: %v", tenant, i, err)
					return
				}
				w := want[tenant]
				if i%2 == 1 {
					w.page = nil
				} else {
					w.count = 0
				}
				if diff := gocmp.Diff(w, got, gocmp.AllowUnexported(answer{})); diff != "" {
					t.Errorf("%s, read %d (-without the memo +with):\n%s", tenant, i, diff)
				}
			}()
		}
	}
	wg.Wait()
	if n := clickhouse.SelectiveResolutions() - before; n != 2 {
		t.Errorf("9 reads of one filter at once in two tenants: %d resolutions, want 2", n)
	}
}

// TestFilterMemoSharesConcurrentKeyReads: a selective tag's first page
// and its count asked at once (each key read slowed down so that both
// arrive while it runs) read the keys of the tag's findings from the
// resource index once, not once each (at 10M ~0.1 s of ClickHouse CPU
// each), and answer what they answer one after another; tenant B asking
// the same tag under the same audit id at the same time reads its own.
func TestFilterMemoSharesConcurrentKeyReads(t *testing.T) {
	s, aud, f := fewOwnersFixture(t)
	mustWriteSnapshot(t, s, "ten_b", aud, 1000)
	tagResources(t, s, "ten_b", []int{0, 7}, func(int) map[string]string { return map[string]string{"owner": "few"} })
	ctx := context.Background()
	page := func(tenant string) ([]engine.Finding, error) {
		return s.ListFindings(ctx, engine.FindingQuery{TenantID: tenant, Filter: f, Limit: 5})
	}
	want, wantCount := map[string][]engine.Finding{}, map[string]int64{}
	restore := clickhouse.SetFilterMemo(false)
	for _, tenant := range []string{"ten_a", "ten_b"} {
		p, err := page(tenant)
		if err != nil || len(p) == 0 {
			t.Fatalf("%s without the memo: %d findings, %v", tenant, len(p), err)
		}
		want[tenant], wantCount[tenant] = p, countAll(t, s, tenant, f)
	}
	restore()
	if wantCount["ten_a"] != 100 || wantCount["ten_b"] == 0 || wantCount["ten_b"] >= 100 {
		t.Fatalf("the tag matches %d findings of tenant A (want 100), %d of tenant B: the tenants are not told apart", wantCount["ten_a"], wantCount["ten_b"])
	}
	defer clickhouse.SetMemoRows(false)() // the counts by key, not from rows read meanwhile
	defer clickhouse.SetKeyedKeysHook(func() { time.Sleep(400 * time.Millisecond) })()
	before := clickhouse.RowFilterKeyedReads()
	var wg sync.WaitGroup
	for _, tenant := range []string{"ten_a", "ten_b"} {
		wg.Add(2)
		go func() {
			defer wg.Done()
			got, err := page(tenant)
			if err != nil {
				t.Errorf("%s page: %v", tenant, err)
			} else if diff := gocmp.Diff(want[tenant], got); diff != "" {
				t.Errorf("%s page (-alone +asked with its count):\n%s", tenant, diff)
			}
		}()
		go func() {
			defer wg.Done()
			got, err := s.CountFindings(ctx, engine.FindingCountQuery{TenantID: tenant, Filter: f})
			if err != nil || len(got) != 1 || got[0].Count != wantCount[tenant] {
				t.Errorf("%s count %+v, %v; want %d", tenant, got, err, wantCount[tenant])
			}
		}()
	}
	wg.Wait()
	if n := clickhouse.RowFilterKeyedReads() - before; n != 2 {
		t.Errorf("a page and a count asked at once in two tenants: %d reads of keys, want 2 (one each)", n)
	}
}
