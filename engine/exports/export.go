package exports

import (
	"bufio"
	"context"
	"io"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Export is an export that passed authorization and validation and has not
// been written yet: its media type, a file name to offer, and its rows,
// streamed by WriteTo.
type Export struct {
	ContentType string
	Filename    string
	// PageTimeout, when positive, bounds each store query of the stream
	// (the export as a whole is bounded only by its progress).
	PageTimeout time.Duration
	write       func(ctx context.Context, w *bufio.Writer, flush func() error) error
}

// Flusher is a writer that can push what it buffered to the client; WriteTo
// flushes it after every page read from the store.
type Flusher interface {
	Flush()
}

// WriteTo streams the export to w, one store page at a time, never holding
// more than a page. It stops at the first error of w or of the store, and
// when ctx is done (a client that went away stops the query).
func (e *Export) WriteTo(ctx context.Context, w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := e.write(ctx, bw, func() error { return flushTo(bw, w) }); err != nil {
		return err
	}
	return flushTo(bw, w)
}

// flushTo empties bw into w and pushes w to the client.
func flushTo(bw *bufio.Writer, w io.Writer) error {
	if err := bw.Flush(); err != nil {
		return err
	}
	if f, ok := w.(Flusher); ok {
		f.Flush()
	}
	return nil
}

// exportFile is the file name offered for an export of what, taken at t.
func exportFile(what string, format engine.ExportFormat, t time.Time) string {
	ext := map[engine.ExportFormat]string{engine.ExportCSV: ".csv", engine.ExportNDJSON: ".ndjson", engine.ExportOCSF: ".ocsf.ndjson"}[format]
	return "fourd-" + what + "-" + t.UTC().Format("20060102T150405Z") + ext
}

// exportContentType is the media type of a format.
func exportContentType(format engine.ExportFormat) string {
	if format == engine.ExportCSV {
		return "text/csv; charset=utf-8"
	}
	return "application/x-ndjson"
}

// csvSafe defuses a CSV cell that a spreadsheet would read as a formula
// (OWASP "CSV injection"): a cell starting with = + - @, a tab or a carriage
// return gets a leading apostrophe.
func csvSafe(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + s
	}
	return s
}

// pageCtx is the context of one store query of the export.
func (e *Export) pageCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	if e.PageTimeout > 0 {
		return context.WithTimeout(ctx, e.PageTimeout)
	}
	return context.WithCancel(ctx)
}
