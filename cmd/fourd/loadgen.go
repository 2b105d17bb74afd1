package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/benchdata"
)

// loadgen writes synthetic tenants at scale: resources spread over accounts,
// regions and types, and a completed audit whose snapshot holds findings
// with a realistic severity and dimension skew. Everything is streamed, so
// memory stays flat whatever the sizes.
func loadgen(ctx context.Context, cfg config, log *slog.Logger, args []string, stderr io.Writer) error {
	fs := newFlags("loadgen", stderr)
	prefix := fs.String("tenant", "loadgen", "tenant slug prefix; tenants are <prefix>-0, <prefix>-1, …")
	tenants := fs.Int("tenants", 1, "number of tenants")
	resources := fs.Int("resources", 100_000, "resources per tenant")
	findings := fs.Int("findings", 1_000_000, "findings per tenant (at most resources × 100)")
	accounts := fs.Int("accounts", 12, "accounts per tenant")
	seed := fs.Uint64("seed", 1, "random seed (same seed, same data)")
	owners := fs.Int("owners", 0, "if > 0, resource i also carries the tag owner=owner-<i mod owners>, so that each owner tags resources/owners resources (a selective tag that matches findings)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file")
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	// A soft limit of 400 MiB unless GOMEMLIMIT says otherwise: the
	// snapshot writer's live heap is a few bounded batches, and the limit
	// keeps the peak RSS of a 10M-finding run well under the 500 MiB the
	// issue allows at no measurable CPU cost (docs/benchmarks.md, snapshot write).
	tuneGC(0, 400<<20)
	stopProfile, err := startCPUProfile(*cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile()
	if *tenants < 1 || *resources < 1 || *findings < 0 || *accounts < 1 || *findings > *resources*len(loadgenRules) || *owners < 0 {
		return usageError{"loadgen: want tenants ≥ 1, resources ≥ 1, accounts ≥ 1, owners ≥ 0, 0 ≤ findings ≤ resources × 100"}
	}
	s, err := openStores(ctx, cfg, log, true)
	if err != nil {
		return err
	}
	defer s.close()
	// Bench data goes past the use cases on purpose (no events, no
	// evaluation): through the one operator surface that says so.
	bench, err := benchdata.New(benchdata.Config{Control: s.pg, Analytics: s.ch})
	if err != nil {
		return err
	}
	for t := range *tenants {
		slug := fmt.Sprintf("%s-%d", *prefix, t)
		ten, err := bench.Tenant(ctx, slug)
		if err != nil {
			return err
		}
		g := &synth{tenant: ten.ID, resources: *resources, accounts: *accounts, owners: *owners, seed: *seed + uint64(t), now: time.Now().UTC().Truncate(time.Second)}
		start := time.Now()
		var written atomic.Int64
		stopProgress := progress(stderr, slug+" resources", int64(*resources), &written)
		res, err := bench.WriteResources(ctx, ten.ID, g.resourceSeq(&written))
		stopProgress()
		if err != nil {
			return fmt.Errorf("%s: writing resources: %w", slug, err)
		}
		fmt.Fprintf(stderr, "%s: %d resources (%d new) in %s\n", slug, res.Written, len(res.NewIDs), time.Since(start).Round(time.Millisecond))

		audit, err := bench.StartAudit(ctx, ten.ID, g.now)
		if err != nil {
			return err
		}
		start = time.Now()
		written.Store(0)
		stopProgress = progress(stderr, slug+" findings", int64(*findings), &written)
		n, err := bench.WriteSnapshot(ctx, audit, g.findingSeq(*findings, audit.ID, &written))
		stopProgress()
		if err != nil {
			return fmt.Errorf("%s: writing findings: %w", slug, err)
		}
		elapsed := time.Since(start)
		if _, err := bench.CompleteAudit(ctx, audit, int64(*resources), n); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "%s: audit %s with %d findings in %s (%.0f rows/s)\n", slug, audit.ID, n,
			elapsed.Round(time.Millisecond), float64(n)/elapsed.Seconds())
	}
	return nil
}

// progress prints "label: n/total" (or "label: n" when total < 0) every
// second until the returned stop is called.
func progress(w io.Writer, label string, total int64, n *atomic.Int64) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if total < 0 {
					fmt.Fprintf(w, "%s: %d\n", label, n.Load())
				} else {
					fmt.Fprintf(w, "%s: %d/%d (%.0f%%)\n", label, n.Load(), total, 100*float64(n.Load())/float64(max(total, 1)))
				}
			}
		}
	}()
	return func() { close(done); <-finished }
}

var (
	loadgenRegions = []string{"us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-2"}
	loadgenTypes   = []string{"aws_instance", "aws_s3_bucket", "aws_security_group", "aws_iam_user", "aws_ebs_volume",
		"aws_db_instance", "aws_lb", "aws_eip", "aws_lambda_function", "aws_ebs_snapshot"}
	loadgenRules = func() []string {
		r := make([]string, 100)
		for i := range r {
			r[i] = fmt.Sprintf("loadgen-%03d", i)
		}
		return r
	}()
)

// synth generates one tenant's data deterministically from its seed.
type synth struct {
	tenant              string
	resources, accounts int
	owners              int // > 0: the tag owner=owner-<i mod owners> on resource i
	seed                uint64
	now                 time.Time
}

// resourceKey is what a finding needs of resource i, cheap to recompute.
func (g *synth) resourceKey(i int) (id, native, acct, region, typ string) {
	acct = fmt.Sprintf("%012d", 100000000000+uint64(i%g.accounts)*7919)
	region = loadgenRegions[(i/g.accounts)%len(loadgenRegions)]
	typ = loadgenTypes[i%len(loadgenTypes)]
	native = "arn:aws:" + typ[4:] + ":" + region + ":" + acct + ":" + typ + "/lg-" + strconv.Itoa(i)
	return engine.ResourceID(g.tenant, "aws", native), native, acct, region, typ
}

func (g *synth) resource(i int) engine.Resource {
	id, native, acct, region, typ := g.resourceKey(i)
	env := []string{"prod", "staging", "dev"}[i%3]
	attrs, _ := json.Marshal(map[string]any{"synthetic": true, "index": i})
	tags := engine.Tags{{Key: "env", Value: env}}
	if g.owners > 0 {
		tags = append(tags, engine.Tag{Key: "owner", Value: "owner-" + strconv.Itoa(i%g.owners)})
	}
	tags = append(tags, engine.Tag{Key: "team", Value: fmt.Sprintf("team-%d", i%17)}) // key order: env, owner, team
	return engine.Resource{ID: id, TenantID: g.tenant, Provider: "aws",
		Account: acct, Region: region, Type: typ, NativeID: native, Name: fmt.Sprintf("lg-%s-%d", typ[4:], i),
		Tags: tags, Attributes: attrs,
		FirstSeenAt: g.now, LastSeenAt: g.now}
}

func (g *synth) resourceSeq(n *atomic.Int64) func(func(engine.Resource, error) bool) {
	return func(yield func(engine.Resource, error) bool) {
		for i := range g.resources {
			if !yield(g.resource(i), nil) {
				return
			}
			n.Add(1)
		}
	}
}

// Skews seen in real estates: most findings are medium/low, few critical;
// security dominates.
var (
	severityWeights  = []float64{0.10, 0.30, 0.35, 0.18, 0.07} // info … critical
	dimensionWeights = []float64{0.45, 0.20, 0.15, 0.20}       // security, cost, architecture, compliance
)

func pick(r *rand.Rand, weights []float64) int {
	x := r.Float64()
	for i, w := range weights {
		if x < w {
			return i
		}
		x -= w
	}
	return len(weights) - 1
}

// findingSeq yields n findings: finding i is rule i / resources on resource
// i % resources, so every (rule, resource) pair and so every id is unique.
// What a finding shares with others (its resource's key, its title) is
// computed once, so that the generator costs little beside the write it
// drives.
func (g *synth) findingSeq(n int, auditID string, written *atomic.Int64) func(func(engine.Finding, error) bool) {
	return func(yield func(engine.Finding, error) bool) {
		r := rand.New(rand.NewPCG(g.seed, 0x4d))
		evidence := json.RawMessage(`{"synthetic":true}`)
		compliance := []string{}
		type resKey struct {
			id, acct, region, typ string
			typIndex              int
		}
		keys := make([]resKey, min(n, g.resources))
		for i := range keys {
			k := &keys[i]
			k.id, _, k.acct, k.region, k.typ = g.resourceKey(i)
			k.typIndex = i % len(loadgenTypes)
		}
		// titles[severity][dimension][type]
		titles := make([][][]string, len(engine.Severities))
		for s, sev := range engine.Severities {
			titles[s] = make([][]string, len(engine.Dimensions))
			for d, dim := range engine.Dimensions {
				for _, typ := range loadgenTypes {
					titles[s][d] = append(titles[s][d], "Synthetic "+string(sev)+" "+string(dim)+" finding on "+typ)
				}
			}
		}
		for i := range n {
			k := &keys[i%g.resources]
			rule := loadgenRules[i/g.resources]
			s, d := pick(r, severityWeights), pick(r, dimensionWeights)
			sev, dim := engine.Severities[s], engine.Dimensions[d]
			title := titles[s][d][k.typIndex]
			f := engine.Finding{ID: engine.FindingID(g.tenant, rule, k.id), TenantID: g.tenant, AuditID: auditID,
				ResourceID: k.id, RuleID: rule, Dimension: dim, Severity: sev, Status: engine.StatusOpen,
				Title: title, Description: "Generated by fourd loadgen.",
				Remediation: "None: synthetic data.", Evidence: evidence, Compliance: compliance,
				ResourceType: k.typ, Provider: "aws", Account: k.acct, Region: k.region,
				FirstSeenAt: g.now, LastSeenAt: g.now}
			if !yield(f, nil) {
				return
			}
			written.Add(1)
		}
	}
}
