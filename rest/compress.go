package rest

import (
	"compress/flate"
	"compress/gzip"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// Content codings the API answers with.
const (
	encodingGzip    = "gzip"
	encodingDeflate = "deflate"
)

// compressor is a pooled gzip or deflate writer.
type compressor interface {
	io.WriteCloser
	Reset(io.Writer)
}

var compressors = map[string]*sync.Pool{
	encodingGzip: {New: func() any {
		w, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression)
		return w
	}},
	encodingDeflate: {New: func() any {
		w, _ := flate.NewWriter(nil, flate.DefaultCompression)
		return w
	}},
}

// compress gzip- or deflate-encodes responses for clients that accept it.
// It does what gorilla's CompressHandler did (which it replaces: Vary on
// Accept-Encoding always, Content-Type sniffed before compressing, no
// Content-Length) with two differences: compressors come from a pool
// instead of being allocated per request (a deflate compressor is about a
// megabyte), and a handler can send a body it encoded itself — it sets
// Content-Encoding and the layer steps aside. The negotiated coding is in
// the request info (info.encoding) for such handlers.
func (a *api) compress(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		enc := negotiateEncoding(r.Header.Values("Accept-Encoding"))
		if enc == "" || r.Header.Get("Upgrade") != "" {
			next.ServeHTTP(w, r)
			return
		}
		infoFrom(r.Context()).encoding = enc
		cw := &compressWriter{ResponseWriter: w, encoding: enc}
		defer cw.close()
		next.ServeHTTP(cw, r)
	})
}

// negotiateEncoding picks gzip or deflate from Accept-Encoding values, in
// the client's order of preference (q-values; a coding with q=0 is
// refused), gzip first on a tie; "" when neither is acceptable.
func negotiateEncoding(values []string) string {
	best, bestQ := "", 0.0
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			name, params, _ := strings.Cut(part, ";")
			name = strings.ToLower(strings.TrimSpace(name))
			if name != encodingGzip && name != encodingDeflate {
				continue
			}
			q := 1.0
			if k, val, ok := strings.Cut(strings.TrimSpace(params), "="); ok && strings.TrimSpace(k) == "q" {
				f, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
				if err != nil {
					continue
				}
				q = f
			}
			if q > bestQ || (q == bestQ && q > 0 && name == encodingGzip) {
				best, bestQ = name, q
			}
		}
	}
	if bestQ <= 0 {
		return ""
	}
	return best
}

// compressWriter compresses what a handler writes, unless the answer has
// no body or the handler encoded it itself.
type compressWriter struct {
	http.ResponseWriter
	encoding string
	started  bool       // the headers are decided
	zw       compressor // nil: writes pass through
}

// start decides, when the status is known, whether to compress.
func (w *compressWriter) start(code int, first []byte) {
	w.started = true
	h := w.Header()
	if h.Get("Content-Encoding") != "" || code == http.StatusNoContent || code == http.StatusNotModified {
		return
	}
	if h.Get("Content-Type") == "" && first != nil {
		h.Set("Content-Type", http.DetectContentType(first))
	}
	h.Del("Content-Length")
	h.Set("Content-Encoding", w.encoding)
	w.zw = compressors[w.encoding].Get().(compressor)
	w.zw.Reset(w.ResponseWriter)
}

func (w *compressWriter) WriteHeader(code int) {
	if !w.started && code >= 200 { // 1xx answers come before the real one
		w.start(code, nil)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *compressWriter) Write(b []byte) (int, error) {
	if !w.started {
		w.start(http.StatusOK, b)
	}
	if w.zw == nil {
		return w.ResponseWriter.Write(b)
	}
	return w.zw.Write(b)
}

// Flush sends what was compressed so far.
func (w *compressWriter) Flush() {
	if w.zw != nil {
		if f, ok := w.zw.(interface{ Flush() error }); ok {
			_ = f.Flush()
		}
	}
	// Through the wrappers below (the metrics' status writer has no Flush
	// of its own): a type assertion on the next writer would stop there.
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// close ends the compressed stream and returns the compressor to its pool.
func (w *compressWriter) close() {
	if w.zw == nil {
		return
	}
	_ = w.zw.Close()
	// Not Reset here: a Reset clears the compressor's tables, which the
	// next Get's Reset does anyway.
	compressors[w.encoding].Put(w.zw)
	w.zw = nil
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *compressWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
