package postgres

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fourd-dev/fourd/engine"
)

// maxListLimit bounds a page asked of a list method. engine asks for at most
// engine.MaxLimit+1 rows.
const maxListLimit = 1000

// wrap gives a driver error the API's meaning at the store's boundary:
// unique violation → conflict, check and foreign key violations and invalid
// values → validation_failed, a server that cannot be reached or does not
// answer in time → unavailable (isUnavailable); anything else is prefixed with where it
// happened (and becomes internal_error). *engine.Error passes unchanged. It
// is deferred at the top of each method, pkgsite style.
func wrap(errp *error, format string, args ...any) {
	err := *errp
	if err == nil {
		return
	}
	var ee *engine.Error
	if errors.As(err, &ee) {
		return
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "23505":
			*errp = engine.Errorf(engine.CodeConflict, "%s already exists", conflictSubject(pe.ConstraintName))
			return
		case pe.Code == "23503":
			*errp = engine.Errorf(engine.CodeValidationFailed, "a referenced record does not exist")
			return
		case pe.Code == "23514" || pe.Code == "23502":
			*errp = engine.Errorf(engine.CodeValidationFailed, "a value is missing or not allowed")
			return
		case strings.HasPrefix(pe.Code, "22"): // data exception: bad encoding, out of range…
			*errp = engine.Errorf(engine.CodeValidationFailed, "a value is malformed or out of range")
			return
		}
	}
	if isUnavailable(err) {
		*errp = fmt.Errorf("postgres: "+format+": %w: %w", append(args, errUnavailable, err)...)
		return
	}
	*errp = fmt.Errorf("postgres: "+format+": %w", append(args, err)...)
}

// isUniqueViolation reports whether err is a unique violation (23505).
func isUniqueViolation(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// conflictSubject names what a unique constraint protects, for a conflict
// message that is safe to show.
func conflictSubject(constraint string) string {
	switch constraint {
	case "tenants_slug_key":
		return "a tenant with this slug"
	case "users_tenant_email_key":
		return "a user with this email"
	case "tokens_hash_key":
		return "a token with this secret"
	case "audits_one_running_per_tenant":
		return "a running audit for this tenant"
	case "policies_tenant_name_key":
		return "a policy with this name"
	}
	if strings.HasSuffix(constraint, "_pkey") || strings.HasSuffix(constraint, "_tenant_id_id_key") {
		return "a record with this id"
	}
	return "a record with these values"
}

// notFound turns "no rows" into engine's not_found for a record of kind.
func notFound(err error, kind, id string) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return engine.ErrNotFound(kind, id)
	}
	return err
}

// lookupKey reports whether s can be a key at all; a string that cannot
// (bad UTF-8, NUL, absurd length) is simply not found, without a query.
func lookupKey(s string) bool {
	return s != "" && len(s) <= 512 && utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

// checkLimit validates the page size a list method was asked for.
func checkLimit(n int) error {
	if n < 1 || n > maxListLimit {
		return &engine.Error{Code: engine.CodeInvalidLimit, Field: "limit",
			Message: fmt.Sprintf("limit must be from 1 to %d; got %d", maxListLimit, n)}
	}
	return nil
}

// utc normalizes a time read from the database (pgx returns local time).
func utc(t time.Time) time.Time { return t.UTC() }

// utcp is utc for a nullable time.
func utcp(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// nullIfEmpty stores an empty string as NULL (optional references).
func nullIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// toStrings converts a slice of string-kinded values for a text[] parameter.
func toStrings[T ~string](in []T) []string {
	out := make([]string, len(in))
	for i, v := range in {
		out[i] = string(v)
	}
	return out
}

// fromStrings is the inverse of toStrings.
func fromStrings[T ~string](in []string) []T {
	out := make([]T, len(in))
	for i, v := range in {
		out[i] = T(v)
	}
	return out
}
