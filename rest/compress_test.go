package rest

import (
	"compress/flate"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestNegotiateEncoding(t *testing.T) {
	for _, c := range []struct {
		header []string
		want   string
	}{
		{nil, ""},
		{[]string{"gzip"}, "gzip"},
		{[]string{"gzip, deflate, br"}, "gzip"},
		{[]string{"deflate, gzip"}, "gzip"}, // equal preference: gzip
		{[]string{"deflate"}, "deflate"},
		{[]string{"br, identity"}, ""},
		{[]string{"gzip;q=0, deflate"}, "deflate"},
		{[]string{"gzip;q=0.5, deflate;q=0.8"}, "deflate"},
		{[]string{"GZIP ; q=1.0"}, "gzip"},
		{[]string{"gzip;q=0"}, ""},
		{[]string{"gzip;q=nonsense"}, ""},
		{[]string{"br", "gzip"}, "gzip"},
	} {
		if got := negotiateEncoding(c.header); got != c.want {
			t.Errorf("negotiateEncoding(%q) = %q, want %q", c.header, got, c.want)
		}
	}
}

func TestCompress(t *testing.T) {
	a := &api{}
	body := strings.Repeat(`{"hello":"world"}`, 200)
	serve := func(acceptEncoding string, h http.HandlerFunc) *http.Response {
		t.Helper()
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req = req.WithContext(context.WithValue(req.Context(), infoKey, &requestInfo{}))
		if acceptEncoding != "" {
			req.Header.Set("Accept-Encoding", acceptEncoding)
		}
		w := httptest.NewRecorder()
		a.compress(h).ServeHTTP(w, req)
		return w.Result()
	}
	read := func(res *http.Response) string {
		t.Helper()
		var r io.Reader = res.Body
		switch res.Header.Get("Content-Encoding") {
		case "gzip":
			zr, err := gzip.NewReader(res.Body)
			if err != nil {
				t.Fatal(err)
			}
			r = zr
		case "deflate":
			r = flate.NewReader(res.Body)
		}
		b, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	plain := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "999") // wrong once compressed: dropped
		_, _ = io.WriteString(w, body[:100])
		_, _ = io.WriteString(w, body[100:])
	}
	for _, enc := range []string{"gzip", "deflate"} {
		res := serve(enc, plain)
		if res.Header.Get("Content-Encoding") != enc || res.Header.Get("Content-Length") != "" ||
			res.Header.Get("Vary") != "Accept-Encoding" || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain") {
			t.Errorf("%s: headers %v", enc, res.Header)
		}
		if got := read(res); got != body {
			t.Errorf("%s: body of %d bytes, want %d", enc, len(got), len(body))
		}
	}
	// Several responses in a row reuse pooled compressors correctly.
	for range 3 {
		if got := read(serve("gzip", plain)); got != body {
			t.Fatal("a pooled compressor wrote a wrong body")
		}
	}
	if res := serve("", plain); res.Header.Get("Content-Encoding") != "" || read(res) != body {
		t.Errorf("no Accept-Encoding: %v", res.Header)
	}
	// A handler that encoded its body itself is left alone, and learns the
	// negotiated coding.
	var negotiated string
	pre := func(w http.ResponseWriter, r *http.Request) {
		negotiated = infoFrom(r.Context()).encoding
		var buf strings.Builder
		zw := gzip.NewWriter(&buf)
		_, _ = io.WriteString(zw, body)
		_ = zw.Close()
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = io.WriteString(w, buf.String())
	}
	if res := serve("gzip", pre); negotiated != "gzip" || read(res) != body {
		t.Errorf("pre-encoded body: negotiated %q, headers %v", negotiated, res.Header)
	}
	// Answers without a body are not encoded.
	for _, code := range []int{http.StatusNoContent, http.StatusNotModified} {
		res := serve("gzip", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(code) })
		if b, _ := io.ReadAll(res.Body); res.Header.Get("Content-Encoding") != "" || len(b) != 0 {
			t.Errorf("%d: Content-Encoding %q, %d body bytes", code, res.Header.Get("Content-Encoding"), len(b))
		}
	}
}
