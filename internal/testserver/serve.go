package testserver

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// Serve starts h on a real loopback listener, closed when the test ends,
// and returns its base URL. configure, when not nil, changes the server's
// settings (timeouts) before it starts.
func Serve(t testing.TB, h http.Handler, configure func(*http.Server)) string {
	t.Helper()
	srv := httptest.NewUnstartedServer(h)
	if configure != nil {
		configure(srv.Config)
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL
}

// Client is the HTTP client the suites send requests with.
func Client() *http.Client { return &http.Client{Timeout: 30 * time.Second} }
