package findings

import (
	"context"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/cache"
)

// mutedCountCache keeps the muted counts of one decision set: the set is
// immutable (a new set, with a new version, replaces it on any change), so
// its counts are too, and the cache lives and dies with its set. A
// dashboard asking the same count again costs nothing; the first ask is
// one count over the matches. It is an internal/cache LRU of
// maxMutedCounts answers, made at the set's first count.
type mutedCountCache struct {
	once sync.Once
	lru  *cache.LRU[string, []engine.FindingCount]
}

// maxMutedCounts bounds a set's cache (filters × group-bys asked).
const maxMutedCounts = 256

// get returns the cache, making it.
func (c *mutedCountCache) get() *cache.LRU[string, []engine.FindingCount] {
	c.once.Do(func() { c.lru = cache.New(cache.Options[string, []engine.FindingCount]{MaxCost: maxMutedCounts}) })
	return c.lru
}

// countMuted is MuteMatchStore.CountMuted through set's cache, when the
// set is a cached one (versioned). The answer is the caller's to change.
func (s *Service) countMuted(ctx context.Context, set *overrideSet, q engine.FindingCountQuery, refs []engine.MuteRef) ([]engine.FindingCount, error) {
	var key string
	if set.versioned {
		gs := make([]string, len(q.GroupBy))
		for i, g := range q.GroupBy {
			gs[i] = string(g)
		}
		key = findingFingerprint(q.Filter) + "|" + strings.Join(gs, ",")
		if got, ok := set.counts.get().Get(key); ok {
			return cloneCounts(got), nil
		}
	}
	out, err := s.cfg.MuteMatches.CountMuted(ctx, q, refs, set.resolved)
	if err != nil || key == "" {
		return out, err
	}
	set.counts.get().Put(key, cloneCounts(out))
	return out, nil
}

// cloneCounts copies counts and their keys.
func cloneCounts(in []engine.FindingCount) []engine.FindingCount {
	out := make([]engine.FindingCount, len(in))
	for i, c := range in {
		out[i] = engine.FindingCount{Key: maps.Clone(c.Key), Count: c.Count}
	}
	return out
}

// adjustMutedCounts moves the findings that active mute rules match out of
// the open counts (and into status muted), so that counts agree with
// lists. The snapshot's counts know nothing of mutes; the matches carry the
// count columns, so this is one count over the rule's matches.
func (s *Service) adjustMutedCounts(ctx context.Context, tenantID string, f engine.FindingFilter, groupBy []engine.GroupBy, groups []engine.FindingCount) ([]engine.FindingCount, error) {
	if f.Status == engine.StatusResolved || s.cfg.MuteMatches == nil {
		return groups, nil
	}
	set, err := s.cachedOverrides(ctx, tenantID)
	if err != nil {
		return nil, err
	}
	byStatus := slices.Contains(groupBy, engine.GroupByStatus)
	if len(set.muteRefs(f.AuditID)) == 0 || (f.Status == "" && !byStatus) {
		return groups, nil
	}
	q := engine.FindingCountQuery{TenantID: tenantID, Filter: f, GroupBy: groupBy}
	refs, build := s.muteSel(tenantID, set, f.AuditID)
	q.MuteSet = build
	muted, err := s.countMuted(ctx, set, q, refs)
	if err != nil {
		return nil, err
	}
	return mergeMuted(f.Status, groupBy, groups, muted), nil
}

// mergeMuted moves muted counts (counted with the groups' filter and
// group-by) out of the open groups: a status=muted count becomes them, an
// unfiltered count grouped by status gains muted groups.
func mergeMuted(status engine.FindingStatus, groupBy []engine.GroupBy, groups, muted []engine.FindingCount) []engine.FindingCount {
	byStatus := slices.Contains(groupBy, engine.GroupByStatus)
	f := engine.FindingFilter{Status: status}
	keyOf := func(k map[engine.GroupBy]string) string {
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
	var moved []engine.FindingCount
	for _, m := range muted {
		if i, ok := index[keyOf(m.Key)]; ok && f.Status != engine.StatusMuted {
			groups[i].Count -= m.Count // the muted findings are open in the snapshot
		}
		if byStatus {
			m.Key[engine.GroupByStatus] = string(engine.StatusMuted)
		}
		moved = append(moved, m)
	}
	switch f.Status {
	case engine.StatusMuted:
		groups = moved
		if len(groupBy) == 0 && len(groups) == 0 {
			groups = []engine.FindingCount{{Key: map[engine.GroupBy]string{}}}
		}
	case "":
		groups = append(groups, moved...) // byStatus: the muted groups
	}
	groups = slices.DeleteFunc(groups, func(g engine.FindingCount) bool { return g.Count <= 0 && len(groupBy) > 0 })
	slices.SortStableFunc(groups, func(a, b engine.FindingCount) int {
		for _, g := range groupBy {
			var c int
			if g == engine.GroupBySeverity {
				c = engine.Severity(b.Key[g]).Rank() - engine.Severity(a.Key[g]).Rank()
			} else {
				c = strings.Compare(a.Key[g], b.Key[g])
			}
			if c != 0 {
				return c
			}
		}
		return 0
	})
	return groups
}
