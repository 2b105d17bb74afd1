package findings

import (
	"context"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// compiledMute is a rule ready to be evaluated.
type compiledMute struct {
	rule    engine.MuteRule
	matcher engine.MuteMatcher
	matched int64
	page    []engine.Finding // matches of the current page
}

// muteRulesAvailable reports unavailable when the server has no mute
// rules configured.
func (s *Service) muteRulesAvailable() (engine.MuteCompiler, error) {
	mc, ok := s.cfg.Evaluators.(engine.MuteCompiler)
	if s.cfg.MuteRules == nil || s.cfg.MuteMatches == nil || !ok {
		return nil, engine.Errorf(engine.CodeUnavailable, "mute rules are not configured on this server")
	}
	return mc, nil
}

// muteBatch is how many open findings are evaluated (and their matches
// written) at a time when a rule is applied.
const muteBatch = 20_000

// applyToLatest applies one rule to the tenant's latest snapshot, when the
// tenant has one.
func (s *Service) applyToLatest(ctx context.Context, tenantID string, r engine.MuteRule) error {
	auditID, err := s.latestSnapshot(ctx, tenantID)
	if engine.IsNotFound(err) {
		return nil // nothing audited yet: the first audit applies it
	}
	if err != nil {
		return err
	}
	_, err = s.applyMuteRules(ctx, tenantID, auditID, []engine.MuteRule{r}, false)
	return err
}

// applyMuteRules evaluates rules over the open findings of a snapshot
// (a rule whose expression is a MuteCond in the store itself, the others in
// one streaming pass, a store page at a time), stores each rule's matches
// and then records each rule's application, after which reads of that
// snapshot honour it. With collect, it returns the ids muted (every rule is
// then streamed).
func (s *Service) applyMuteRules(ctx context.Context, tenantID, auditID string, rules []engine.MuteRule, collect bool) (map[string]struct{}, error) {
	mc, err := s.muteRulesAvailable()
	if err != nil || len(rules) == 0 {
		return nil, nil //nolint:nilerr // not configured: nothing to apply
	}
	var muted map[string]struct{}
	if collect {
		muted = map[string]struct{}{}
	}
	cs := make([]*compiledMute, 0, len(rules))
	var pushed []*compiledMute // applied by the store itself
	needs := false
	for _, r := range rules {
		m, err := mc.CompileMute(r.Expression)
		if err != nil {
			// Stored rules validated when written; the environment may
			// have changed since. Such a rule mutes nothing.
			s.log.WarnContext(ctx, "mute rule does not compile", "mute_rule_id", r.ID, "error", err)
			continue
		}
		c := &compiledMute{rule: r, matcher: m}
		if _, ok := s.muteCondition(m, collect); ok {
			pushed = append(pushed, c)
			continue
		}
		needs = needs || m.NeedsResource()
		cs = append(cs, c)
	}
	start := time.Now()
	for _, c := range pushed {
		cond, _ := s.muteCondition(c.matcher, collect)
		n, err := s.cfg.MuteMatches.(MuteMatchWriter).PutMuteMatchesWhere(ctx, tenantID, auditID, engine.MuteRef{RuleID: c.rule.ID, Version: c.rule.Version}, cond)
		if err != nil {
			return nil, err
		}
		c.matched = n
	}
	if len(pushed) > 0 {
		s.log.InfoContext(ctx, "mute rules applied in the store", "audit_id", auditID, "rules", len(pushed),
			"total", time.Since(start).Round(time.Millisecond))
	}
	if len(cs) > 0 {
		if err := s.streamMuteRules(ctx, tenantID, auditID, cs, needs, muted); err != nil {
			return nil, err
		}
	}
	now := s.now().UTC()
	for _, c := range append(pushed, cs...) {
		_, err := s.cfg.MuteRules.PutMuteApplication(ctx, engine.MuteApplication{TenantID: tenantID, RuleID: c.rule.ID,
			Version: c.rule.Version, AuditID: auditID, Matched: c.matched, AppliedAt: now})
		if err != nil {
			return nil, err
		}
	}
	return muted, nil
}

// muteCondition is a rule's expression as a condition the store applies
// itself (one INSERT … SELECT, no finding transferred, no CEL per row),
// when the store can and the expression has that form. Not when the
// caller collects the muted ids (an audit's new snapshot): those are
// gathered by the streamed pass.
func (s *Service) muteCondition(m engine.MuteMatcher, collect bool) (engine.MuteCond, bool) {
	if collect {
		return engine.MuteCond{}, false
	}
	if _, ok := s.cfg.MuteMatches.(MuteMatchWriter); !ok {
		return engine.MuteCond{}, false
	}
	mc, ok := m.(engine.MuteConditioner)
	if !ok {
		return engine.MuteCond{}, false
	}
	return mc.Condition()
}

// streamMuteRules evaluates rules over the open findings of a snapshot
// in one streaming pass and stores each rule's matches (counted in
// matched), adding their ids to muted when it is not nil.
func (s *Service) streamMuteRules(ctx context.Context, tenantID, auditID string, cs []*compiledMute, needs bool, muted map[string]struct{}) error {
	// One pass over the snapshot's open findings (one unsorted, streamed
	// query), evaluating a batch at a time: the batch's resources are read
	// together when an expression needs them.
	start := time.Now()
	var evalTime, writeTime time.Duration
	var scanned int64
	// writeMatches writes the matches a rule has gathered, once there are
	// muteBatch of them (all when final): few, large INSERTs.
	writeMatches := func(final bool) error {
		t0 := time.Now()
		defer func() { writeTime += time.Since(t0) }()
		for _, c := range cs {
			if len(c.page) == 0 || (!final && len(c.page) < muteBatch) {
				continue
			}
			if err := s.cfg.MuteMatches.PutMuteMatches(ctx, tenantID, auditID, engine.MuteRef{RuleID: c.rule.ID, Version: c.rule.Version}, c.page); err != nil {
				return err
			}
			c.matched += int64(len(c.page))
			c.page = c.page[:0]
		}
		return nil
	}
	batch := make([]engine.Finding, 0, muteBatch)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		defer func() { batch = batch[:0] }()
		t0 := time.Now()
		scanned += int64(len(batch))
		var res map[string]*engine.Resource
		if needs {
			var err error
			if res, err = s.pageResources(ctx, tenantID, batch); err != nil {
				return err
			}
		}
		for i := range batch {
			f := &batch[i]
			for _, c := range cs {
				var r *engine.Resource
				if c.matcher.NeedsResource() {
					if r = res[f.ResourceID]; r == nil {
						continue // no resource to judge: not evaluated, not muted
					}
				}
				ok, err := c.matcher.Match(ctx, f, r)
				if err != nil && ctx.Err() != nil {
					return ctx.Err()
				}
				if ok {
					c.page = append(c.page, *f)
					if muted != nil {
						muted[f.ID] = struct{}{}
					}
				}
			}
		}
		evalTime += time.Since(t0)
		return writeMatches(false)
	}
	err := s.cfg.MuteMatches.ScanOpenFindings(ctx, tenantID, auditID, func(f engine.Finding) error {
		if batch = append(batch, f); len(batch) == muteBatch {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err == nil {
		err = writeMatches(true)
	}
	if err != nil {
		return err
	}
	s.log.InfoContext(ctx, "mute rules applied", "audit_id", auditID, "rules", len(cs), "open_findings", scanned,
		"total", time.Since(start).Round(time.Millisecond), "evaluate", evalTime.Round(time.Millisecond),
		"write_matches", writeTime.Round(time.Millisecond))
	return nil
}

// pageResources reads the resources of a page of findings, by id.
func (s *Service) pageResources(ctx context.Context, tenantID string, rows []engine.Finding) (map[string]*engine.Resource, error) {
	seen := make(map[string]bool, len(rows))
	ids := make([]string, 0, len(rows))
	for _, f := range rows {
		if !seen[f.ResourceID] {
			seen[f.ResourceID] = true
			ids = append(ids, f.ResourceID)
		}
	}
	out := make(map[string]*engine.Resource, len(ids))
	for len(ids) > 0 {
		chunk := ids[:min(len(ids), 1000)]
		ids = ids[len(chunk):]
		rs, err := s.cfg.Resources.GetResources(ctx, tenantID, chunk)
		if err != nil {
			return nil, err
		}
		for i := range rs {
			out[rs[i].ID] = &rs[i]
		}
	}
	return out, nil
}

// auditMutes applies the tenant's enabled rules to a new snapshot before
// its audit completes, and returns the ids they mute (no finding.created
// is sent for those).
func (s *Service) auditMutes(ctx context.Context, tenantID, auditID string) (map[string]struct{}, error) {
	if _, err := s.muteRulesAvailable(); err != nil {
		return nil, nil //nolint:nilerr // not configured: nothing is muted
	}
	rules, err := s.cfg.MuteRules.EnabledMuteRules(ctx, tenantID, s.now())
	if err != nil || len(rules) == 0 {
		return nil, err
	}
	return s.applyMuteRules(ctx, tenantID, auditID, rules, true)
}

// muteRefs are the refs of the active rules applied to a snapshot, oldest
// rule first.
func (set *overrideSet) muteRefs(auditID string) []engine.MuteRef {
	var out []engine.MuteRef
	for _, m := range set.mutes {
		if m.AuditID == auditID {
			out = append(out, m.MuteRef)
		}
	}
	return out
}

// withMutes adds the active mutes to a decision set: the set is not
// trusted past the first expiry.
func (set *overrideSet) withMutes(mutes []engine.ActiveMute, now time.Time) *overrideSet {
	set.mutes = mutes
	for _, m := range mutes {
		if m.ExpiresAt.After(now) && (set.until.IsZero() || m.ExpiresAt.Before(set.until)) {
			set.until = m.ExpiresAt
		}
	}
	return set
}

// markMuted shows the muted findings among items, read by q (open ones
// that the active rules of the snapshot match), with status muted and the
// rule. A status=open read has none: the store left them out.
func (s *Service) markMuted(ctx context.Context, tenantID string, q engine.FindingQuery, items []engine.Finding) error {
	if len(q.Mutes) == 0 || s.cfg.MuteMatches == nil || q.Filter.Status == engine.StatusOpen {
		return nil
	}
	keys := make([]engine.FindingKey, 0, len(items))
	for _, f := range items {
		if f.Status == engine.StatusOpen {
			keys = append(keys, engine.FindingKey{SeverityRank: f.Severity.Rank(), ID: f.ID})
		}
	}
	if len(keys) == 0 {
		return nil
	}
	by, err := s.cfg.MuteMatches.MutedAmong(ctx, tenantID, q.Filter.AuditID, q.Mutes, q.MuteSet, keys)
	if err != nil {
		return err
	}
	for i := range items {
		if rule, ok := by[items[i].ID]; ok && items[i].Status == engine.StatusOpen {
			items[i].Status, items[i].MuteRuleID = engine.StatusMuted, rule
		}
	}
	return nil
}
