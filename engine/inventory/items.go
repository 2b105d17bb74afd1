package inventory

import (
	"errors"
	"io"
	"iter"
	"net/http"

	"github.com/fourd-dev/fourd/engine"
)

// located is a record's error with where the record is in the input
// ("line 3: …", "record at byte offset 120: …") put before its message,
// so that the rejection says which line of a file was wrong even where
// item numbers and lines differ (blank lines, an array's elements): code
// and field are kept.
func located(le *LineError) error {
	var ee *engine.Error
	if !errors.As(le.Err, &ee) {
		return le.Err
	}
	out := *ee
	out.Message = le.Error()
	return &out
}

// Items adapts a Decoder to the engine's ingestion: one item per record,
// numbered from 0. A bad record is an item with Err set, and the stream goes
// on; an error that ends the stream (malformed input that cannot be
// skipped, a read error) is a last item with Err set. A body over its size
// limit becomes payload_too_large.
func Items(d Decoder) iter.Seq[engine.IngestItem] {
	// The NDJSON decoder checks UTF-8 and the attributes' JSON as it reads
	// a line (toResource), so the engine need not check them again.
	_, prechecked := d.(*NDJSONDecoder)
	return func(yield func(engine.IngestItem) bool) {
		for i := 0; ; i++ {
			r, err := d.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				var le *LineError
				if errors.As(err, &le) {
					if !yield(engine.IngestItem{Index: i, Err: located(le)}) {
						return
					}
					continue
				}
				var mbe *http.MaxBytesError
				if errors.As(err, &mbe) {
					err = engine.Errorf(engine.CodePayloadTooLarge, "the request body exceeds %d bytes", mbe.Limit)
				}
				yield(engine.IngestItem{Index: i, Err: err, Ends: true})
				return
			}
			if !yield(engine.IngestItem{Index: i, Resource: r, Prechecked: prechecked}) {
				return
			}
		}
	}
}
