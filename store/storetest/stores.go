package storetest

import (
	"context"
	"net/url"
	"testing"

	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
	"github.com/fourd-dev/fourd/store/postgres"
	"github.com/fourd-dev/fourd/store/postgres/pgtest"
)

// Proxied are stores on the test databases of a ClickHouse and a
// PostgreSQL store (made by chtest and pgtest) that connect through
// proxies, which a test makes refuse or hang.
type Proxied struct {
	CH      *clickhouse.Store
	PG      *postgres.Store
	CHProxy *Proxy
	PGProxy *Proxy
}

// NewProxied opens stores on ch's and pg's databases through new proxies;
// they are closed when the test ends.
func NewProxied(t testing.TB, ch *clickhouse.Store, pg *postgres.Store) *Proxied {
	t.Helper()
	ctx := context.Background()
	p := &Proxied{}
	chURL, err := url.Parse(chtest.WithDatabase(t, chtest.URL(), ch.Database()))
	if err != nil {
		t.Fatal(err)
	}
	p.CHProxy = NewProxy(t, chURL.Host)
	chURL.Host = p.CHProxy.Addr()
	if p.CH, err = clickhouse.Open(ctx, clickhouse.Config{URL: chURL.String(), Cluster: chtest.Cluster()}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.CH.Close() })
	pgURL, err := url.Parse(pgtest.URL(t, pg))
	if err != nil {
		t.Fatal(err)
	}
	p.PGProxy = NewProxy(t, pgURL.Host)
	pgURL.Host = p.PGProxy.Addr()
	if p.PG, err = postgres.Open(ctx, postgres.Config{URL: pgURL.String()}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.PG.Close)
	return p
}
