package mutes

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fourd-dev/fourd/engine"
)

// validateMuteRule checks a rule being written at now: the expression
// compiles and type-checks, the reason is given, expires_at is ahead and
// at most a year away. The owner is checked by the store.
func validateMuteRule(mc engine.MuteCompiler, r engine.MuteRule, now time.Time) error {
	if _, err := mc.CompileMute(r.Expression); err != nil {
		return err
	}
	switch reason := strings.TrimSpace(r.Reason); {
	case reason == "":
		return engine.FieldErrorf("reason", "reason is required: say why these findings are muted")
	case len(r.Reason) > engine.MaxMuteReason || !utf8.ValidString(r.Reason):
		return engine.FieldErrorf("reason", "reason must be valid UTF-8 of at most %d bytes", engine.MaxMuteReason)
	}
	if r.Owner == "" || !engine.ValidID(engine.PrefixUser, r.Owner) {
		return engine.FieldErrorf("owner", "owner must be a user id of the tenant (usr_…); got %s", engine.Quote(r.Owner))
	}
	switch limit := now.AddDate(1, 0, 0); {
	case r.ExpiresAt.IsZero():
		return engine.FieldErrorf("expires_at", "expires_at is required (RFC 3339), at most one year ahead")
	case !r.ExpiresAt.After(now):
		return engine.FieldErrorf("expires_at", "expires_at must be in the future; got %s", r.ExpiresAt.Format(time.RFC3339))
	case r.ExpiresAt.After(limit):
		return engine.FieldErrorf("expires_at", "expires_at must be at most one year ahead (%s); got %s",
			limit.Format(time.RFC3339), r.ExpiresAt.Format(time.RFC3339))
	}
	return nil
}

// applyMuteRuleInput sets the given fields of in on r.
func applyMuteRuleInput(in engine.MuteRuleInput, r engine.MuteRule) engine.MuteRule {
	if in.Expression != nil {
		r.Expression = *in.Expression
	}
	if in.Reason != nil {
		r.Reason = *in.Reason
	}
	if in.Owner != nil {
		r.Owner = *in.Owner
	}
	if in.ExpiresAt != nil {
		r.ExpiresAt = in.ExpiresAt.UTC()
	}
	if in.Enabled != nil {
		r.Enabled = *in.Enabled
	}
	return r
}

// sameMuteRule reports whether a and b have the same fields a client sets.
func sameMuteRule(a, b engine.MuteRule) bool {
	return a.Expression == b.Expression && a.Reason == b.Reason && a.Owner == b.Owner &&
		a.ExpiresAt.Equal(b.ExpiresAt) && a.Enabled == b.Enabled
}

// actor names who makes a change: the user, or the token of a machine
// client.
func actor(p engine.Principal) string {
	if p.UserID != "" {
		return p.UserID
	}
	return p.TokenID
}

// CreateMuteRule validates and stores a mute rule (enabled unless said
// otherwise; the owner defaults to the calling user), records the change,
// and applies it to the latest snapshot before answering: reads reflect it
// when this returns.
func (s *Service) CreateMuteRule(ctx context.Context, p engine.Principal, in engine.MuteRuleInput) (engine.MuteRule, error) {
	if err := p.Require(engine.ScopeFindingsWrite); err != nil {
		return engine.MuteRule{}, err
	}
	mc, err := s.available()
	if err != nil {
		return engine.MuteRule{}, err
	}
	now := s.now().UTC()
	r := applyMuteRuleInput(in, engine.MuteRule{ID: engine.NewID(engine.PrefixMuteRule, now), TenantID: p.TenantID, Owner: p.UserID, Enabled: true,
		Version: 1, CreatedBy: actor(p), CreatedAt: now, UpdatedAt: now})
	if err := validateMuteRule(mc, r, now); err != nil {
		return engine.MuteRule{}, err
	}
	if err := s.checkActiveLimit(ctx, p.TenantID, r, now); err != nil {
		return engine.MuteRule{}, err
	}
	after := r
	err = s.cfg.Rules.CreateMuteRule(ctx, r, engine.MuteRuleChange{TenantID: p.TenantID, RuleID: r.ID,
		Action: engine.MuteRuleCreated, Actor: actor(p), At: now, After: withActive(&after, now)})
	s.cfg.Reads.Invalidate(p.TenantID)
	if err != nil {
		return engine.MuteRule{}, err
	}
	return s.settleMuteRule(ctx, p, r)
}

// UpdateMuteRule changes a rule (each change a new version, validated as
// on create), records the change, and applies the new version to the
// latest snapshot before answering when it is enabled. An input that
// changes nothing answers the rule as it is.
func (s *Service) UpdateMuteRule(ctx context.Context, p engine.Principal, id string, in engine.MuteRuleInput) (engine.MuteRule, error) {
	if err := p.Require(engine.ScopeFindingsWrite); err != nil {
		return engine.MuteRule{}, err
	}
	mc, err := s.available()
	if err != nil {
		return engine.MuteRule{}, err
	}
	cur, err := s.GetMuteRule(ctx, p, id)
	if err != nil {
		return engine.MuteRule{}, err
	}
	now := s.now().UTC()
	r := applyMuteRuleInput(in, cur)
	if sameMuteRule(r, cur) {
		// Nothing changes (an empty body, or the values it has): no new
		// version and no history entry. An active rule whose application
		// has not finished is applied again, as a change would be.
		if cur.Active && (cur.Applied == nil || cur.Applied.Version != cur.Version) {
			return s.settleMuteRule(ctx, p, cur)
		}
		return cur, nil
	}
	r.Version, r.UpdatedAt, r.Applied = cur.Version+1, now, nil
	// A rule that expired may be disabled or re-dated; otherwise every
	// field must be valid now.
	if r.Enabled || in.ExpiresAt != nil || in.Expression != nil || in.Reason != nil || in.Owner != nil {
		if err := validateMuteRule(mc, r, now); err != nil {
			return engine.MuteRule{}, err
		}
	}
	if !cur.Active {
		if err := s.checkActiveLimit(ctx, p.TenantID, r, now); err != nil {
			return engine.MuteRule{}, err
		}
	}
	before, after := cur, r
	before.Applied = nil
	err = s.cfg.Rules.UpdateMuteRule(ctx, r, engine.MuteRuleChange{TenantID: p.TenantID, RuleID: r.ID,
		Action: engine.MuteRuleUpdated, Actor: actor(p), At: now, Before: withActive(&before, now), After: withActive(&after, now)})
	s.cfg.Reads.Invalidate(p.TenantID)
	if err != nil {
		return engine.MuteRule{}, err
	}
	return s.settleMuteRule(ctx, p, r)
}

// settleMuteRule applies a written rule to the latest snapshot when it is
// active, then builds the latest snapshot's mute set (the active rules'
// muted findings, engine/findings' mute_sets.go), and returns the rule as stored. When
// applying fails the rule stands, unapplied (applied null); the next write
// or audit applies it.
func (s *Service) settleMuteRule(ctx context.Context, p engine.Principal, r engine.MuteRule) (engine.MuteRule, error) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), engine.MuteApplyTimeout)
		defer cancel()
		if r.Enabled && r.ExpiresAt.After(s.now()) {
			err := s.cfg.Reads.ApplyToLatest(actx, p.TenantID, r)
			s.cfg.Reads.Invalidate(p.TenantID)
			if err != nil {
				s.log.ErrorContext(actx, "applying a mute rule failed", "mute_rule_id", r.ID, "version", r.Version, "error", err)
				return
			}
		}
		s.cfg.Reads.SettleLatestMuteSet(actx, p.TenantID)
	}()
	wait := time.NewTimer(s.cfg.ApplyWait)
	select {
	case <-done:
	case <-wait.C: // answered with applied null; the application goes on
	case <-ctx.Done():
	}
	wait.Stop()
	return s.GetMuteRule(ctx, p, r.ID)
}

// DeleteMuteRule removes a rule: its findings are open again at once. Its
// history stays listable.
func (s *Service) DeleteMuteRule(ctx context.Context, p engine.Principal, id string) error {
	if err := p.Require(engine.ScopeFindingsWrite); err != nil {
		return err
	}
	if _, err := s.available(); err != nil {
		return err
	}
	cur, err := s.GetMuteRule(ctx, p, id)
	if err != nil {
		return err
	}
	now := s.now().UTC()
	cur.Applied = nil
	err = s.cfg.Rules.DeleteMuteRule(ctx, p.TenantID, id, engine.MuteRuleChange{TenantID: p.TenantID, RuleID: id,
		Action: engine.MuteRuleDeleted, Actor: actor(p), At: now, Before: withActive(&cur, now)})
	s.cfg.Reads.Invalidate(p.TenantID)
	if err != nil {
		return err
	}
	// The remaining rules' set, before answering when it is done within
	// the wait (reads are correct meanwhile, from the matches); a longer
	// build goes on after the answer.
	done := make(chan struct{})
	go func() {
		defer close(done)
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), engine.MuteApplyTimeout)
		defer cancel()
		s.cfg.Reads.SettleLatestMuteSet(sctx, p.TenantID)
	}()
	wait := time.NewTimer(s.cfg.ApplyWait)
	defer wait.Stop()
	select {
	case <-done:
	case <-wait.C:
	case <-ctx.Done():
	}
	return nil
}

// GetMuteRule returns one rule of the tenant.
func (s *Service) GetMuteRule(ctx context.Context, p engine.Principal, id string) (engine.MuteRule, error) {
	if err := p.Require(engine.ScopeFindingsRead); err != nil {
		return engine.MuteRule{}, err
	}
	if _, err := s.available(); err != nil {
		return engine.MuteRule{}, err
	}
	if !engine.ValidID(engine.PrefixMuteRule, id) {
		return engine.MuteRule{}, engine.ErrNotFound("mute rule", id)
	}
	r, err := s.cfg.Rules.GetMuteRule(ctx, p.TenantID, id)
	if err != nil {
		return engine.MuteRule{}, err
	}
	return *withActive(&r, s.now()), nil
}

// ListMuteRules returns a page of the tenant's rules, newest first.
func (s *Service) ListMuteRules(ctx context.Context, p engine.Principal, pr engine.PageRequest) (engine.Page[engine.MuteRule], error) {
	if err := p.Require(engine.ScopeFindingsRead); err != nil {
		return engine.Page[engine.MuteRule]{}, err
	}
	if _, err := s.available(); err != nil {
		return engine.Page[engine.MuteRule]{}, err
	}
	now := s.now()
	return engine.IDPage(s.cursors, p, "mute_rules", pr, func(r engine.MuteRule) string { return r.ID }, func(before string, limit int) ([]engine.MuteRule, error) {
		rs, err := s.cfg.Rules.ListMuteRules(ctx, engine.MuteRuleQuery{TenantID: p.TenantID, BeforeID: before, Limit: limit})
		for i := range rs {
			withActive(&rs[i], now)
		}
		return rs, err
	})
}

// ListMuteRuleHistory returns a page of a rule's changes, oldest first
// (also of a deleted rule).
func (s *Service) ListMuteRuleHistory(ctx context.Context, p engine.Principal, id string, pr engine.PageRequest) (engine.Page[engine.MuteRuleChange], error) {
	if err := p.Require(engine.ScopeFindingsRead); err != nil {
		return engine.Page[engine.MuteRuleChange]{}, err
	}
	if _, err := s.available(); err != nil {
		return engine.Page[engine.MuteRuleChange]{}, err
	}
	if !engine.ValidID(engine.PrefixMuteRule, id) {
		return engine.Page[engine.MuteRuleChange]{}, engine.ErrNotFound("mute rule", id)
	}
	limit, err := pr.PageSize()
	if err != nil {
		return engine.Page[engine.MuteRuleChange]{}, err
	}
	scope := "mute_rule_history|" + id
	var after int64
	if pr.Cursor != "" {
		if err := s.cursors.Decode(pr.Cursor, p.TenantID, scope, &after); err != nil {
			return engine.Page[engine.MuteRuleChange]{}, err
		}
	}
	items, err := s.cfg.Rules.ListMuteRuleHistory(ctx, p.TenantID, id, after, limit+1)
	if err != nil {
		return engine.Page[engine.MuteRuleChange]{}, err
	}
	page := engine.Page[engine.MuteRuleChange]{Items: items}
	if len(items) > limit {
		page.Items, page.HasMore = items[:limit], true
		page.NextCursor = s.cursors.Encode(p.TenantID, scope, items[limit-1].ID)
	}
	return page, nil
}

// checkActiveLimit refuses to make r active when the tenant already has
// MaxActiveMuteRules active rules: every read carries them.
func (s *Service) checkActiveLimit(ctx context.Context, tenantID string, r engine.MuteRule, now time.Time) error {
	if !r.Enabled {
		return nil
	}
	active, err := s.cfg.Rules.EnabledMuteRules(ctx, tenantID, now)
	if err != nil {
		return err
	}
	if len(active) >= engine.MaxActiveMuteRules {
		return engine.FieldErrorf("enabled", "a tenant has at most %d active mute rules; disable or delete one first", engine.MaxActiveMuteRules)
	}
	return nil
}

// withActive sets r.Active as of now and returns r.
func withActive(r *engine.MuteRule, now time.Time) *engine.MuteRule {
	r.Active = r.Enabled && r.ExpiresAt.After(now)
	return r
}

// MuteRuleCursor returns the cursor after the mute rule with id in
// ListMuteRules.
func (s *Service) MuteRuleCursor(p engine.Principal, id string) string {
	return s.cursors.Encode(p.TenantID, "mute_rules", id)
}
