package graph

import (
	"context"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/fourd-dev/fourd/engine"
)

// Limits checked before a document is validated. Validation (gqlparser's
// overlapping-fields rule) takes time quadratic in the number of fields of
// a selection set: 20,000 repeated `id` fields cost 16 s of CPU. Parsing is
// linear, so each request's document is parsed and measured first, whether
// or not the query cache knows it (a trailing comment makes any document
// new to the cache).
const (
	// DefaultMaxQueryBytes bounds a document's length.
	DefaultMaxQueryBytes = 32 << 10
	// DefaultMaxQueryFields bounds the field selections a document holds,
	// in every operation and fragment, aliases and repeats included.
	DefaultMaxQueryFields = 1000
	// DefaultMaxMutations bounds the mutation fields one request runs.
	DefaultMaxMutations = 10
)

// HeavyLimiter charges a heavy operation (audit start, reanalysis, report
// generation) to the caller's heavy budget, the one REST's heavy endpoints
// draw on (rest.RateLimiter has the method): rate_limited when spent.
type HeavyLimiter interface {
	AllowHeavy(ctx context.Context, p engine.Principal) error
}

// heavyMutations are the Mutation fields that draw on the heavy budget,
// as POST /v1/audits, /v1/audits/{id}/reanalyze and /v1/reports do.
var heavyMutations = map[string]bool{"startAudit": true, "reanalyzeAudit": true, "generateReport": true}

// checkDocument measures a document before gqlgen validates it: its length,
// its field selections, and the mutation fields of its operations. A
// document that does not parse is left to gqlgen, which reports where.
func (h *gqlHandler) checkDocument(query string) *gqlerror.Error {
	if len(query) > h.cfg.MaxQueryBytes {
		return tooComplex("the query is %d bytes, over the limit of %d", len(query), h.cfg.MaxQueryBytes)
	}
	doc, err := parser.ParseQuery(&ast.Source{Input: query})
	if err != nil {
		return nil
	}
	fields := 0
	for _, op := range doc.Operations {
		fields += countFields(op.SelectionSet)
	}
	for _, f := range doc.Fragments {
		fields += countFields(f.SelectionSet)
	}
	if fields > h.cfg.MaxQueryFields {
		return tooComplex("the query selects %d fields, over the limit of %d (aliases and repeated fields count)", fields, h.cfg.MaxQueryFields)
	}
	for _, op := range doc.Operations {
		if op.Operation != ast.Mutation {
			continue
		}
		if n := countTopFields(op.SelectionSet, doc.Fragments, map[string]bool{}); n > h.cfg.MaxMutations {
			return tooComplex("the request runs %d mutations, over the limit of %d a request", n, h.cfg.MaxMutations)
		}
	}
	return nil
}

// countFields counts the field selections of a selection set, nested ones
// included; fragment spreads count where the fragment is defined.
func countFields(set ast.SelectionSet) int {
	n := 0
	for _, s := range set {
		switch s := s.(type) {
		case *ast.Field:
			n += 1 + countFields(s.SelectionSet)
		case *ast.InlineFragment:
			n += countFields(s.SelectionSet)
		}
	}
	return n
}

// countTopFields counts the fields an operation's top level runs, through
// inline fragments and fragment spreads (each fragment once: a cycle is a
// validation error gqlgen reports).
func countTopFields(set ast.SelectionSet, frags ast.FragmentDefinitionList, seen map[string]bool) int {
	n := 0
	for _, s := range set {
		switch s := s.(type) {
		case *ast.Field:
			n++
		case *ast.InlineFragment:
			n += countTopFields(s.SelectionSet, frags, seen)
		case *ast.FragmentSpread:
			if f := frags.ForName(s.Name); f != nil && !seen[s.Name] {
				seen[s.Name] = true
				n += countTopFields(f.SelectionSet, frags, seen)
			}
		}
	}
	return n
}

func tooComplex(format string, args ...any) *gqlerror.Error {
	gerr := gqlerror.Errorf(format, args...)
	gerr.Extensions = map[string]any{"code": codeTooComplex}
	return gerr
}

// chargeHeavy is field middleware: each heavy mutation field, aliases
// included, is charged to the caller's heavy budget before it runs; a
// spent budget is that field's rate_limited error, and the request's other
// fields still get their answers.
func (h *gqlHandler) chargeHeavy(ctx context.Context, next graphql.Resolver) (any, error) {
	fc := graphql.GetFieldContext(ctx)
	if h.cfg.Heavy == nil || fc == nil || fc.Object != "Mutation" || !heavyMutations[fc.Field.Name] {
		return next(ctx)
	}
	if err := h.cfg.Heavy.AllowHeavy(ctx, engine.PrincipalFromContext(ctx)); err != nil {
		return nil, err
	}
	return next(ctx)
}

// writeDocumentError answers a document refused by checkDocument, as a
// request error (no data).
func writeDocumentError(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor, gerr *gqlerror.Error) {
	resp := exec.DispatchError(r.Context(), gqlerror.List{gerr})
	media := responseMedia(r)
	w.Header().Set("Content-Type", contentType(media))
	w.WriteHeader(requestErrorStatus(media, gqlerror.List{gerr}))
	writeRequestError(w, resp)
}
