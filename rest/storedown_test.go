package rest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/findings"
	"github.com/fourd-dev/fourd/engine/identity"
	"github.com/fourd-dev/fourd/engine/reporting"
	"github.com/fourd-dev/fourd/internal/testserver"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/postgres"
	"github.com/fourd-dev/fourd/store/storetest"
)

// viaProxies returns an envOptions.engine that connects the Service's
// stores to the test databases through proxies, which the test makes
// refuse or hang.
func viaProxies(t *testing.T, px **storetest.Proxied) func(*findings.Config) {
	return func(c *findings.Config) {
		p := storetest.NewProxied(t, c.Findings.(*clickhouse.Store), c.Tenants.(*postgres.Store))
		*px = p
		c.Findings, c.Resources, c.Snapshots, c.EventLog = p.CH, p.CH, p.CH, p.CH
		c.Tenants, c.Audits, c.Overrides, c.Events = p.PG, p.PG, p.PG, p.PG
	}
}

// A store that refuses connections or accepts and never answers makes
// reads answer 503 unavailable with Retry-After within the read deadline,
// not 500 after the driver's timeouts; when the store is back, the same
// requests succeed without a restart (issue 28).
func TestStoreDownAnswers503(t *testing.T) {
	const readTimeout = 2 * time.Second
	var px *storetest.Proxied
	e := newEnv(t, envOptions{findingsA: 8, findingsB: 2, engine: viaProxies(t, &px),
		reporting: func(c *reporting.Config) { c.Reports = px.PG },
		stores:    func(s *testserver.Stores) { s.Policies, s.Inventory, s.Decisions = px.PG, px.CH, px.PG },
		config:    func(c *Config) { c.ReadTimeout = readTimeout }})
	// Each subtest asks with another limit, so that no answer comes from a
	// cache the first success filled.
	chPaths := []string{"/v1/findings?limit=%d", "/v1/findings/summary?severity=high&group_by=dimension&rule_id=r%d", "/v1/resources?limit=%d"}
	// The first request authenticates a fresh token (PostgreSQL answers
	// before any store a handler reads); the others reach their stores with
	// a cached token, audits again, policies their own (the Stores hook).
	pgPaths := []string{"/v1/audits?limit=%d", "/v1/audits?limit=%d", "/v1/policies?limit=%d", "/v1/reports?limit=%d"}
	n := 0
	for _, c := range []struct {
		store string
		proxy *storetest.Proxy
		paths []string
	}{{"clickhouse", px.CHProxy, chPaths}, {"postgres", px.PGProxy, pgPaths}} {
		for _, mode := range []struct {
			name string
			set  func(*storetest.Proxy)
		}{{"refused", (*storetest.Proxy).Refuse}, {"hung", (*storetest.Proxy).Hang}} {
			t.Run(c.store+"/"+mode.name, func(t *testing.T) {
				n++
				// A token not seen yet: authenticating it reads PostgreSQL.
				it, err := e.ops.IssueToken(context.Background(), identity.IssueTokenInput{TenantSlug: "acme",
					Email: "admin@acme.test", Name: "fresh"})
				if err != nil {
					t.Fatal(err)
				}
				paths := make([]string, len(c.paths))
				for i, p := range c.paths {
					paths[i] = fmt.Sprintf(p, n)
				}
				mode.set(c.proxy)
				for i, path := range paths {
					token := e.tokA
					if i == 0 && c.store == "postgres" {
						token = it.Secret
					}
					start := time.Now()
					r := e.get(t, path, token)
					took := time.Since(start)
					if r.status != 503 || errCode(r.body) != engine.CodeUnavailable || r.header.Get("Retry-After") == "" {
						t.Errorf("GET %s: %d %s (Retry-After %q), want 503 unavailable with Retry-After",
							path, r.status, r.body, r.header.Get("Retry-After"))
					}
					if took > readTimeout+2*time.Second {
						t.Errorf("GET %s took %v, want at most the read deadline %v (and a little)", path, took, readTimeout)
					}
				}
				c.proxy.Forward()
				for _, path := range paths {
					deadline := time.Now().Add(15 * time.Second)
					for {
						r := e.get(t, path, e.tokA)
						if r.status == 200 {
							break
						}
						if time.Now().After(deadline) {
							t.Fatalf("GET %s after the store came back: %d %s", path, r.status, r.body)
						}
						time.Sleep(200 * time.Millisecond)
					}
				}
			})
		}
	}
}
