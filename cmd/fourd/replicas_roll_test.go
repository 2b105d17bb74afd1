package main

import (
	"context"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine/identity"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// rollingMigration is the ClickHouse migration that the build with the
// fourd_rolling_migration tag has and the rig's build lacks
// (store/clickhouse/migrate_rolling.go); rollingPGVersion is its
// PostgreSQL migration (store/postgres/migrate_rolling.go).
const (
	rollingMigration = "9001_rolling_probe"
	rollingPGVersion = 90010
)

// testRollingRestart rolls the replicas a and b, one at a time, from the
// rig's build to a build with one more migration of each store (a column
// added to snapshot_findings, the table every findings page reads, and in
// PostgreSQL a nullable column added to audits and an index built on it
// CONCURRENTLY), while
// four clients read findings through both and retry a refused connection
// or a 503 on the other replica, as docs/scaling.md tells clients to. The
// first replica is stopped with SIGTERM, the new build's `fourd migrate`
// runs, and the new build starts in its place; meanwhile the old build
// keeps serving over the migrated table, and runs an audit that writes a
// snapshot into it; then the second replica is rolled the same way. No
// request may fail, and between the two restarts both builds must have
// answered.
func testRollingRestart(t *testing.T, rig *replicaRig, a, b *replica) {
	ctx := context.Background()
	next := filepath.Join(rig.dir, "fourd-next")
	buildFourd(t, next, "-tags", "fourd_rolling_migration")
	// Each client has a token of its own and paces itself, so that no
	// budget runs out (1000 a minute at most).
	var toks []string
	for k := range 4 {
		toks = append(toks, rig.newToken(t, "rolling"+strconv.Itoa(k)+"@demo.fourd.local", identity.MaxAPITokenRateLimit))
	}
	var cur [2]atomic.Pointer[replica]
	cur[0].Store(a)
	cur[1].Store(b)
	// phase: 0 before the migration, 1 from the migration until the
	// second replica stops (both builds side by side), 2 after.
	var phase atomic.Int32
	type answered struct {
		phase int32
		bin   string
	}
	var (
		mu      sync.Mutex
		failed  []string
		served  = map[answered]int{}
		total   atomic.Int64
		retried atomic.Int64
	)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	client := func(k int) {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			ok := false
			for try := 0; try < 50 && !ok; try++ {
				p, ph := cur[(i+k+try)%2].Load(), phase.Load()
				status, body, err := call("GET", p.url+"/v1/findings?limit=5", toks[k], nil)
				switch {
				case err == nil && status == http.StatusOK:
					ok = true
					mu.Lock()
					served[answered{ph, p.bin}]++
					mu.Unlock()
				case err != nil || status == http.StatusServiceUnavailable:
					retried.Add(1)
					time.Sleep(50 * time.Millisecond)
				default:
					mu.Lock()
					failed = append(failed, strconv.Itoa(status)+" "+string(body))
					mu.Unlock()
					ok = true
				}
			}
			if !ok {
				mu.Lock()
				failed = append(failed, "gave up after 50 tries")
				mu.Unlock()
			}
			total.Add(1)
			time.Sleep(50 * time.Millisecond)
		}
	}
	for k := range 4 {
		wg.Add(1)
		go client(k)
	}
	time.Sleep(time.Second)

	a.signal(syscall.SIGTERM)
	rig.runBin(t, next, "migrate")
	phase.Store(1)
	cur[0].Store(rig.startBin(t, next, "a", a.addr))
	time.Sleep(time.Second)
	// The old build writes a snapshot into the migrated table while the
	// clients read it through both builds.
	// Every command migrates first: the old build's finds both stores
	// ahead of it (goose must not refuse a version it does not know).
	before := latestAuditID(t, rig)
	out := rig.runBin(t, rig.bin, "audit", "--tenant", "demo")
	t.Logf("the old build's audit over the new schema: %.80s", out)
	if after := latestAuditID(t, rig); after == before {
		t.Errorf("the old build's audit over the migrated schema completed no audit (the latest is still %s)", before)
	}
	time.Sleep(time.Second)

	b.signal(syscall.SIGTERM)
	phase.Store(2)
	rig.runBin(t, next, "migrate")
	cur[1].Store(rig.startBin(t, next, "b", b.addr))
	time.Sleep(time.Second)
	close(stop)
	wg.Wait()

	if len(failed) > 0 {
		t.Errorf("%d of %d requests failed through the rolling restart: %q", len(failed), total.Load(), failed[:min(10, len(failed))])
	}
	t.Logf("%d requests through the rolling restart, %d tries retried; answered by phase and build: %v", total.Load(), retried.Load(), served)
	if total.Load() < 20 {
		t.Errorf("only %d requests were made", total.Load())
	}
	if served[answered{1, rig.bin}] == 0 || served[answered{1, next}] == 0 {
		t.Errorf("between the two restarts the old build answered %d requests and the new one %d: want both serving",
			served[answered{1, rig.bin}], served[answered{1, next}])
	}
	s, err := clickhouse.Open(ctx, clickhouse.Config{URL: rig.chURL, Cluster: chtest.Cluster()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	applied, err := s.AppliedMigrations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(applied, rollingMigration) {
		t.Errorf("applied ClickHouse migrations %q lack the new build's %s", applied, rollingMigration)
	}
	checkRollingPG(t, rig)
}

// latestAuditID is the id of the demo tenant's latest completed audit.
func latestAuditID(t *testing.T, rig *replicaRig) string {
	t.Helper()
	var id string
	pgQueryRow(t, rig, []any{&id}, `SELECT a.id FROM audits a JOIN tenants n ON n.id = a.tenant_id
WHERE n.slug = 'demo' AND a.status = 'completed' ORDER BY a.completed_at DESC, a.id DESC LIMIT 1`)
	return id
}

// checkRollingPG checks that the new build's PostgreSQL migration was
// applied whole (its column, and its index valid: a CONCURRENTLY build that
// failed leaves it invalid).
func checkRollingPG(t *testing.T, rig *replicaRig) {
	t.Helper()
	var applied, valid bool
	pgQueryRow(t, rig, []any{&applied}, `SELECT EXISTS (SELECT 1 FROM goose_db_version WHERE version_id = $1 AND is_applied)`, rollingPGVersion)
	if !applied {
		t.Errorf("PostgreSQL migration %d of the new build is not applied", rollingPGVersion)
	}
	pgQueryRow(t, rig, []any{&valid}, `SELECT COALESCE((SELECT i.indisvalid FROM pg_index i
JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = 'audits_rolling_probe_idx'), false)`)
	if !valid {
		t.Error("the new build's index audits_rolling_probe_idx is missing or invalid")
	}
}

// pgQueryRow scans one row of query over the rig's PostgreSQL database into dest.
func pgQueryRow(t *testing.T, rig *replicaRig, dest []any, query string, args ...any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, rig.pgURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if err := conn.QueryRow(ctx, query, args...).Scan(dest...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}
