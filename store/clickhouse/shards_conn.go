package clickhouse

import (
	"context"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
)

// clusterConn is the connection of a store in cluster mode: the driver's,
// with every query's subqueries made GLOBAL (globalSubqueries), and the
// queries of a scoped call (Store.scoped) routed by the router: reads skip
// a shard that is down when the call does not need it, inserts go to the
// local tables of their rows' shard (shards.go).
type clusterConn struct {
	driver.Conn
	r *router
}

// reader picks the pool a query of ctx's call runs on. When check is not
// nil, the query skipped the shards that are down and its answer holds
// only if check passes after it: the shards the call needs still answer.
func (c clusterConn) reader(ctx context.Context) (conn driver.Conn, check func() error, err error) {
	sc := scopeOf(ctx)
	if sc == nil || c.r == nil || !c.r.degraded() {
		return c.Conn, nil, nil
	}
	need := c.r.need(sc)
	if !allUp(*c.r.up.Load(), need) {
		return nil, nil, errShardDown
	}
	conn, err = c.r.skipConn()
	if err != nil {
		return nil, nil, err
	}
	return conn, func() error {
		if !c.r.answer(ctx, need) {
			return errShardDown
		}
		return nil
	}, nil
}

// failed tells the router that a query failed, so that it looks again.
func (c clusterConn) failed(err error) {
	if c.r != nil {
		c.r.noteFailure(err)
	}
}

func (c clusterConn) Query(ctx context.Context, query string, args ...any) (driver.Rows, error) {
	conn, check, err := c.reader(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := conn.Query(ctx, globalSubqueries.Replace(query), args...)
	if err != nil {
		c.failed(err)
		return nil, err
	}
	return &checkedRows{Rows: rows, c: c, check: check}, nil
}

func (c clusterConn) QueryRow(ctx context.Context, query string, args ...any) driver.Row {
	conn, check, err := c.reader(ctx)
	if err != nil {
		return errRow{err}
	}
	return checkedRow{Row: conn.QueryRow(ctx, globalSubqueries.Replace(query), args...), c: c, check: check}
}

func (c clusterConn) Select(ctx context.Context, dest any, query string, args ...any) error {
	conn, check, err := c.reader(ctx)
	if err != nil {
		return err
	}
	if err := conn.Select(ctx, dest, globalSubqueries.Replace(query), args...); err != nil {
		c.failed(err)
		return err
	}
	if check != nil {
		return check()
	}
	return nil
}

func (c clusterConn) Exec(ctx context.Context, query string, args ...any) error {
	query = globalSubqueries.Replace(query)
	if sc := scopeOf(ctx); sc != nil && c.r != nil {
		if i, local, ok := c.r.insertShard(sc, query); ok {
			// INSERT … SELECT: on a replica of the rows' shard, reading
			// through the Distributed tables like any read of the call.
			degraded := c.r.degraded()
			need := append(c.r.need(sc), i)
			if degraded && !allUp(*c.r.up.Load(), need) {
				return errShardDown
			}
			conn, err := c.r.shardConn(i, degraded)
			if err != nil {
				return err
			}
			if err := conn.Exec(ctx, local, args...); err != nil {
				c.failed(err)
				return err
			}
			if degraded && !c.r.answer(ctx, need) {
				return errShardDown
			}
			return nil
		}
	}
	conn, check, err := c.reader(ctx)
	if err != nil {
		return err
	}
	if err := conn.Exec(ctx, query, args...); err != nil {
		c.failed(err)
		return err
	}
	if check != nil {
		return check()
	}
	return nil
}

// PrepareBatch starts an INSERT: a scoped call's rows go straight into the
// local table of their shard, on the first of its replicas that answers;
// other INSERTs go through the Distributed table.
func (c clusterConn) PrepareBatch(ctx context.Context, query string, opts ...driver.PrepareBatchOption) (driver.Batch, error) {
	if sc := scopeOf(ctx); sc != nil && c.r != nil {
		if i, local, ok := c.r.insertShard(sc, query); ok {
			if !shardUp(*c.r.up.Load(), i) {
				return nil, errShardDown
			}
			conn, err := c.r.shardConn(i, false)
			if err != nil {
				return nil, err
			}
			b, err := conn.PrepareBatch(ctx, local, opts...)
			if err != nil {
				c.failed(err)
			}
			return b, err
		}
	}
	return c.Conn.PrepareBatch(ctx, query, opts...)
}

// checkedRows are the rows of a query: a failure makes the router look
// again, and a query that skipped shards is checked at the end (reader).
type checkedRows struct {
	driver.Rows
	c     clusterConn
	check func() error
	err   error
	ended bool
}

func (r *checkedRows) Next() bool {
	if r.Rows.Next() {
		return true
	}
	if !r.ended {
		r.ended = true
		if err := r.Rows.Err(); err != nil {
			r.c.failed(err)
		} else if r.check != nil {
			r.err = r.check()
		}
	}
	return false
}

func (r *checkedRows) Err() error {
	if err := r.Rows.Err(); err != nil {
		return err
	}
	return r.err
}

// checkedRow is checkedRows for one row.
type checkedRow struct {
	driver.Row
	c     clusterConn
	check func() error
}

func (r checkedRow) after(err error) error {
	if err != nil {
		r.c.failed(err)
		return err
	}
	if r.check != nil {
		return r.check()
	}
	return nil
}

func (r checkedRow) Scan(dest ...any) error { return r.after(r.Row.Scan(dest...)) }

func (r checkedRow) ScanStruct(dest any) error { return r.after(r.Row.ScanStruct(dest)) }

// errRow is a row whose query could not run.
type errRow struct{ err error }

func (r errRow) Err() error           { return r.err }
func (r errRow) Scan(...any) error    { return r.err }
func (r errRow) ScanStruct(any) error { return r.err }
