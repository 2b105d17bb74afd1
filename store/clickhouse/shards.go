package clickhouse

import (
	"context"
	"fmt"
	"regexp"
	"sync"
	"sync/atomic"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/go-faster/city"

	"github.com/fourd-dev/fourd/engine"
)

// A shard down in cluster mode hurts only the tenants whose data it holds
// (docs/design/cluster.md, "A shard down"). The store knows the sharding
// key of every row it reads or writes for a tenant (shardingKeys), so it
// computes the shards a call needs (its scope) the way the Distributed
// engine picks them, and a router watches every replica:
//
//   - a read whose shards all answer runs through the Distributed tables
//     as always; while another shard is down it runs with
//     skip_unavailable_shards = 1 and is accepted only if its own shards
//     still answer afterwards; a read that needs a shard that is down is
//     unavailable at once;
//   - a scoped write's inserts go straight into the local tables of the
//     one shard their rows belong to (on the first of its replicas that
//     answers), which is what a Distributed table with internal
//     replication does, minus 18.16's habit of opening an insert on every
//     shard, even those it sends no rows (so a shard down failed every
//     write of every tenant).
//
// On one server none of this exists: the router is nil.

// probeInterval is how often the router pings every replica.
const probeInterval = time.Second

// probeTimeout bounds one replica's ping.
const probeTimeout = time.Second

// errShardDown is what a call that needs a shard none of whose replicas
// answers is told: the API answers 503 with Retry-After.
var errShardDown = &engine.Error{Code: engine.CodeUnavailable,
	Message: "the part of the analytics store that holds this tenant's data is unavailable; retry later"}

// shard is one shard of the cluster as system.clusters lists it.
type shard struct {
	num      uint32
	replicas []string // native addresses, in replica order
	probes   []driver.Conn
}

// router knows the cluster's shards and which replicas answer.
type router struct {
	opts   ch.Options // the store's options, copied for the router's pools
	shards []*shard
	slots  []int // a sharding key k is on shards[slots[k % len(slots)]]
	// up[i][j] reports whether replica j of shards[i] answered its last probe.
	up   atomic.Pointer[[][]bool]
	kick chan struct{}
	stop chan struct{}
	done chan struct{}

	mu    sync.Mutex
	pools map[string]driver.Conn // lazily opened: "skip", "<i>", "<i>/skip"
}

// newRouter reads the cluster's shards, weights and replicas from the
// node's system.clusters, probes every replica once and starts watching.
func newRouter(ctx context.Context, conn driver.Conn, opts *ch.Options, cluster string) (*router, error) {
	rows, err := conn.Query(ctx, `SELECT shard_num, shard_weight, host_address, port FROM system.clusters
WHERE cluster = ? ORDER BY shard_num, replica_num`, cluster)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: reading system.clusters: %w", err)
	}
	defer rows.Close()
	r := &router{opts: *opts, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{}),
		pools: map[string]driver.Conn{}}
	for rows.Next() {
		var num, weight uint32
		var host string
		var port uint16
		if err := rows.Scan(&num, &weight, &host, &port); err != nil {
			return nil, fmt.Errorf("clickhouse: reading system.clusters: %w", err)
		}
		if len(r.shards) == 0 || r.shards[len(r.shards)-1].num != num {
			r.shards = append(r.shards, &shard{num: num})
			// The Distributed engine gives a shard as many slots as its weight.
			for range weight {
				r.slots = append(r.slots, len(r.shards)-1)
			}
		}
		sh := r.shards[len(r.shards)-1]
		sh.replicas = append(sh.replicas, fmt.Sprintf("%s:%d", host, port))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("clickhouse: reading system.clusters: %w", err)
	}
	if len(r.slots) == 0 {
		return nil, fmt.Errorf("%w: %q has no shards of non-zero weight in system.clusters", ErrUnknownCluster, cluster)
	}
	for _, sh := range r.shards {
		for _, addr := range sh.replicas {
			c, err := r.open([]string{addr}, 4, false)
			if err != nil {
				r.close()
				return nil, err
			}
			sh.probes = append(sh.probes, c)
		}
	}
	r.probe(ctx)
	go r.watch()
	return r, nil
}

// open opens a pool of at most n connections to addrs (tried in order),
// with skip_unavailable_shards when skip.
func (r *router) open(addrs []string, n int, skip bool) (driver.Conn, error) {
	o := r.opts
	o.Addr = addrs
	o.ConnOpenStrategy = ch.ConnOpenInOrder
	o.MaxOpenConns, o.MaxIdleConns = n, min(n, 2)
	o.Settings = ch.Settings{}
	for k, v := range r.opts.Settings {
		o.Settings[k] = v
	}
	if skip {
		o.Settings["skip_unavailable_shards"] = 1
	}
	c, err := ch.Open(&o)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: open %v: %w", addrs, err)
	}
	return c, nil
}

// pool returns the pool named key, opening it with open the first time.
func (r *router) pool(key string, open func() (driver.Conn, error)) (driver.Conn, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c, ok := r.pools[key]; ok {
		return c, nil
	}
	c, err := open()
	if err != nil {
		return nil, err
	}
	r.pools[key] = c
	return c, nil
}

// skipConn is a pool to the store's own nodes whose queries skip the
// shards that do not answer.
func (r *router) skipConn() (driver.Conn, error) {
	return r.pool("skip", func() (driver.Conn, error) { return r.open(r.opts.Addr, r.opts.MaxOpenConns, true) })
}

// shardConn is a pool to the replicas of shards[i], tried in order; skip
// as for open.
func (r *router) shardConn(i int, skip bool) (driver.Conn, error) {
	key := fmt.Sprint(i)
	if skip {
		key += "/skip"
	}
	return r.pool(key, func() (driver.Conn, error) { return r.open(r.shards[i].replicas, r.opts.MaxOpenConns, skip) })
}

// watch probes every replica each probeInterval, or at once when kicked,
// until close.
func (r *router) watch() {
	defer close(r.done)
	t := time.NewTicker(probeInterval)
	defer t.Stop()
	for {
		select {
		case <-r.stop:
			return
		case <-t.C:
		case <-r.kick:
		}
		r.probe(context.Background())
	}
}

// probe pings every replica at once and records which answer.
func (r *router) probe(ctx context.Context) [][]bool {
	up := make([][]bool, len(r.shards))
	var wg sync.WaitGroup
	for i, sh := range r.shards {
		up[i] = make([]bool, len(sh.probes))
		for j, c := range sh.probes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				pctx, cancel := context.WithTimeout(ctx, probeTimeout)
				defer cancel()
				up[i][j] = c.Ping(pctx) == nil
			}()
		}
	}
	wg.Wait()
	r.up.Store(&up)
	return up
}

// answer pings the replicas of each shard of need, those that answered the
// last probe first, and reports whether every shard has one answering now.
func (r *router) answer(ctx context.Context, need []int) bool {
	last := *r.up.Load()
	for _, i := range need {
		ok := false
		for _, wantUp := range []bool{true, false} {
			for j, c := range r.shards[i].probes {
				if ok || last[i][j] != wantUp {
					continue
				}
				pctx, cancel := context.WithTimeout(ctx, probeTimeout)
				ok = c.Ping(pctx) == nil
				cancel()
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// noteFailure asks for a probe now: a query failed as unavailable, so the
// router's picture may be stale.
func (r *router) noteFailure(err error) {
	if err == nil || !isUnavailable(err) {
		return
	}
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// shardUp reports whether a replica of shards[i] answered in up.
func shardUp(up [][]bool, i int) bool {
	for _, ok := range up[i] {
		if ok {
			return true
		}
	}
	return false
}

// degraded reports whether some shard has no replica answering.
func (r *router) degraded() bool {
	up := *r.up.Load()
	for i := range up {
		if !shardUp(up, i) {
			return true
		}
	}
	return false
}

// allUp reports whether every shard of need has a replica answering in up.
func allUp(up [][]bool, need []int) bool {
	for _, i := range need {
		if !shardUp(up, i) {
			return false
		}
	}
	return true
}

// shardOf is the index in shards of the shard holding the rows of key,
// as the Distributed engine places them.
func (r *router) shardOf(key uint64) int { return r.slots[key%uint64(len(r.slots))] }

// close stops watching and closes the router's pools.
func (r *router) close() {
	select {
	case <-r.stop:
		return
	default:
	}
	close(r.stop)
	if r.up.Load() != nil {
		<-r.done
	}
	for _, sh := range r.shards {
		for _, c := range sh.probes {
			c.Close()
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.pools {
		c.Close()
	}
}

// scope is what one store call reads and writes: a tenant's tenant-sharded
// rows, the snapshot it writes (if any) and the snapshots it reads.
type scope struct {
	tenant string
	write  string
	reads  []string
}

type scopeKey struct{}

// scoped marks ctx with the shards a call for tenant needs: those of the
// tenant's own rows (resources, rule texts), of the snapshot write (empty
// when the call writes none) and of every snapshot in reads. Nothing on
// one server.
func (s *Store) scoped(ctx context.Context, tenant, write string, reads ...string) context.Context {
	if s.router == nil || tenant == "" {
		return ctx
	}
	return context.WithValue(ctx, scopeKey{}, &scope{tenant: tenant, write: write, reads: reads})
}

func scopeOf(ctx context.Context) *scope {
	sc, _ := ctx.Value(scopeKey{}).(*scope)
	return sc
}

// tenantKey is cityHash64(tenant_id), the sharding key of tenant-sharded
// tables.
func tenantKey(tenant string) uint64 { return city.CH64([]byte(tenant)) }

// need lists the shards sc touches.
func (r *router) need(sc *scope) []int {
	seen := map[int]bool{r.shardOf(tenantKey(sc.tenant)): true}
	for _, a := range append([]string{sc.write}, sc.reads...) {
		if a != "" {
			seen[r.shardOf(snapshotKey(sc.tenant, a))] = true
		}
	}
	out := make([]int, 0, len(seen))
	for i := range seen {
		out = append(out, i)
	}
	return out
}

// insertRe matches an INSERT into a table of the store: its name and the rest.
var routedInsertRe = regexp.MustCompile(`(?s)^\s*INSERT INTO (\w+)(\s.*)$`)

// insertShard is the shard that the rows of a scoped INSERT into table go
// to, and the statement rewritten for its local table; ok is false when
// the INSERT is not routed (a table without a sharding key, a snapshot
// table with no snapshot written in the scope).
func (r *router) insertShard(sc *scope, query string) (int, string, bool) {
	m := routedInsertRe.FindStringSubmatch(query)
	if m == nil {
		return 0, "", false
	}
	key, ok := shardingKeys[m[1]]
	if !ok {
		return 0, "", false
	}
	var k uint64
	switch {
	case key == tenantShard:
		k = tenantKey(sc.tenant)
	case sc.write != "":
		k = snapshotKey(sc.tenant, sc.write)
	default:
		return 0, "", false
	}
	return r.shardOf(k), "INSERT INTO " + m[1] + localSuffix + m[2], true
}

// Degraded lists the parts of the cluster that do not answer a ping now,
// for /readyz: a replica down costs redundancy only, a shard down makes
// the calls that need it unavailable. Nothing on one server. It names
// shards and replicas by number, not address: /readyz is public.
func (s *Store) Degraded(ctx context.Context) []string {
	if s.router == nil {
		return nil
	}
	up := s.router.probe(ctx)
	var out []string
	for i, sh := range s.router.shards {
		if !shardUp(up, i) {
			out = append(out, fmt.Sprintf("clickhouse shard %d: no replica answers; requests for the tenants whose data it holds answer 503", sh.num))
			continue
		}
		for j, ok := range up[i] {
			if !ok {
				out = append(out, fmt.Sprintf("clickhouse shard %d: replica %d of %d does not answer", sh.num, j+1, len(up[i])))
			}
		}
	}
	return out
}
