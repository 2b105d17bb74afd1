package rest

import (
	"context"
	"errors"
	"mime"
	"net/http"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/exports"
)

// exportFindings serves GET /v1/findings/export?format=csv|ndjson|ocsf (default
// csv) with the filters of the findings list: the matching findings of the
// snapshot, streamed as an attachment.
func (a *api) exportFindings(w http.ResponseWriter, r *http.Request) error {
	q, err := parseQuery(r, params([]string{"format"}, findingFilterParams)...)
	if err != nil {
		return err
	}
	f, err := q.findingFilter(r)
	if err != nil {
		return err
	}
	exp, err := a.prepareExport(r, func(ctx context.Context) (*exports.Export, error) {
		return a.exports.ExportFindings(ctx, principal(r), f, exportFormat(q))
	})
	if err != nil {
		return err
	}
	return a.streamExport(w, r, exp)
}

// isExportPath reports whether a path is one of the streamed exports, which
// readDeadline leaves without a whole-request deadline.
func isExportPath(p string) bool {
	return p == "/v1/findings/export" || p == "/v1/resources/export"
}

// prepareExport runs an export's preparation (scope, validation, snapshot)
// within Config.ReadTimeout, as any read is, and has each store page of
// the stream bounded by it too.
func (a *api) prepareExport(r *http.Request, prepare func(context.Context) (*exports.Export, error)) (*exports.Export, error) {
	ctx := r.Context()
	if a.cfg.ReadTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, a.cfg.ReadTimeout)
		defer cancel()
	}
	exp, err := prepare(ctx)
	if err != nil {
		return nil, err
	}
	exp.PageTimeout = a.cfg.ReadTimeout
	return exp, nil
}

// exportFormat is the format asked for; csv when absent.
func exportFormat(q query) string {
	if v, ok := q["format"]; ok {
		return v
	}
	return string(engine.ExportCSV)
}

// streamExport writes a prepared export as an attachment. Each page is
// flushed to the client as it is read and pushes the write deadline on, so
// a long export is bounded by its progress, not by the server's
// WriteTimeout. Once the status is sent an error can only cut the body
// short: it is logged, and the client sees a truncated transfer.
func (a *api) streamExport(w http.ResponseWriter, r *http.Request, exp *exports.Export) error {
	h := w.Header()
	h.Set("Content-Type", exp.ContentType)
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": exp.Filename}))
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Now().Add(WriteTimeout))
	err := exp.WriteTo(r.Context(), exportWriter{w: w, rc: rc})
	if err != nil {
		if r.Context().Err() == nil {
			a.log.ErrorContext(r.Context(), "export cut short", "path", r.URL.Path, "error", err)
		}
		// Whatever the cause (a store error, a page past its deadline, the
		// client gone), the transfer ends without its final chunk: a client
		// still reading sees a broken transfer, not a complete-looking file.
		panic(http.ErrAbortHandler)
	}
	return nil
}

// exportWriter is the response as an export writes it: Flush sends what
// was written and gives the next page a fresh write deadline.
type exportWriter struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

func (e exportWriter) Write(p []byte) (int, error) { return e.w.Write(p) }

// Flush pushes the written bytes to the client.
func (e exportWriter) Flush() {
	if err := e.rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return
	}
	_ = e.rc.SetWriteDeadline(time.Now().Add(WriteTimeout))
}

// exportResources serves GET /v1/resources/export?format=csv|ndjson
// (default csv) with the filters of the resources list, streamed as an
// attachment.
func (a *api) exportResources(w http.ResponseWriter, r *http.Request) error {
	q, err := parseQuery(r, params([]string{"format"}, resourceFilterParams)...)
	if err != nil {
		return err
	}
	f := engine.ResourceFilter{Type: q["type"], Provider: q["provider"], Account: q["account"], Region: q["region"]}
	exp, err := a.prepareExport(r, func(ctx context.Context) (*exports.Export, error) {
		return a.exports.ExportResources(ctx, principal(r), f, exportFormat(q))
	})
	if err != nil {
		return err
	}
	return a.streamExport(w, r, exp)
}
