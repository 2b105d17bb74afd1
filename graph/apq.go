package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/fourd-dev/fourd/engine"
)

// codePersistedHashMismatch is the code of a persisted query whose hash is
// not its text's SHA-256: the client's mistake.
const codePersistedHashMismatch = "PERSISTED_QUERY_HASH_MISMATCH"

// apqHashMismatch is gqlgen's (v0.17.95) message for that case, which it
// sends without a code.
const apqHashMismatch = "provided APQ hash does not match query"

// persistedQueries is gqlgen's automatic persisted queries with a code on
// every error it raises: gqlgen codes only an unknown hash, and an error
// without a code would be answered internal_error. A hash that does not
// match its query is PERSISTED_QUERY_HASH_MISMATCH; malformed extension
// data and an unsupported version are invalid_request.
type persistedQueries struct {
	extension.AutomaticPersistedQuery
}

var _ graphql.OperationParameterMutator = persistedQueries{}

// MutateOperationParameters resolves the persisted query, coding its errors.
func (p persistedQueries) MutateOperationParameters(ctx context.Context, raw *graphql.RawParams) *gqlerror.Error {
	err := p.AutomaticPersistedQuery.MutateOperationParameters(ctx, raw)
	if err != nil && err.Extensions["code"] == nil {
		code := engine.CodeInvalidRequest
		if err.Message == apqHashMismatch {
			code = codePersistedHashMismatch
			err.Message = "the persisted query's sha256Hash is not the SHA-256 of its query text"
		}
		errcode.Set(err, code)
	}
	return err
}
