package rest

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// query is a request's validated query string: each parameter at most once
// and only the ones the endpoint documents. Unknown parameters are rejected
// rather than ignored, so that a misspelt filter (severty=high) cannot
// silently widen a list; an empty value counts as absent.
type query map[string]string

// repeatableParams may be given more than once (each value is a filter
// that must hold); their values are read from the request, not from query.
var repeatableParams = []string{"tag"}

// pageParams are the parameters every list endpoint accepts.
var pageParams = []string{"limit", "cursor"}

// parseQuery validates r's query string against the allowed parameter names.
func parseQuery(r *http.Request, allowed ...string) (query, error) {
	q := query{}
	if r.URL.RawQuery == "" {
		return q, nil
	}
	values, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, engine.Errorf(engine.CodeInvalidRequest, "the query string is malformed: %s", truncate(err.Error(), 120))
	}
	names := make([]string, 0, len(values))
	for name := range values {
		names = append(names, name)
	}
	slices.Sort(names) // the first offending parameter, deterministically
	for _, name := range names {
		vs := values[name]
		if !slices.Contains(allowed, name) {
			accepts := "none"
			if len(allowed) > 0 {
				accepts = strings.Join(allowed, ", ")
			}
			return nil, &engine.Error{Code: engine.CodeInvalidRequest, Field: name,
				Message: "unknown query parameter " + quote(name) + "; this endpoint accepts " + accepts}
		}
		if len(vs) > 1 && !slices.Contains(repeatableParams, name) {
			return nil, &engine.Error{Code: engine.CodeInvalidRequest, Field: name,
				Message: "query parameter " + quote(name) + " is given more than once"}
		}
		if vs[0] != "" {
			q[name] = vs[0]
		}
	}
	return q, nil
}

// page returns the limit and cursor of a list request.
func (q query) page() (engine.PageRequest, error) {
	limit, err := engine.ParseLimit(q["limit"])
	if err != nil {
		return engine.PageRequest{}, err
	}
	return engine.PageRequest{Limit: limit, Cursor: q["cursor"]}, nil
}

func quote(s string) string { return `"` + truncate(s, 64) + `"` }

// params joins parameter lists.
func params(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}
