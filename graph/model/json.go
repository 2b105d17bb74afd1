package model

import (
	"encoding/json"
	"io"

	"github.com/99designs/gqlgen/graphql"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/jsonvalid"
)

// MarshalJSON writes a stored JSON value (evidence, attributes, filters) as
// it is; an empty or invalid value is written as an empty object, so the
// non-null JSON fields never break a response.
func MarshalJSON(v json.RawMessage) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		if len(v) == 0 || !jsonvalid.Valid(v) {
			_, _ = io.WriteString(w, "{}")
			return
		}
		_, _ = w.Write(v)
	})
}

// UnmarshalJSON reads a JSON scalar sent as input.
func UnmarshalJSON(v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, &engine.Error{Code: engine.CodeValidationFailed, Message: "not a JSON value"}
	}
	return b, nil
}
