package engine

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fourd-dev/fourd/engine/compliance"
)

// Bounds of the row filters of a findings read.
const (
	// MaxTagFilters is how many tag filters one read may combine.
	MaxTagFilters = 10
	// MaxTagFilterLen bounds one key=value tag filter, in bytes (AWS tags
	// are at most 128 + 256 characters).
	MaxTagFilterLen = 512
	// MaxQueryText bounds the q filter, in bytes.
	MaxQueryText = 200
)

// RowFilters reports whether f has a filter the snapshot's precomputed
// counts cannot answer (tag, compliance, assignee, q, first seen): pages
// then select the matching keys from the snapshot's rows, and counts count
// the rows.
func (f FindingFilter) RowFilters() bool {
	return f.Tags != "" || f.Compliance != "" || f.Assignee != "" || f.Q != "" ||
		!f.FirstSeenAfter.IsZero() || !f.FirstSeenBefore.IsZero()
}

// TagPairs returns the tag filter's key=value pairs, sorted by key then
// value.
func (f FindingFilter) TagPairs() []Tag {
	if f.Tags == "" {
		return nil
	}
	var out []Tag
	for _, kv := range strings.Split(f.Tags, "\n") {
		k, v, _ := strings.Cut(kv, "=")
		out = append(out, Tag{Key: k, Value: v})
	}
	return out
}

// ComplianceParts returns the compliance filter's framework and control
// (control "" for a whole framework).
func (f FindingFilter) ComplianceParts() (framework, control string) {
	framework, control, _ = strings.Cut(f.Compliance, ":")
	return framework, control
}

// ParseTagFilters validates key=value tag filters and returns them as
// FindingFilter.Tags: sorted, each once, one a line.
func ParseTagFilters(in []string) (string, error) {
	if len(in) > MaxTagFilters {
		return "", FieldErrorf("tag", "at most %d tag filters; got %d", MaxTagFilters, len(in))
	}
	tags := make([]string, 0, len(in))
	for _, t := range in {
		k, _, ok := strings.Cut(t, "=")
		if !ok || strings.TrimSpace(k) == "" || len(t) > MaxTagFilterLen || strings.ContainsAny(t, "\n\x00") || !utf8.ValidString(t) {
			return "", FieldErrorf("tag", "tag must be key=value (a resource tag's key, '=', its value; at most %d bytes); got %s",
				MaxTagFilterLen, quote(t))
		}
		if !slices.Contains(tags, t) {
			tags = append(tags, t)
		}
	}
	slices.Sort(tags)
	return strings.Join(tags, "\n"), nil
}

// ParseComplianceFilter validates a compliance filter: a control of the
// catalog (CIS-AWS-4.0.1:2.1.4) or a framework of it (CIS-AWS-4.0.1).
func ParseComplianceFilter(c string) (string, error) {
	if c == "" {
		return "", nil
	}
	if strings.Contains(c, ":") {
		if _, _, err := compliance.Resolve(c); err != nil {
			return "", FieldErrorf("compliance", "compliance must be a control of the catalog (e.g. CIS-AWS-4.0.1:2.1.4) or a framework (%s): %s",
				strings.Join(frameworkIDs(), ", "), err.Error())
		}
		return c, nil
	}
	if _, ok := compliance.Lookup(c); !ok {
		return "", FieldErrorf("compliance", "compliance must be a control (e.g. CIS-AWS-4.0.1:2.1.4) or a framework of the catalog (%s); got %s",
			strings.Join(frameworkIDs(), ", "), quote(c))
	}
	return c, nil
}

// parseRowFilters validates the row filters of in into f.
func (in FindingFilterInput) parseRowFilters(f *FindingFilter) error {
	var err error
	if f.Tags, err = ParseTagFilters(in.Tags); err != nil {
		return err
	}
	if f.Compliance, err = ParseComplianceFilter(in.Compliance); err != nil {
		return err
	}
	if a := in.Assignee; a != "" {
		if !ValidID(PrefixUser, a) {
			return FieldErrorf("assignee", "assignee must be a user id (usr_…); got %s", quote(a))
		}
		f.Assignee = a
	}
	if q := in.Q; q != "" {
		if len(q) > MaxQueryText || strings.ContainsRune(q, 0) || !utf8.ValidString(q) {
			return FieldErrorf("q", "q must be a UTF-8 text of at most %d bytes; got %d bytes", MaxQueryText, len(q))
		}
		f.Q = q
	}
	if f.FirstSeenAfter, err = parseFilterTime("first_seen_after", in.FirstSeenAfter); err != nil {
		return err
	}
	if f.FirstSeenBefore, err = parseFilterTime("first_seen_before", in.FirstSeenBefore); err != nil {
		return err
	}
	if !f.FirstSeenAfter.IsZero() && !f.FirstSeenBefore.IsZero() && !f.FirstSeenAfter.Before(f.FirstSeenBefore) {
		return FieldErrorf("first_seen_before", "first_seen_before (%s) must be later than first_seen_after (%s)",
			f.FirstSeenBefore.Format(time.RFC3339), f.FirstSeenAfter.Format(time.RFC3339))
	}
	return nil
}

// frameworkIDs lists the catalog's framework ids.
func frameworkIDs() []string {
	var ids []string
	for _, fw := range compliance.Frameworks() {
		ids = append(ids, fw.ID)
	}
	return ids
}

// parseFilterTime parses an RFC 3339 time filter between 1970 and 2106
// (what the snapshot stores); empty is none.
func parseFilterTime(field, s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, FieldErrorf(field, "%s must be an RFC 3339 time (e.g. 2026-01-31T00:00:00Z); got %s", field, quote(s))
	}
	if t.Unix() < 1 || t.Unix() >= 1<<32-1 {
		return time.Time{}, FieldErrorf(field, "%s must be between 1970 and 2106; got %s", field, quote(s))
	}
	return t.UTC(), nil
}
