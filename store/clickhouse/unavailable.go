package clickhouse

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"

	"github.com/fourd-dev/fourd/engine"
)

// errUnavailable is what a caller is told when ClickHouse cannot be reached
// or does not answer in time; the API answers it 503 with Retry-After.
var errUnavailable = &engine.Error{Code: engine.CodeUnavailable,
	Message: "the analytics store is unavailable or did not answer in time; retry later"}

// codeTimeoutExceeded is ClickHouse's TIMEOUT_EXCEEDED (max_execution_time).
const codeTimeoutExceeded = 159

// isUnavailable reports whether err says that the server could not be
// reached or did not answer in time: a refused or reset connection, a
// network timeout, a connection cut mid-answer, the read's deadline, a pool
// with no free connection, or the server's own execution time limit.
func isUnavailable(err error) bool {
	var ne net.Error
	var ex *ch.Exception
	switch {
	case errors.As(err, &ex):
		return ex.Code == codeTimeoutExceeded || clusterUnavailable(ex.Code)
	case errors.As(err, &ne),
		errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, ch.ErrAcquireConnTimeout),
		errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.EOF),
		errors.Is(err, io.ErrUnexpectedEOF):
		return true
	}
	return false
}

// dialContext connects to addr and bounds the driver's handshake by ctx's
// deadline as well as by the dial timeout: the driver (v2.50.0) bounds a
// new connection's handshake by DialTimeout alone, so a server that
// accepts and never answers held a read past its deadline. The connection
// is cut only when ctx's deadline passes before the driver has finished
// acquiring it (the driver cancels ctx once it has).
func dialContext(timeout time.Duration) func(ctx context.Context, addr string) (net.Conn, error) {
	return func(ctx context.Context, addr string) (net.Conn, error) {
		d := net.Dialer{Timeout: timeout}
		c, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			return nil, err
		}
		go func() {
			<-ctx.Done()
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				_ = c.SetDeadline(time.Now())
			}
		}()
		return c, nil
	}
}
