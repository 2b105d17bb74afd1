package findings

import (
	"context"
	"slices"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// adjustCounts moves the findings people decided on since the snapshot was
// written between the groups of a count, so counts agree with lists. The
// snapshot's counts are precomputed; decisions are few, so this costs one
// small read.
func (s *Service) adjustCounts(ctx context.Context, tenantID string, f engine.FindingFilter, groupBy []engine.GroupBy, groups []engine.FindingCount) ([]engine.FindingCount, error) {
	set, err := s.cachedOverrides(ctx, tenantID)
	if err != nil || len(set.byID) == 0 || s.cfg.Snapshots == nil {
		return groups, err
	}
	ov := set.byID
	ids := make([]string, 0, len(ov))
	for id := range ov {
		ids = append(ids, id)
	}
	found, err := s.cfg.Snapshots.GetFindings(ctx, tenantID, f.AuditID, ids)
	if err != nil {
		return nil, err
	}
	index := map[string]int{}
	keyOf := func(x engine.Finding) (string, map[engine.GroupBy]string) {
		m := make(map[engine.GroupBy]string, len(groupBy))
		parts := make([]string, len(groupBy))
		for i, g := range groupBy {
			m[g] = groupValue(x, g)
			parts[i] = m[g]
		}
		return strings.Join(parts, "\x00"), m
	}
	for i, g := range groups {
		parts := make([]string, len(groupBy))
		for j, gb := range groupBy {
			parts[j] = g.Key[gb]
		}
		index[strings.Join(parts, "\x00")] = i
	}
	add := func(x engine.Finding, n int64) {
		k, m := keyOf(x)
		i, ok := index[k]
		if !ok {
			groups = append(groups, engine.FindingCount{Key: m})
			i = len(groups) - 1
			index[k] = i
		}
		groups[i].Count += n
	}
	changed := false
	for _, before := range found {
		after := applyOverride(before, ov[before.ID])
		if after.Status == before.Status {
			continue
		}
		if f.Matches(before) {
			add(before, -1)
			changed = true
		}
		if f.Matches(after) {
			add(after, 1)
			changed = true
		}
	}
	if !changed {
		return groups, nil
	}
	groups = slices.DeleteFunc(groups, func(g engine.FindingCount) bool { return g.Count <= 0 && len(groupBy) > 0 })
	slices.SortFunc(groups, func(a, b engine.FindingCount) int {
		for _, g := range groupBy {
			if c := strings.Compare(a.Key[g], b.Key[g]); c != 0 {
				return c
			}
		}
		return 0
	})
	return groups, nil
}

// groupValue is the value of a group-by field of a finding.
func groupValue(f engine.Finding, g engine.GroupBy) string {
	switch g {
	case engine.GroupBySeverity:
		return string(f.Severity)
	case engine.GroupByDimension:
		return string(f.Dimension)
	case engine.GroupByResourceType:
		return f.ResourceType
	case engine.GroupByAccount:
		return f.Account
	case engine.GroupByRegion:
		return f.Region
	case engine.GroupByRule:
		return f.RuleID
	case engine.GroupByStatus:
		return string(f.Status)
	}
	return ""
}
