package engine

import (
	"context"
	"slices"
	"strings"
	"time"
)

// ActivityKind says what one entry of a finding's activity records.
type ActivityKind string

// Activity kinds: the first three are people's changes (PostgreSQL), the
// last two come from the audit snapshots that saw the finding.
const (
	ActivityStatusChanged   ActivityKind = "status_changed"
	ActivityAssigned        ActivityKind = "assigned"
	ActivityNote            ActivityKind = "note"
	ActivitySeen            ActivityKind = "seen"
	ActivitySeverityChanged ActivityKind = "severity_changed"
)

// FindingActivity is one entry of a finding's history.
type FindingActivity struct {
	At   time.Time    `json:"at"`
	Kind ActivityKind `json:"kind"`
	// Actor is the id of the user who made the change; empty for what an
	// audit saw.
	Actor string `json:"actor"`
	// From and To are the values before and after: workflow statuses for
	// status_changed, user ids for assigned ("" for nobody), severities for
	// severity_changed.
	From string `json:"from"`
	To   string `json:"to"`
	Note string `json:"note"`
	// AuditID is the audit that saw the finding (seen, severity_changed).
	AuditID string `json:"audit_id"`
	// Cursor, set on the entries of a page, is the cursor after the entry.
	Cursor string `json:"-"`
}

// Bounds of a finding's activity: the recorded changes and the audits
// read to build it.
const (
	maxActivityRecorded = 1000
	maxActivityAudits   = 100
)

// activityCursor is a position in a finding's activity: after the entries
// at times later than At, and the first Skip entries at At.
type activityCursor struct {
	At   time.Time `json:"t"`
	Skip int       `json:"n"`
}

// ListFindingActivity returns a page of a finding's history, newest first,
// each entry with the cursor after it, and how many entries there are in
// all:
// people's changes (status, assignment, notes; its latest 1,000) and what
// the tenant's latest 100 completed audits saw (seen, severity_changed, and
// status_changed to fixed when an audit no longer detected it).
func (s *Service) ListFindingActivity(ctx context.Context, p Principal, id string, pr PageRequest) (Page[FindingActivity], int, error) {
	if err := p.Require(ScopeFindingsRead); err != nil {
		return Page[FindingActivity]{}, 0, err
	}
	limit, err := pr.limit()
	if err != nil {
		return Page[FindingActivity]{}, 0, err
	}
	scope := "finding_activity|" + id
	var pos activityCursor
	if pr.Cursor != "" {
		if err := s.cursors.decode(pr.Cursor, p.TenantID, scope, &pos); err != nil {
			return Page[FindingActivity]{}, 0, err
		}
	}
	if _, err := s.GetFinding(ctx, p, id); err != nil {
		return Page[FindingActivity]{}, 0, err
	}
	var all []FindingActivity
	if s.cfg.Overrides != nil {
		if all, err = s.cfg.Overrides.ListFindingActivity(ctx, p.TenantID, id, maxActivityRecorded); err != nil {
			return Page[FindingActivity]{}, 0, err
		}
	}
	seen, err := s.auditActivity(ctx, p.TenantID, id)
	if err != nil {
		return Page[FindingActivity]{}, 0, err
	}
	all = append(all, seen...)
	// Newest first; at one time, people's changes (recorded newest first)
	// before what audits saw.
	slices.SortStableFunc(all, func(a, b FindingActivity) int { return b.At.Compare(a.At) })
	start := 0
	if pr.Cursor != "" {
		for start < len(all) && all[start].At.After(pos.At) {
			start++
		}
		start += pos.Skip
	}
	page := Page[FindingActivity]{Items: []FindingActivity{}}
	if start >= len(all) {
		return page, len(all), nil
	}
	end := min(len(all), start+limit)
	page.Items = all[start:end]
	skip := 0 // entries at the time of entry i up to i
	for i := 0; i < end; i++ {
		if i > 0 && all[i].At.Equal(all[i-1].At) {
			skip++
		} else {
			skip = 1
		}
		if i >= start {
			all[i].Cursor = s.cursors.encode(p.TenantID, scope, activityCursor{At: all[i].At, Skip: skip})
		}
	}
	if end < len(all) {
		page.HasMore, page.NextCursor = true, all[end-1].Cursor
	}
	return page, len(all), nil
}

// auditActivity is what the tenant's latest completed audits saw of a
// finding, oldest first.
func (s *Service) auditActivity(ctx context.Context, tenantID, id string) ([]FindingActivity, error) {
	audits, err := s.cfg.Audits.ListAudits(ctx, AuditQuery{TenantID: tenantID, Status: AuditCompleted, Limit: maxActivityAudits})
	if err != nil {
		return nil, err
	}
	if len(audits) == 0 || s.cfg.Snapshots == nil {
		return nil, nil
	}
	ids := make([]string, len(audits))
	at := make(map[string]time.Time, len(audits))
	for i, a := range audits {
		ids[i], at[a.ID] = a.ID, a.CreatedAt
		if a.CompletedAt != nil {
			at[a.ID] = *a.CompletedAt
		}
	}
	sightings, err := s.cfg.Snapshots.FindingSightings(ctx, tenantID, ids, id)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(sightings, func(a, b Finding) int { return strings.Compare(a.AuditID, b.AuditID) }) // ids sort by time
	var out []FindingActivity
	var prev *Finding
	for i := range sightings {
		f := &sightings[i]
		when := at[f.AuditID]
		if f.Resolution == ResolutionFixed {
			if prev != nil && prev.Resolution != ResolutionFixed {
				out = append(out, FindingActivity{At: when, Kind: ActivityStatusChanged, From: string(WorkflowOpen),
					To: string(WorkflowFixed), AuditID: f.AuditID})
			}
			prev = f
			continue
		}
		if prev != nil && prev.Resolution != ResolutionFixed && prev.Severity != f.Severity {
			out = append(out, FindingActivity{At: when, Kind: ActivitySeverityChanged, From: string(prev.Severity),
				To: string(f.Severity), AuditID: f.AuditID})
		}
		out = append(out, FindingActivity{At: when, Kind: ActivitySeen, To: string(f.Severity), AuditID: f.AuditID})
		prev = f
	}
	return out, nil
}
