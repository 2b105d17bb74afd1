package rest

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/cache"
)

// DefaultPageBodyCacheBytes bounds the encoded page bodies a handler keeps
// when Config.PageBodyCacheBytes is 0.
const DefaultPageBodyCacheBytes = 32 << 20

// pageBodies keeps the encoded bodies of list pages that the engine named
// (engine.Page.Key): the JSON and its gzip encoding, so that a page served
// again costs a lookup and a write instead of encoding and compressing it.
// An entry's key is the caller's tenant and the page's Key (which names the
// tenant too): equal Keys mean equal pages, next cursor included, so an
// entry never needs invalidating; entries the engine no longer names (a new
// snapshot, new decisions on findings, a re-minted cursor) age out. It is
// an LRU bounded by bytes.
type pageBodies struct {
	lru *cache.LRU[pageBodyKey, *pageBody] // internal/cache
	max int
}

// pageBodyKey is the caller's tenant and the engine's Page.Key.
type pageBodyKey struct{ tenantID, page string }

// pageBody is one encoded page.
type pageBody struct {
	key  pageBodyKey
	json []byte
	gzip []byte
	etag string // weak: both encodings are the same representation
}

func (b *pageBody) cost() int {
	return len(b.key.tenantID) + len(b.key.page) + len(b.json) + len(b.gzip) + 64
}

func newPageBodies(max int) *pageBodies {
	if max <= 0 {
		return nil
	}
	return &pageBodies{max: max, lru: cache.New(cache.Options[pageBodyKey, *pageBody]{MaxCost: max,
		Cost: func(_ pageBodyKey, b *pageBody) int { return b.cost() }})}
}

func (c *pageBodies) get(key pageBodyKey) *pageBody {
	b, _ := c.lru.Get(key)
	return b
}

// put keeps b; a body already kept under its key stays (equal keys are
// equal pages), and one larger than the whole cache is not kept.
func (c *pageBodies) put(b *pageBody) { c.lru.Add(b.key, b) }

// gzipBestMaxBytes is the largest JSON body compressed at the best level.
const gzipBestMaxBytes = 64 << 10

// pageGzips are pooled gzip writers by level (a compressor is about a
// megabyte: allocating one per page fed the garbage collector).
var pageGzips = map[int]*sync.Pool{}

func init() {
	for _, level := range []int{gzip.BestSpeed, gzip.BestCompression} {
		pageGzips[level] = &sync.Pool{New: func() any {
			w, _ := gzip.NewWriterLevel(nil, level)
			return w
		}}
	}
}

// encodePageBody encodes v as writeJSON does, and gzips it.
func encodePageBody(key pageBodyKey, v any) (*pageBody, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	// Once per page, so a small page (a dashboard's limit=50, served again
	// and again) is worth the best ratio; a large one is compressed fast,
	// since its first reader waits for it: best compression took 3.5 ms
	// of a 200-finding page's ~15 (docs/design/read-path.md).
	level := gzip.BestCompression
	if buf.Len() > gzipBestMaxBytes {
		level = gzip.BestSpeed
	}
	var gz bytes.Buffer
	gz.Grow(buf.Len() / 4)
	zw := pageGzips[level].Get().(*gzip.Writer)
	defer pageGzips[level].Put(zw)
	zw.Reset(&gz)
	_, _ = zw.Write(buf.Bytes())
	if err := zw.Close(); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(buf.Bytes())
	return &pageBody{key: key, json: buf.Bytes(), gzip: gz.Bytes(),
		etag: `W/"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`}, nil
}

// writeList answers 200 with a list page. A page the engine named is
// served from (and kept in) the handler's encoded bodies, with an ETag; a
// request whose If-None-Match names it gets 304 without a body.
func writeList[T any](a *api, w http.ResponseWriter, r *http.Request, tenantID string, page engine.Page[T]) {
	if page.Key == "" || a.bodies == nil {
		writeJSON(w, http.StatusOK, newListBody(page))
		return
	}
	key := pageBodyKey{tenantID, page.Key}
	b := a.bodies.get(key)
	if b == nil {
		var err error
		if b, err = encodePageBody(key, newListBody(page)); err != nil {
			writeJSON(w, http.StatusOK, newListBody(page)) // answers the encoding error as writeJSON does
			return
		}
		a.bodies.put(b)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("ETag", b.etag)
	if etagMatches(r.Header.Values("If-None-Match"), b.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := b.json
	if infoFrom(r.Context()).encoding == encodingGzip {
		h.Set("Content-Encoding", encodingGzip)
		body = b.gzip
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// etagMatches reports whether If-None-Match values name etag, compared
// weakly (RFC 9110 13.1.2), or are "*".
func etagMatches(values []string, etag string) bool {
	want := strings.TrimPrefix(etag, "W/")
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			part = strings.TrimSpace(part)
			if part == "*" || strings.TrimPrefix(part, "W/") == want {
				return true
			}
		}
	}
	return false
}
