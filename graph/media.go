package graph

import (
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/fourd-dev/fourd/engine"
)

// The response media types of the GraphQL-over-HTTP specification. They
// differ in the status of a request error (one answered before execution,
// without data): application/json answers 200, so that no proxy's error
// page can pass for a GraphQL response; application/graphql-response+json
// answers 4xx or 5xx. An executed operation is 200 in both, field errors
// or not.
const (
	mediaJSON            = "application/json"
	mediaGraphQLResponse = "application/graphql-response+json"
)

// negotiate picks the response media type the Accept header prefers. No
// Accept header means application/graphql-response+json (the spec's
// default since 2025); */* and application/* mean application/json, which
// every client reads. ok is false when Accept names neither (406).
func negotiate(r *http.Request) (media string, ok bool) {
	accept := strings.Join(r.Header.Values("Accept"), ",")
	if strings.TrimSpace(accept) == "" {
		return mediaGraphQLResponse, true
	}
	bestQ := 0.0
	for part := range strings.SplitSeq(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if s, found := params["q"]; found {
			if q, err = strconv.ParseFloat(s, 64); err != nil || q < 0 || q > 1 {
				continue
			}
		}
		var m string
		switch mt {
		case mediaGraphQLResponse, mediaJSON:
			m = mt
		case "*/*", "application/*":
			m = mediaJSON
		default:
			continue
		}
		// Equal weights keep the first named: a client listing
		// graphql-response+json first prefers it.
		if q > bestQ {
			media, bestQ = m, q
		}
	}
	return media, media != ""
}

// contentType is the Content-Type header of a response in media.
func contentType(media string) string { return media + "; charset=utf-8" }

// requestErrorStatus is the HTTP status of a well-formed request that
// failed before execution (syntax, validation, variables, operation name,
// cost, depth, persisted query, cost budget): 200 under application/json,
// as the spec asks; under application/graphql-response+json the status of
// the first error's code, 400 for the request errors themselves.
func requestErrorStatus(media string, errs gqlerror.List) int {
	if media != mediaGraphQLResponse {
		return http.StatusOK
	}
	for _, e := range errs {
		code, _ := e.Extensions["code"].(string)
		if mapped, ok := protocolCodes[code]; ok {
			code = mapped
		}
		switch code {
		case engine.CodeRateLimited:
			return http.StatusTooManyRequests
		case engine.CodeUnauthorized:
			return http.StatusUnauthorized
		case engine.CodeInsufficientScope:
			return http.StatusForbidden
		case engine.CodeInternal:
			return http.StatusInternalServerError
		case engine.CodeUnavailable:
			return http.StatusServiceUnavailable
		}
	}
	return http.StatusBadRequest
}
