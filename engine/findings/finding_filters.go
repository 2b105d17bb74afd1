package findings

import (
	"slices"
	"strconv"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// rowFilterFingerprint is the part of a filter's fingerprint (cursor scope,
// cache keys) that the row filters add; empty without them, so that the
// cursors and keys of the other filters are what they were.
func rowFilterFingerprint(f engine.FindingFilter) string {
	if !f.RowFilters() {
		return ""
	}
	ts := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return strconv.FormatInt(t.UnixNano(), 10)
	}
	return engine.Fingerprint(f.Tags, f.Compliance, f.Assignee, f.Q, ts(f.FirstSeenAfter), ts(f.FirstSeenBefore))
}

// assignedTo returns the ids of the findings assigned to user, sorted,
// from a tenant's decisions: the rows an assignee filter may return. It is
// nil without an assignee filter, and empty (not nil) when nobody has one.
func (set *overrideSet) assignedTo(user string) []string {
	if user == "" {
		return nil
	}
	ids := []string{}
	for id, o := range set.byID {
		if o.Assignee == user {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}
