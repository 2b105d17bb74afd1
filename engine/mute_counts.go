package engine

import (
	"context"
	"slices"
	"strings"
)

// adjustMutedCounts moves the findings that active mute rules match out of
// the open counts (and into status muted), so that counts agree with
// lists. The snapshot's counts know nothing of mutes; the matches carry the
// count columns, so this is one count over the rule's matches.
func (s *Service) adjustMutedCounts(ctx context.Context, tenantID string, f FindingFilter, groupBy []GroupBy, groups []FindingCount) ([]FindingCount, error) {
	if f.Status == StatusResolved || s.cfg.MuteMatches == nil {
		return groups, nil
	}
	set, err := s.cachedOverrides(ctx, tenantID)
	if err != nil {
		return nil, err
	}
	refs := set.muteRefs(f.AuditID)
	byStatus := slices.Contains(groupBy, GroupByStatus)
	if len(refs) == 0 || (f.Status == "" && !byStatus) {
		return groups, nil
	}
	muted, err := s.cfg.MuteMatches.CountMuted(ctx, FindingCountQuery{TenantID: tenantID, Filter: f, GroupBy: groupBy}, refs, set.resolved)
	if err != nil {
		return nil, err
	}
	keyOf := func(k map[GroupBy]string) string {
		parts := make([]string, len(groupBy))
		for i, g := range groupBy {
			parts[i] = k[g]
		}
		return strings.Join(parts, "\x00")
	}
	index := make(map[string]int, len(groups))
	for i, g := range groups {
		index[keyOf(g.Key)] = i
	}
	var moved []FindingCount
	for _, m := range muted {
		if i, ok := index[keyOf(m.Key)]; ok && f.Status != StatusMuted {
			groups[i].Count -= m.Count // the muted findings are open in the snapshot
		}
		if byStatus {
			m.Key[GroupByStatus] = string(StatusMuted)
		}
		moved = append(moved, m)
	}
	switch f.Status {
	case StatusMuted:
		groups = moved
		if len(groupBy) == 0 && len(groups) == 0 {
			groups = []FindingCount{{Key: map[GroupBy]string{}}}
		}
	case "":
		groups = append(groups, moved...) // byStatus: the muted groups
	}
	groups = slices.DeleteFunc(groups, func(g FindingCount) bool { return g.Count <= 0 && len(groupBy) > 0 })
	slices.SortStableFunc(groups, func(a, b FindingCount) int {
		for _, g := range groupBy {
			var c int
			if g == GroupBySeverity {
				c = Severity(b.Key[g]).Rank() - Severity(a.Key[g]).Rank()
			} else {
				c = strings.Compare(a.Key[g], b.Key[g])
			}
			if c != 0 {
				return c
			}
		}
		return 0
	})
	return groups, nil
}
