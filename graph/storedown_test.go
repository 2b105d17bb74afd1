package graph_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/findings"
	"github.com/fourd-dev/fourd/engine/identity"
	"github.com/fourd-dev/fourd/engine/reporting"
	"github.com/fourd-dev/fourd/graph"
	"github.com/fourd-dev/fourd/internal/testserver"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/postgres"
	"github.com/fourd-dev/fourd/store/storetest"
)

// A store that refuses connections or accepts and never answers makes a
// query answer HTTP 503 with Retry-After and the unavailable code within
// the read deadline; when the store is back the same query succeeds
// (issue 28).
func TestStoreDownAnswers503(t *testing.T) {
	const readTimeout = 2 * time.Second
	var px *storetest.Proxied
	e := newEnv(t, envOptions{findingsA: 6, findingsB: 2,
		graph: func(c *graph.Config) { c.ReadTimeout = readTimeout },
		engine: func(c *findings.Config) {
			px = storetest.NewProxied(t, c.Snapshots.(*clickhouse.Store), c.Tenants.(*postgres.Store))
			c.Findings, c.Resources, c.Snapshots, c.Trends = px.CH, px.CH, px.CH, px.CH
			c.Tenants, c.Audits, c.Overrides = px.PG, px.PG, px.PG
		},
		reporting:     func(c *reporting.Config) { c.Reports = px.PG },
		serviceStores: func(s *testserver.Stores) { s.Policies, s.Inventory, s.Decisions = px.PG, px.CH, px.PG }})
	n := 0
	// fresh asks with a token not seen yet, whose authentication reads
	// PostgreSQL before any store a resolver reads; the others ask with a
	// cached token, so the field's own store answers (policies: the Stores
	// hook's proxy).
	for _, c := range []struct {
		store, field string
		proxy        *storetest.Proxy
		query        string
		fresh        bool
	}{
		{"clickhouse", "findings", px.CHProxy, `{ findings(first: %d) { totalCount edges { node { id } } } }`, false},
		{"clickhouse", "resources", px.CHProxy, `{ resources(first: %d) { edges { node { id } } } }`, false},
		{"postgres", "authentication", px.PGProxy, `{ policies(first: %d) { edges { node { id } } } }`, true},
		{"postgres", "policies", px.PGProxy, `{ policies(first: %d) { edges { node { id } } } }`, false},
	} {
		for _, mode := range []struct {
			name string
			set  func(*storetest.Proxy)
		}{{"refused", (*storetest.Proxy).Refuse}, {"hung", (*storetest.Proxy).Hang}} {
			n++
			query := fmt.Sprintf(c.query, n)
			t.Run(c.store+"/"+c.field+"/"+mode.name, func(t *testing.T) {
				// A token not seen yet: authenticating it reads PostgreSQL.
				it, err := e.ops.IssueToken(context.Background(), identity.IssueTokenInput{TenantSlug: "acme",
					Email: "admin@acme.test", Name: "fresh"})
				if err != nil {
					t.Fatal(err)
				}
				token := e.tokA
				if c.fresh {
					token = it.Secret
				}
				mode.set(c.proxy)
				start := time.Now()
				r := e.gql(t, token, query, nil)
				took := time.Since(start)
				if r.status != http.StatusServiceUnavailable || r.code() != engine.CodeUnavailable || r.header.Get("Retry-After") == "" {
					t.Errorf("%s: %d %+v (Retry-After %q), want 503 unavailable with Retry-After", query, r.status, r.Errors,
						r.header.Get("Retry-After"))
				}
				if took > readTimeout+2*time.Second {
					t.Errorf("%s took %v, want at most the read deadline %v (and a little)", query, took, readTimeout)
				}
				c.proxy.Forward()
				for deadline := time.Now().Add(15 * time.Second); ; {
					r := e.gql(t, token, query, nil)
					if r.status == http.StatusOK && len(r.Errors) == 0 {
						break
					}
					if time.Now().After(deadline) {
						t.Fatalf("%s after the store came back: %d %+v", query, r.status, r.Errors)
					}
					time.Sleep(200 * time.Millisecond)
				}
			})
		}
	}
}
