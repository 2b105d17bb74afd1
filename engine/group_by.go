package engine

import (
	"slices"
	"strings"
)

// ParseGroupBy validates a comma-separated list of group-by fields.
func ParseGroupBy(s string) ([]GroupBy, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []GroupBy
	for _, part := range strings.Split(s, ",") {
		g := GroupBy(strings.TrimSpace(part))
		if !slices.Contains(GroupBys, g) {
			return nil, ParseGroupByError(part)
		}
		out = append(out, g)
	}
	return out, nil
}

// ParseGroupByError is the validation error for an unknown group-by field.
func ParseGroupByError(v string) error {
	names := make([]string, len(GroupBys))
	for i, g := range GroupBys {
		names[i] = string(g)
	}
	return FieldErrorf("group_by", "group_by must be a comma-separated list of %s; got %s", strings.Join(names, ", "), quote(v))
}
