package triage

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

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
func (s *Service) ListFindingActivity(ctx context.Context, p engine.Principal, id string, pr engine.PageRequest) (engine.Page[engine.FindingActivity], int, error) {
	if err := s.require(p, engine.ScopeFindingsRead); err != nil {
		return engine.Page[engine.FindingActivity]{}, 0, err
	}
	limit, err := pr.PageSize()
	if err != nil {
		return engine.Page[engine.FindingActivity]{}, 0, err
	}
	scope := "finding_activity|" + id
	var pos activityCursor
	if pr.Cursor != "" {
		if err := s.cursors.Decode(pr.Cursor, p.TenantID, scope, &pos); err != nil {
			return engine.Page[engine.FindingActivity]{}, 0, err
		}
	}
	if _, err := s.cfg.Reads.GetFinding(ctx, p, id); err != nil {
		return engine.Page[engine.FindingActivity]{}, 0, err
	}
	var all []engine.FindingActivity
	if s.cfg.Decisions != nil {
		if all, err = s.cfg.Decisions.ListFindingActivity(ctx, p.TenantID, id, maxActivityRecorded); err != nil {
			return engine.Page[engine.FindingActivity]{}, 0, err
		}
	}
	seen, err := s.auditActivity(ctx, p.TenantID, id)
	if err != nil {
		return engine.Page[engine.FindingActivity]{}, 0, err
	}
	all = append(all, seen...)
	// Newest first; at one time, people's changes (recorded newest first)
	// before what audits saw.
	slices.SortStableFunc(all, func(a, b engine.FindingActivity) int { return b.At.Compare(a.At) })
	start := 0
	if pr.Cursor != "" {
		for start < len(all) && all[start].At.After(pos.At) {
			start++
		}
		start += pos.Skip
	}
	page := engine.Page[engine.FindingActivity]{Items: []engine.FindingActivity{}}
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
			all[i].Cursor = s.cursors.Encode(p.TenantID, scope, activityCursor{At: all[i].At, Skip: skip})
		}
	}
	if end < len(all) {
		page.HasMore, page.NextCursor = true, all[end-1].Cursor
	}
	return page, len(all), nil
}

// auditActivity is what the tenant's latest completed audits saw of a
// finding, oldest first.
func (s *Service) auditActivity(ctx context.Context, tenantID, id string) ([]engine.FindingActivity, error) {
	if s.cfg.Audits == nil || s.cfg.Snapshots == nil {
		return nil, nil
	}
	audits, err := s.cfg.Audits.ListAudits(ctx, engine.AuditQuery{TenantID: tenantID, Status: engine.AuditCompleted, Limit: maxActivityAudits})
	if err != nil {
		return nil, err
	}
	if len(audits) == 0 {
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
	slices.SortFunc(sightings, func(a, b engine.Finding) int { return strings.Compare(a.AuditID, b.AuditID) }) // ids sort by time
	var out []engine.FindingActivity
	var prev *engine.Finding
	for i := range sightings {
		f := &sightings[i]
		when := at[f.AuditID]
		if f.Resolution == engine.ResolutionFixed {
			if prev != nil && prev.Resolution != engine.ResolutionFixed {
				out = append(out, engine.FindingActivity{At: when, Kind: engine.ActivityStatusChanged, From: string(engine.WorkflowOpen),
					To: string(engine.WorkflowFixed), AuditID: f.AuditID})
			}
			prev = f
			continue
		}
		if prev != nil && prev.Resolution != engine.ResolutionFixed && prev.Severity != f.Severity {
			out = append(out, engine.FindingActivity{At: when, Kind: engine.ActivitySeverityChanged, From: string(prev.Severity),
				To: string(f.Severity), AuditID: f.AuditID})
		}
		out = append(out, engine.FindingActivity{At: when, Kind: engine.ActivitySeen, To: string(f.Severity), AuditID: f.AuditID})
		prev = f
	}
	return out, nil
}
