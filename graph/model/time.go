package model

import (
	"io"
	"strconv"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"github.com/fourd-dev/fourd/engine"
)

// MarshalTime writes a time as RFC 3339 in UTC.
func MarshalTime(t time.Time) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		_, _ = io.WriteString(w, strconv.Quote(t.UTC().Format(time.RFC3339Nano)))
	})
}

// UnmarshalTime reads an RFC 3339 time; anything else is validation_failed,
// so that a bad input is answered with a code like every other.
func UnmarshalTime(v any) (time.Time, error) {
	s, ok := v.(string)
	if !ok {
		return time.Time{}, &engine.Error{Code: engine.CodeValidationFailed, Message: "a Time must be an RFC 3339 string"}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, &engine.Error{Code: engine.CodeValidationFailed,
			Message: "a Time must be an RFC 3339 string such as 2025-01-31T00:00:00Z; got " + strconv.Quote(truncate(s))}
	}
	return t.UTC(), nil
}

func truncate(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}
