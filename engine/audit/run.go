package audit

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"runtime"
	"sync"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Audit worker tuning.
const (
	auditLease         = 10 * time.Minute
	auditProgressEvery = 2 * time.Second
)

// errAuditCanceled stops a running audit whose status became canceled.
var errAuditCanceled = errors.New("audit canceled")

// RunAuditWorker claims queued audits and runs them until ctx is done. Any
// number of workers, in any number of replicas, may run: the queue hands an
// audit to one of them, and an audit whose worker died is claimed again
// once its lease expires.
func (o *Operator) RunAuditWorker(ctx context.Context, worker string, poll time.Duration) error {
	s := o.s
	if err := s.auditsAvailable(); err != nil {
		return err
	}
	for {
		a, err := s.cfg.Queue.ClaimAudit(ctx, worker, auditLease)
		switch {
		case ctx.Err() != nil:
			return nil
		case engine.IsNotFound(err):
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(poll):
			}
			continue
		case err != nil:
			s.log.ErrorContext(ctx, "claiming an audit", "err", err)
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(poll):
			}
			continue
		}
		s.runClaimed(ctx, a)
	}
}

// auditNowLease is the lease of an audit AuditNow runs: a command-line
// audit of a large tenant may outlast a worker's auditLease.
const auditNowLease = 30 * time.Minute

// AuditNow queues an audit of p's tenant and runs queued audits in the
// caller's process, as worker, until it has run: what `fourd audit` does.
// The queue hands audits out oldest first, so audits queued before it (of
// any tenant) run first. It returns the audit as it ended (completed,
// failed or canceled); conflict when the tenant has an audit queued or
// running already.
func (s *Service) AuditNow(ctx context.Context, p engine.Principal, worker string) (engine.Audit, error) {
	a, err := s.StartAudit(ctx, p)
	if err != nil {
		return engine.Audit{}, err
	}
	var done engine.Audit
	for done.ID != a.ID {
		claimed, err := s.cfg.Queue.ClaimAudit(ctx, worker, auditNowLease)
		if err != nil {
			return engine.Audit{}, fmt.Errorf("running audit %s: %w", a.ID, err)
		}
		done = s.runClaimed(ctx, claimed)
	}
	return done, nil
}

// RunAudit runs one claimed audit to its end: completed, failed or
// canceled. It reports the outcome in the audit record, not as an error.
func (o *Operator) RunAudit(ctx context.Context, a engine.Audit) engine.Audit {
	return o.s.runClaimed(ctx, a)
}

// runClaimed is RunAudit.
func (s *Service) runClaimed(ctx context.Context, a engine.Audit) engine.Audit {
	log := s.log.With("audit_id", a.ID, "tenant_id", a.TenantID)
	start := time.Now()
	out, err := s.runAudit(ctx, a)
	if err == nil {
		log.InfoContext(ctx, "audit completed", "duration", time.Since(start), "summary", out.Summary)
		return out
	}
	if ctx.Err() != nil {
		// Shutting down: leave the audit running; its lease expires and
		// another worker takes it over.
		log.WarnContext(ctx, "audit interrupted by shutdown", "err", err)
		return out
	}
	now := s.now().UTC()
	out.CompletedAt = &now
	if errors.Is(err, errAuditCanceled) {
		out.Status = engine.AuditCanceled
	} else {
		out.Status = engine.AuditFailed
		out.Error = engine.ErrorMessage(err)
		if engine.ErrorCode(err) == engine.CodeInternal {
			out.Error = "internal error while auditing; the audit can be started again"
		}
		log.ErrorContext(ctx, "audit failed", "err", err)
	}
	if err := s.cfg.Snapshots.DropSnapshot(ctx, a.TenantID, a.ID); err != nil {
		log.WarnContext(ctx, "dropping a partial snapshot", "err", err)
	}
	if err := s.cfg.Queue.CompleteAudit(ctx, func(func(engine.Event, error) bool) {}, func() engine.Audit { return out }); err != nil {
		log.ErrorContext(ctx, "recording the audit's end", "err", err)
	}
	return out
}

func (s *Service) runAudit(ctx context.Context, a engine.Audit) (engine.Audit, error) {
	now := s.now().UTC()
	if a.StartedAt == nil {
		a.StartedAt = &now
	}
	a.Status = engine.AuditRunning
	if err := s.cfg.Audits.UpdateAudit(ctx, a); err != nil {
		return a, err
	}
	if a.Attempts > 1 { // a retry: a dead worker may have left rows behind
		if err := s.cfg.Snapshots.DropSnapshot(ctx, a.TenantID, a.ID); err != nil {
			return a, err
		}
	} else if err := s.publishAudit(ctx, engine.EventAuditStarted, a); err != nil {
		return a, err
	}

	prevID := ""
	if prev, err := s.cfg.Audits.LatestCompletedAudit(ctx, a.TenantID); err == nil {
		prevID = prev.ID
	} else if !engine.IsNotFound(err) {
		return a, err
	}
	eval, err := s.auditEvaluator(ctx, a.TenantID, now)
	if err != nil {
		return a, err
	}
	overrides, err := s.cfg.Reads.Overrides(ctx, a.TenantID)
	if err != nil {
		return a, err
	}
	accepted := make(map[string]engine.FindingOverride, len(overrides))
	for id, o := range overrides {
		if o.Resolution.Manual() {
			accepted[id] = o
		}
	}
	firstSeen, err := s.firstSeen(ctx, a.TenantID, prevID)
	if err != nil {
		return a, err
	}

	var evalErrors int64
	lastProgress := time.Now()
	// finish readies one evaluated finding for the snapshot.
	finish := func(f engine.Finding) engine.Finding {
		f.TenantID, f.AuditID, f.Status, f.LastSeenAt = a.TenantID, a.ID, engine.StatusOpen, now
		f.FirstSeenAt = now
		if t, ok := firstSeen.at(f.ID); ok {
			f.FirstSeenAt = t
		}
		if o, ok := accepted[f.ID]; ok {
			at := o.CreatedAt
			f.Status, f.Resolution, f.ResolvedAt = engine.StatusResolved, o.Resolution, &at
		}
		return f
	}
	findings := func(yield func(engine.Finding, error) bool) {
		for ev, err := range s.evaluateInventory(ctx, a.TenantID, eval) {
			if err != nil {
				yield(engine.Finding{}, err)
				return
			}
			evalErrors += int64(ev.errors)
			for _, f := range ev.findings {
				if !yield(finish(f), nil) {
					return
				}
			}
			a.Progress.ResourcesScanned++
			if time.Since(lastProgress) > auditProgressEvery {
				lastProgress = time.Now()
				if err := s.auditProgress(ctx, a); err != nil {
					yield(engine.Finding{}, err)
					return
				}
			}
		}
		// Account-wide rules, once every resource was seen. The accounts
		// they judge may have no resource of their own yet: add it, so the
		// finding attaches to something listable.
		fs, missing := eval.Finish()
		if len(missing) > 0 {
			src := func(yield func(engine.Resource, error) bool) {
				for _, r := range missing {
					r.FirstSeenAt, r.LastSeenAt = now, now
					if !yield(r, nil) {
						return
					}
				}
			}
			if _, err := s.cfg.Resources.WriteResources(ctx, a.TenantID, src); err != nil {
				yield(engine.Finding{}, err)
				return
			}
		}
		for _, f := range fs {
			if !yield(finish(f), nil) {
				return
			}
		}
	}
	phases := map[string]time.Duration{}
	phase := func(name string, start time.Time) { phases[name] = time.Since(start).Round(time.Millisecond) }
	t0 := time.Now()
	if _, err := s.cfg.Snapshots.AppendSnapshot(ctx, a.TenantID, a.ID, findings); err != nil {
		return a, err
	}
	phase("evaluate_and_write", t0)
	firstSeen = nil // let the collector have it before the diff
	t0 = time.Now()
	if prevID != "" {
		keepSince := now.Add(-s.cfg.ResolvedRetention)
		if err := s.cfg.Snapshots.CarryForward(ctx, a.TenantID, prevID, a.ID, now, keepSince); err != nil {
			return a, err
		}
	}
	phase("carry_forward", t0)
	t0 = time.Now()
	if err := s.cfg.Snapshots.FinalizeSnapshot(ctx, a.TenantID, a.ID); err != nil {
		return a, err
	}
	phase("finalize", t0)
	t0 = time.Now()
	// Active mute rules apply to the new snapshot before it becomes the
	// latest, so reads never see it unmuted.
	muted, err := s.cfg.Reads.AuditMutes(ctx, a.TenantID, a.ID)
	if err != nil {
		return a, err
	}
	phase("mute_rules", t0)
	t0 = time.Now()
	// Their set too, so that the first reads of the snapshot find it built
	// (reads are correct without it, only slower: a failure is logged).
	if err := s.cfg.Reads.SettleMuteSet(ctx, a.TenantID, a.ID); err != nil {
		s.log.WarnContext(ctx, "building the audit's mute set failed", "audit_id", a.ID, "error", err)
	}
	phase("mute_set", t0)
	if err := s.auditProgress(ctx, a); err != nil {
		return a, err
	}
	sum, err := s.auditSummary(ctx, a)
	if err != nil {
		return a, err
	}
	sum.NotEvaluated = eval.NotEvaluated()
	sum.Evaluated = eval.Evaluated()
	sum.PolicyErrors = eval.PolicyErrors()
	if evalErrors > 0 {
		failed := make([]string, 0, len(sum.PolicyErrors))
		for _, pe := range sum.PolicyErrors {
			failed = append(failed, pe.PolicyID+": "+pe.Reason)
		}
		s.log.WarnContext(ctx, "policy evaluation errors during audit", "audit_id", a.ID, "errors", evalErrors, "policies", failed)
	}
	done := s.now().UTC()
	a.Status, a.CompletedAt, a.Summary = engine.AuditCompleted, &done, &sum
	a.Progress.ResourcesTotal = a.Progress.ResourcesScanned
	events := s.changeEvents(ctx, a, prevID, &sum, muted)
	t0 = time.Now()
	err = s.cfg.Queue.CompleteAudit(ctx, events, func() engine.Audit { return a })
	// The latest completed audit changed (or may have, if the commit's
	// answer was lost); other replicas hear of it through the change feed.
	s.cfg.Reads.Invalidate(a.TenantID)
	if err != nil {
		return a, err
	}
	phase("diff_and_commit", t0)
	t0 = time.Now()
	if s.cfg.Postures != nil {
		s.cfg.Postures.RecordCompliancePosture(ctx, a)
	}
	phase("compliance_posture", t0)
	s.log.InfoContext(ctx, "audit phases", "audit_id", a.ID, "phases", phases)
	return a, nil
}

// evaluated is what the evaluator made of one resource.
type evaluated struct {
	findings []engine.Finding
	errors   int
}

// evaluateInventory streams the tenant's inventory through the evaluator on
// every core: one goroutine reads, GOMAXPROCS evaluate (Evaluator.Evaluate
// is safe for concurrent use), and the caller consumes the results, in no
// particular order (the snapshot store sorts). Stopping early cancels the
// reader and the workers.
func (s *Service) evaluateInventory(ctx context.Context, tenantID string, eval engine.Evaluator) iter.Seq2[evaluated, error] {
	return func(yield func(evaluated, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		in := make(chan engine.Resource, 512)
		out := make(chan evaluated, 512)
		var readErr error
		go func() {
			defer close(in)
			readErr = s.cfg.Inventory.StreamResources(ctx, tenantID, func(r engine.Resource) error {
				select {
				case in <- r:
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			})
		}()
		var wg sync.WaitGroup
		for range max(1, runtime.GOMAXPROCS(0)) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for r := range in {
					fs, n := eval.Evaluate(r)
					select {
					case out <- evaluated{fs, n}:
					case <-ctx.Done():
						return
					}
				}
			}()
		}
		go func() { wg.Wait(); close(out) }()
		defer func() { // on an early stop, let the goroutines end
			cancel()
			for range out {
			}
		}()
		for ev := range out {
			if !yield(ev, nil) {
				return
			}
		}
		// out is closed: the workers are done, and so is the reader.
		if readErr != nil {
			yield(evaluated{}, readErr)
		}
	}
}

// auditEvaluator compiles the tenant's enabled policies for one audit.
func (s *Service) auditEvaluator(ctx context.Context, tenantID string, now time.Time) (engine.Evaluator, error) {
	all, err := s.cfg.Queue.AllPolicies(ctx, tenantID)
	if err != nil {
		return nil, err
	}
	var enabled []engine.Policy
	for _, p := range all {
		if p.Enabled {
			enabled = append(enabled, p)
		}
	}
	return s.cfg.Evaluators.NewEvaluator(tenantID, enabled, now)
}

// firstSeen maps every finding id of the previous snapshot to when it was
// first seen, so that a finding keeps its age across audits. It holds one
// small entry per finding, not the findings.
func (s *Service) firstSeen(ctx context.Context, tenantID, prevID string) (firstSeenIndex, error) {
	out := firstSeenIndex{}
	if prevID == "" {
		return out, nil
	}
	err := s.cfg.Snapshots.FirstSeen(ctx, tenantID, prevID, func(id string, at time.Time) error {
		// A finding id is checked when it is written; one that is not
		// could match no finding of this audit anyway.
		if k, ok := engine.ParseID(engine.PrefixFinding, id); ok {
			out[k] = at.UnixNano()
		}
		return nil
	})
	return out, err
}

// firstSeenIndex is when findings were first seen, by the 16 bytes their
// ids encode: an entry of 24 bytes where an id string and a time.Time
// took 72 (and a map of them, with the strings it kept, 138 MB of the
// second audit's live heap for 1.5M findings, measured 2026-11-21).
type firstSeenIndex map[[16]byte]int64

func (x firstSeenIndex) at(id string) (time.Time, bool) {
	k, ok := engine.ParseID(engine.PrefixFinding, id)
	if !ok {
		return time.Time{}, false
	}
	ns, ok := x[k]
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(0, ns).UTC(), true
}

// auditProgress records progress and notices a cancellation.
func (s *Service) auditProgress(ctx context.Context, a engine.Audit) error {
	cur, err := s.cfg.Audits.GetAudit(ctx, a.TenantID, a.ID)
	if err != nil {
		return err
	}
	if cur.Status == engine.AuditCanceled {
		return errAuditCanceled
	}
	return s.cfg.Audits.UpdateAudit(ctx, a)
}

// auditSummary counts the open findings of the new snapshot.
func (s *Service) auditSummary(ctx context.Context, a engine.Audit) (engine.AuditSummary, error) {
	sum := engine.AuditSummary{ResourcesScanned: a.Progress.ResourcesScanned,
		BySeverity: map[engine.Severity]int64{}, ByDimension: map[engine.Dimension]int64{}}
	for _, sev := range engine.Severities {
		sum.BySeverity[sev] = 0
	}
	for _, d := range engine.Dimensions {
		sum.ByDimension[d] = 0
	}
	groups, err := s.cfg.Findings.CountFindings(ctx, engine.FindingCountQuery{TenantID: a.TenantID,
		Filter: engine.FindingFilter{AuditID: a.ID, Status: engine.StatusOpen}, GroupBy: []engine.GroupBy{engine.GroupBySeverity, engine.GroupByDimension}})
	if err != nil {
		return sum, err
	}
	for _, g := range groups {
		sum.FindingsOpen += g.Count
		sum.BySeverity[engine.Severity(g.Key[engine.GroupBySeverity])] += g.Count
		sum.ByDimension[engine.Dimension(g.Key[engine.GroupByDimension])] += g.Count
	}
	return sum, nil
}

// publishAudit sends an audit.* event outside an audit's final commit.
func (s *Service) publishAudit(ctx context.Context, typ string, a engine.Audit) error {
	ev, err := engine.NewEvent(a.TenantID, typ, map[string]any{"audit": a}, s.now())
	if err != nil {
		return err
	}
	return s.publisher.Publish(ctx, []engine.Event{ev})
}
