package engine

import (
	"errors"
	"fmt"
)

// Error codes are the API's stable, machine-readable codes. Clients branch on
// them; the REST and GraphQL adapters map them to HTTP statuses and
// extensions.code respectively.
const (
	CodeUnauthorized          = "unauthorized"
	CodeInsufficientScope     = "insufficient_scope"
	CodeNotFound              = "not_found"
	CodeMethodNotAllowed      = "method_not_allowed"
	CodeInvalidRequest        = "invalid_request"
	CodeInvalidCursor         = "invalid_cursor"
	CodeInvalidLimit          = "invalid_limit"
	CodeInvalidSeverityFilter = "invalid_severity_filter"
	CodeValidationFailed      = "validation_failed"
	CodeConflict              = "conflict"
	CodePayloadTooLarge       = "payload_too_large"
	CodeRateLimited           = "rate_limited"
	CodeInternal              = "internal_error"
	CodeUnavailable           = "unavailable"
)

// Error is the one error type whose message is safe to show a caller. Every
// other error is reported to callers as internal_error with a generic message.
type Error struct {
	Code    string
	Message string
	// Field names the input the error is about, when there is one.
	Field string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// FieldErrorf returns a validation_failed *Error about one input field.
func FieldErrorf(field, format string, args ...any) *Error {
	return &Error{Code: CodeValidationFailed, Message: fmt.Sprintf(format, args...), Field: field}
}

// ErrorCode returns the code of err: the code of an *Error in its chain, or
// internal_error for anything else. A nil error has no code.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

// ErrorMessage returns the message of err that is safe to show a caller.
func ErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}

// IsNotFound reports whether err carries the not_found code.
func IsNotFound(err error) bool { return ErrorCode(err) == CodeNotFound }

// ErrNotFound returns the not_found error for a record of the given kind.
// It is the same for a missing id and another tenant's id, so that ids of
// other tenants cannot be probed.
func ErrNotFound(kind, id string) *Error {
	return Errorf(CodeNotFound, "no %s with id %q", kind, id)
}

// OAuth 2.0 error codes (RFC 6749 §4.1.2.1 and §5.2). The token,
// revocation and introspection endpoints answer them in RFC 6749 §5.2
// bodies; the authorization endpoint sends them to the client's redirect
// URI.
const (
	CodeInvalidClient           = "invalid_client"
	CodeInvalidGrant            = "invalid_grant"
	CodeUnsupportedGrantType    = "unsupported_grant_type"
	CodeInvalidScope            = "invalid_scope"
	CodeUnsupportedResponseType = "unsupported_response_type"
	CodeAccessDenied            = "access_denied"
	CodeUnauthorizedClient      = "unauthorized_client"
	CodeServerError             = "server_error"
	CodeTemporarilyUnavailable  = "temporarily_unavailable"
)
