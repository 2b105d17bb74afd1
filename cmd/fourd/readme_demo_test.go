package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
	"github.com/fourd-dev/fourd/store/postgres/pgtest"
)

// TestREADMEDemoNumbers loads the demo tenant as `fourd demo` does (the six
// sample inventories into fresh databases, then an audit) and checks the
// figures README.md quotes for it: resources and open findings, the paging
// table and loop, the counts by severity and by dimension, and every rule
// the audit could not judge with its count (issue 29: "README's numbers are
// updated from a real run"). The samples are dated 2025-06-06 at the latest,
// so the rules' age thresholds are all crossed: the figures change with the
// rule pack or the samples, and then README must change with them.
func TestREADMEDemoNumbers(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	sum := demoAuditSummary(t)

	atoi := func(s string) int64 {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	must := func(re string) []string {
		m := regexp.MustCompile(re).FindStringSubmatch(readme)
		if m == nil {
			t.Fatalf("README.md has no %q", re)
		}
		return m
	}
	m := must(`audited: (\d+) resources and (\d+) open findings`)
	if atoi(m[1]) != sum.ResourcesScanned || atoi(m[2]) != sum.FindingsOpen {
		t.Errorf("README says the demo has %s resources and %s open findings; a demo load gives %d and %d",
			m[1], m[2], sum.ResourcesScanned, sum.FindingsOpen)
	}
	m = must(`Paging the demo data \((\d+) findings of one audit over (\d+) resources\)`)
	if atoi(m[1]) != sum.FindingsOpen || atoi(m[2]) != sum.ResourcesScanned {
		t.Errorf("README's paging section says %s findings over %s resources; a demo load gives %d over %d",
			m[1], m[2], sum.FindingsOpen, sum.ResourcesScanned)
	}
	rows := regexp.MustCompile(`(?m)^\| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$`).FindAllStringSubmatch(readme, -1)
	if len(rows) != 3 {
		t.Errorf("README's paging table has %d rows, want 3", len(rows))
	}
	for _, r := range rows {
		limit, pages := atoi(r[1]), atoi(r[2])
		if want := (sum.FindingsOpen + limit - 1) / limit; pages != want || atoi(r[3]) != sum.FindingsOpen || atoi(r[4]) != sum.FindingsOpen {
			t.Errorf("README's paging row %q: want %d pages of %d findings", r[0], want, sum.FindingsOpen)
		}
	}
	m = must(`# pages=(\d+) findings=(\d+)`)
	if atoi(m[1]) != (sum.FindingsOpen+99)/100 || atoi(m[2]) != sum.FindingsOpen {
		t.Errorf("README's paging loop prints pages=%s findings=%s; want pages=%d findings=%d",
			m[1], m[2], (sum.FindingsOpen+99)/100, sum.FindingsOpen)
	}

	m = must(`By severity: critical (\d+), high (\d+), medium (\d+), low (\d+), info (\d+)`)
	for i, sev := range []engine.Severity{engine.SeverityCritical, engine.SeverityHigh, engine.SeverityMedium, engine.SeverityLow, engine.SeverityInfo} {
		if atoi(m[i+1]) != sum.BySeverity[sev] {
			t.Errorf("README: %s %s; a demo load gives %d (%v)", sev, m[i+1], sum.BySeverity[sev], sum.BySeverity)
		}
	}
	m = must(`by dimension: security (\d+), compliance (\d+),\s+architecture (\d+), cost (\d+)`)
	for i, dim := range []engine.Dimension{engine.DimensionSecurity, engine.DimensionCompliance, engine.DimensionArchitecture, engine.DimensionCost} {
		if atoi(m[i+1]) != sum.ByDimension[dim] {
			t.Errorf("README: %s %s; a demo load gives %d (%v)", dim, m[i+1], sum.ByDimension[dim], sum.ByDimension)
		}
	}

	// The not-evaluated sentence names every rule with its count.
	m = must(`(?s)summary\.not_evaluated.*?resources it could not judge — here (.*?)\n\n`)
	said := map[string]int64{}
	for _, p := range regexp.MustCompile(`(aws-[a-z0-9]+-\d{3}) (\d+)`).FindAllStringSubmatch(m[1], -1) {
		said[p[1]] = atoi(p[2])
	}
	if !maps.Equal(said, sum.NotEvaluated) {
		t.Errorf("README's not-evaluated counts %v; a demo load gives %v", said, sum.NotEvaluated)
	}
}

// demoAuditSummary loads the demo tenant into fresh databases and returns
// its audit's summary.
func demoAuditSummary(t *testing.T) engine.AuditSummary {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	pgURL := pgtest.NewDatabase(t)
	db := fmt.Sprintf("t_readme_demo_%d", time.Now().UnixNano())
	chtest.CreateDatabase(t, db)
	t.Cleanup(func() { chtest.DropDatabase(t, db) })
	env := map[string]string{
		"FOURD_POSTGRES_URL":       pgURL,
		"FOURD_CLICKHOUSE_URL":     chtest.WithDatabase(t, chtest.URL(), db),
		"FOURD_CLICKHOUSE_CLUSTER": chtest.Cluster(),
		"FOURD_SECRET":             "readme demo test secret of at least thirty-two bytes",
		"FOURD_DATA_DIR":           t.TempDir(),
	}
	cfg, err := loadConfig(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	s, err := openStores(ctx, cfg, log, true)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	_, audits, err := newAuditing(cfg, log, s)
	if err != nil {
		t.Fatal(err)
	}
	p, err := operatorPrincipal(ctx, cfg, log, s, demoTenant)
	if err != nil {
		t.Fatal(err)
	}
	done, err := demoData(ctx, cfg, log, s, audits, p, "../../testdata/inventory", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if done.Summary == nil {
		t.Fatalf("the demo audit %s has no summary", done.ID)
	}
	return *done.Summary
}
