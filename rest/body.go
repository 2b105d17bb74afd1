package rest

import (
	"errors"
	"io"
	"net/http"

	"github.com/fourd-dev/fourd/engine"
)

// clientBody reads a request body and turns a failure of the client's side
// into a client error: a body that stalls past the server's read timeout,
// or that ends before its declared length (the client went away), is
// invalid_request with a message that says so and nothing more. The
// reader's own error text names socket addresses and stays in no answer.
// io.EOF and a body over its limit (*http.MaxBytesError, payload_too_large
// where it is answered) pass unchanged.
type clientBody struct {
	io.ReadCloser
}

// errBodyBroken is the error of a body that could not be read to its end.
var errBodyBroken = &engine.Error{Code: engine.CodeInvalidRequest,
	Message: "the request body could not be read to its end: the client stopped sending it or closed the connection"}

func (b clientBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == nil || errors.Is(err, io.EOF) || isMaxBytes(err) {
		return n, err
	}
	var ee *engine.Error
	if errors.As(err, &ee) {
		return n, err
	}
	return n, errBodyBroken
}

// readBody wraps a request body in clientBody.
func readBody(r *http.Request) {
	if r.Body != nil && r.Body != http.NoBody {
		r.Body = clientBody{ReadCloser: r.Body}
	}
}
