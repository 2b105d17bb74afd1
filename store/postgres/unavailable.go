package postgres

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fourd-dev/fourd/engine"
)

// errUnavailable is what a caller is told when PostgreSQL cannot be
// reached or does not answer in time; the API answers it 503 with
// Retry-After.
var errUnavailable = &engine.Error{Code: engine.CodeUnavailable,
	Message: "the database is unavailable or did not answer in time; retry later"}

// defaultConnectTimeout bounds establishing a connection (TCP and startup)
// when the URL sets no connect_timeout: a server that accepts and never
// answers must not hold a request for longer.
const defaultConnectTimeout = 5

// isUnavailable reports whether err says that the server could not be
// reached or did not answer in time: a refused, reset or failed
// connection, a network timeout, a connection cut mid-answer, the
// statement's deadline (or the wait for a free connection of the pool),
// or the server shutting down or refusing connections.
func isUnavailable(err error) bool {
	var ne net.Error
	var ce *pgconn.ConnectError
	var pe *pgconn.PgError
	switch {
	case errors.As(err, &pe):
		// 57P01-03 admin/crash shutdown, cannot connect now; 53300 too
		// many connections; 57014 statement timeout.
		switch pe.Code {
		case "57P01", "57P02", "57P03", "53300", "57014":
			return true
		}
		return false
	case errors.As(err, &ce),
		errors.As(err, &ne),
		pgconn.Timeout(err),
		errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.ErrUnexpectedEOF):
		return true
	}
	return false
}
