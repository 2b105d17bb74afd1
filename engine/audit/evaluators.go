// Package audit runs audits: Service and its Operator queue, claim and run
// them (stream the inventory through the evaluators, write the snapshot,
// carry resolved findings forward, diff it against the previous one,
// commit the audit with its events), and Evaluators is the 4D evaluation
// of one audit: the built-in rule pack (engine/rules) and the tenant's
// custom policies (engine/policy) behind the engine's Evaluators
// interface, so that engine imports neither. What an audit needs from the
// read path is its Reads. NewService returns the Service, which the API
// adapters and `fourd audit` take, and the Operator, the workers' side
// only cmd/fourd holds (claim and run queued audits, run one claimed
// audit).
package audit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/policy"
	"github.com/fourd-dev/fourd/engine/rules"
)

// Evaluators builds per-audit evaluators and checks policies.
type Evaluators struct {
	compiler *policy.Compiler
}

var _ engine.Evaluators = (*Evaluators)(nil)

// New returns Evaluators compiling policies with c (policy.Default() when nil).
func New(c *policy.Compiler) *Evaluators {
	if c == nil {
		c = policy.Default()
	}
	return &Evaluators{compiler: c}
}

// NormalizePolicy fills a policy's defaults.
func (e *Evaluators) NormalizePolicy(p engine.Policy) engine.Policy { return policy.Normalize(p) }

// ValidatePolicy compiles and type-checks a policy being written.
func (e *Evaluators) ValidatePolicy(p engine.Policy) error { return e.compiler.Validate(p) }

// DryRunPolicy evaluates a raise policy over resources, writing nothing.
func (e *Evaluators) DryRunPolicy(ctx context.Context, p engine.Policy, resources iter.Seq2[engine.Resource, error], limit int) (engine.PolicyDryRun, error) {
	r, err := e.compiler.DryRun(ctx, p, resources, limit)
	if err != nil {
		return engine.PolicyDryRun{}, err
	}
	out := engine.PolicyDryRun{Matches: make([]engine.PolicyMatch, len(r.Matches)), Matched: r.Matched,
		Scanned: r.Scanned, OutOfScope: r.OutOfScope, Errors: r.Errors, ErrorSamples: []string{}}
	for i, m := range r.Matches {
		out.Matches[i] = engine.PolicyMatch{ResourceID: m.ResourceID, Name: m.Name, Type: m.Type}
	}
	for _, s := range r.ErrorSamples {
		out.ErrorSamples = append(out.ErrorSamples, fmt.Sprintf("%s: %s: %s", s.ResourceID, s.Reason, s.Message))
	}
	return out, nil
}

// NewEvaluator compiles the enabled policies for one audit of a tenant. A
// policy that no longer compiles (e.g. after a change of the environment)
// fails the audit with its validation error rather than being skipped
// silently.
func (e *Evaluators) NewEvaluator(tenantID string, policies []engine.Policy, now time.Time) (engine.Evaluator, error) {
	ev := &evaluator{tenantID: tenantID, now: now, auditor: rules.NewAuditor(now), ctx: context.Background()}
	for _, p := range policies {
		prg, err := e.compiler.Compile(policy.Normalize(p))
		if err != nil {
			return nil, fmt.Errorf("policy %s (%s) does not compile: %w", p.ID, p.Name, err)
		}
		switch prg.Policy().Effect {
		case engine.PolicyRaise:
			ev.raise = append(ev.raise, prg)
		case engine.PolicySeverityAtLeast:
			ev.atLeast = append(ev.atLeast, prg)
		case engine.PolicySeverityAtMost:
			ev.atMost = append(ev.atMost, prg)
		}
	}
	return ev, nil
}

// evaluator evaluates one audit's resources. Evaluate is safe for
// concurrent use: the rules are stateless and the policies' programs are
// immutable; only the account facts the account-wide rules gather are
// shared, behind mu.
type evaluator struct {
	mu       sync.Mutex
	tenantID string
	now      time.Time
	ctx      context.Context
	auditor  *rules.Auditor
	raise    []*policy.Program
	atLeast  []*policy.Program
	atMost   []*policy.Program
	notEval  map[string]int64 // set by Finish
	judged   map[string]int64 // set by Finish
	// failed counts each policy's failed evaluations, with the first
	// failure; behind mu.
	failed map[string]*engine.PolicyErrors
}

// fail records a failed evaluation of p on r.
func (ev *evaluator) fail(p *policy.Program, r engine.Resource, err error) {
	reason, msg := string(policy.ReasonRuntime), err.Error()
	var ee *policy.EvalError
	if errors.As(err, &ee) {
		reason, msg = string(ee.Reason), ee.Message
	}
	pol := p.Policy()
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if ev.failed == nil {
		ev.failed = map[string]*engine.PolicyErrors{}
	}
	pe, ok := ev.failed[pol.ID]
	if !ok {
		pe = &engine.PolicyErrors{PolicyID: pol.ID, PolicyName: pol.Name, Reason: reason, Message: msg, ResourceID: r.ID}
		ev.failed[pol.ID] = pe
	}
	pe.Errors++
}

// PolicyErrors lists the policies whose evaluation failed, by id.
func (ev *evaluator) PolicyErrors() []engine.PolicyErrors {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if len(ev.failed) == 0 {
		return nil
	}
	out := make([]engine.PolicyErrors, 0, len(ev.failed))
	for _, pe := range ev.failed {
		out = append(out, *pe)
	}
	slices.SortFunc(out, func(a, b engine.PolicyErrors) int { return strings.Compare(a.PolicyID, b.PolicyID) })
	return out
}

func (ev *evaluator) Evaluate(r engine.Resource) ([]engine.Finding, int) {
	o := rules.AssessDeferring(r, ev.now)
	var out []engine.Finding
	if n := len(o.Violations) + len(ev.raise); n > 0 {
		out = make([]engine.Finding, 0, n)
	}
	for _, v := range o.Violations {
		out = append(out, ev.ruleFinding(r, v))
	}
	ev.mu.Lock()
	ev.auditor.Record(r, o)
	ev.mu.Unlock()
	if len(ev.raise)+len(ev.atLeast)+len(ev.atMost) == 0 {
		return out, 0
	}
	attrs, err := policy.ParseAttributes(r.Attributes)
	if err != nil {
		for _, group := range [][]*policy.Program{ev.raise, ev.atLeast, ev.atMost} {
			for _, p := range group {
				ev.fail(p, r, err)
			}
		}
		return out, len(ev.raise) + len(ev.atLeast) + len(ev.atMost)
	}
	errs := 0
	in := policy.Input{Resource: r, Attributes: attrs, Tags: r.Tags.Map()}
	if len(ev.atLeast)+len(ev.atMost) > 0 {
		for i := range out {
			errs += ev.adjust(&in, &out[i])
		}
	}
	for _, p := range ev.raise {
		ok, err := p.Match(ev.ctx, in)
		if err != nil {
			ev.fail(p, r, err)
			errs++
			continue
		}
		if ok {
			out = append(out, p.Finding(r, ev.now))
		}
	}
	return out, errs
}

// adjust applies the severity policies to one built-in finding: every
// severity_at_least first, then every severity_at_most, so that lowering
// wins deterministically. The reason lands in the evidence.
func (ev *evaluator) adjust(in *policy.Input, f *engine.Finding) int {
	errs := 0
	var reason string
	for _, group := range [][]*policy.Program{ev.atLeast, ev.atMost} {
		for _, p := range group {
			in.Finding = f
			ok, err := p.Match(ev.ctx, *in)
			if err != nil {
				ev.fail(p, in.Resource, err)
				errs++
				continue
			}
			if !ok {
				continue
			}
			if sev, changed := p.AdjustSeverity(*f); changed {
				pol := p.Policy()
				reason = fmt.Sprintf("policy %q (%s, version %d) sets %s %s", pol.Name, pol.ID, pol.Version,
					pol.Effect, pol.Severity)
				f.Severity = sev
			}
		}
	}
	in.Finding = nil
	if reason != "" {
		var ev map[string]any
		if json.Unmarshal(f.Evidence, &ev) != nil || ev == nil {
			ev = map[string]any{}
		}
		ev["severity_reason"] = reason
		if b, err := json.Marshal(ev); err == nil {
			f.Evidence = b
		}
	}
	return errs
}

func (ev *evaluator) Finish() ([]engine.Finding, []engine.Resource) {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	var missing []engine.Resource
	seen := map[string]bool{}
	avs := ev.auditor.Finish()
	findings := make([]engine.Finding, 0, len(avs))
	for i := range avs {
		av := avs[i]
		avs[i] = rules.AccountViolation{} // its evidence and resource may go as the findings grow
		r := av.Resource
		r.TenantID = ev.tenantID
		r.ID = engine.ResourceID(ev.tenantID, r.Provider, r.NativeID)
		if av.Rule.Account && r.FirstSeenAt.IsZero() && !seen[r.ID] { // synthesized: not in the inventory
			seen[r.ID] = true
			missing = append(missing, r)
		}
		f := ev.ruleFinding(r, av.Violation)
		if !av.Rule.Account && len(ev.atLeast)+len(ev.atMost) > 0 {
			// A check that waited for its account's facts: the severity
			// policies apply to it as to the others.
			if attrs, err := policy.ParseAttributes(r.Attributes); err == nil {
				in := policy.Input{Resource: r, Attributes: attrs, Tags: r.Tags.Map()}
				ev.adjust(&in, &f)
			}
		}
		findings = append(findings, f)
	}
	ev.notEval = ev.auditor.NotEvaluated()
	ev.judged = ev.auditor.Evaluated()
	return findings, missing
}

// NotEvaluated counts, once Finish returned, the resources (or accounts)
// each rule could not judge for want of data.
func (ev *evaluator) NotEvaluated() map[string]int64 {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	out := make(map[string]int64, len(ev.notEval))
	for id, n := range ev.notEval {
		out[id] = n
	}
	return out
}

// ruleFinding turns a rule violation on a resource into a finding.
func (ev *evaluator) ruleFinding(r engine.Resource, v rules.Violation) engine.Finding {
	rule := v.Rule
	compliance := rule.Compliance
	if compliance == nil {
		compliance = []string{}
	}
	return engine.Finding{
		ID: engine.FindingID(ev.tenantID, rule.ID, r.ID), TenantID: ev.tenantID, ResourceID: r.ID,
		RuleID: rule.ID, Dimension: rule.Dimension, Severity: v.Severity, Status: engine.StatusOpen,
		Title: rule.Title, Description: rule.Description, Remediation: rule.Remediation,
		Evidence: v.EvidenceJSON(), Compliance: compliance,
		ResourceType: r.Type, Provider: r.Provider, Account: r.Account, Region: r.Region,
		FirstSeenAt: ev.now, LastSeenAt: ev.now,
	}
}

// Evaluated counts, once Finish returned, the resources (or accounts) each
// rule judged, passed or failed.
func (ev *evaluator) Evaluated() map[string]int64 {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	out := make(map[string]int64, len(ev.judged))
	for id, n := range ev.judged {
		out[id] = n
	}
	return out
}
