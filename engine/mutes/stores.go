package mutes

import (
	"context"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Store keeps mute rules and their history (store/postgres).
type Store interface {
	// CreateMuteRule stores a new rule and its history entry in one
	// transaction; validation_failed (field owner) when the owner is not a
	// user of the tenant.
	CreateMuteRule(ctx context.Context, r engine.MuteRule, ch engine.MuteRuleChange) error
	// UpdateMuteRule overwrites a live rule stored at r.Version - 1 and
	// records ch; conflict when the version moved on, not_found when gone.
	UpdateMuteRule(ctx context.Context, r engine.MuteRule, ch engine.MuteRuleChange) error
	// DeleteMuteRule soft-deletes a live rule and records ch.
	DeleteMuteRule(ctx context.Context, tenantID, id string, ch engine.MuteRuleChange) error
	// GetMuteRule returns a live rule with its application at its version.
	GetMuteRule(ctx context.Context, tenantID, id string) (engine.MuteRule, error)
	// ListMuteRules returns a page of live rules, newest first.
	ListMuteRules(ctx context.Context, q engine.MuteRuleQuery) ([]engine.MuteRule, error)
	// EnabledMuteRules returns the live, enabled rules unexpired at now,
	// oldest first.
	EnabledMuteRules(ctx context.Context, tenantID string, now time.Time) ([]engine.MuteRule, error)
	// ListMuteRuleHistory returns up to limit changes of a rule after
	// afterID, oldest first (also for a deleted rule).
	ListMuteRuleHistory(ctx context.Context, tenantID, ruleID string, afterID int64, limit int) ([]engine.MuteRuleChange, error)
}
