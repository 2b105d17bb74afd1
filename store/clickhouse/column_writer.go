package clickhouse

import (
	"context"
	"fmt"
	"slices"

	"github.com/ClickHouse/clickhouse-go/v2/lib/column"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"github.com/fourd-dev/fourd/store/clickhouse/internal/bulk"
)

// A snapshot write's senders append a bucket's columns to their open
// INSERTs through a columnWriter, in the bucket's sorted order.

// columnScratch is one sender's reusable buffers: a batch's sort orders
// and one column's values at a time, so that a batch costs no per-column
// allocation beyond what the driver copies.
type columnScratch struct {
	order, tmp []sortEntry
	hashes     []uint64 // resource hashes of a bucket's rows
	fixed      [][]byte // a bucket's stored ids in order (columnWriter.fixed)
	strs       []string
	u8         []uint8
	i8         []int8
	i64        []int64
	u64        []uint64
	// The sender's INSERTs into findings and the resource index, open
	// while it sends a run.
	findings, index openInsert
	// reserve is what the run being sent needs of an INSERT's string
	// columns (bulk.Reserve), set by sendRun.
	reserve runSizes
}

// runSizes are the most rows and the most bytes of each string column
// that one bucket of a run holds: an INSERT's String and FixedString
// columns are reserved that large when it opens (bulk.Reserve), so that
// its blocks append without growing them.
type runSizes struct {
	rows                 int
	resourceID, evidence int
	coded                [numDicts]int // by dictionary
}

// sizes returns the run's runSizes.
func (r *findingRun) sizes() runSizes {
	var z runSizes
	for _, b := range r.buckets {
		z.rows = max(z.rows, b.len())
		z.resourceID = max(z.resourceID, len(b.resourceID.data))
		z.evidence = max(z.evidence, len(b.evidence.data))
		for d, codes := range b.codes {
			n, values := 0, b.dict[d]
			for _, c := range codes {
				n += len(values[c])
			}
			z.coded[d] = max(z.coded[d], n)
		}
	}
	return z
}

// openInsert is an INSERT that a sender keeps open across the blocks of
// a run.
type openInsert struct {
	b driver.Batch
}

// end sends the INSERT, if one is open.
func (o *openInsert) end() error {
	b := o.b
	*o = openInsert{}
	if b == nil {
		return nil
	}
	return b.Send()
}

// snapshotConsts are the column values every row of a snapshot shares.
type snapshotConsts struct {
	tenantID, auditID string
	writtenAt         int64
}

// columnWriter appends the columns of one INSERT, in the INSERT's order,
// each gathered from a batch column in the sorted order. The first error
// sticks and is returned by send.
type columnWriter struct {
	b     driver.Batch
	open  *openInsert
	sc    *columnScratch
	order []sortEntry
	col   int
	err   error
	// cols are the INSERT's columns when this writer opened it (its
	// string columns are reserved as they are appended), else nil.
	cols []column.Interface
}

// newColumnWriter appends one batch to the open INSERT, or to a new one.
func (s *Store) newColumnWriter(ctx context.Context, sc *columnScratch, open *openInsert, insert string, order []sortEntry) (*columnWriter, error) {
	var cols []column.Interface
	if open.b == nil {
		b, err := s.prepareBatch(ctx, insert)
		if err != nil {
			return nil, fmt.Errorf("prepare batch: %w", err)
		}
		open.b, cols = b, b.Columns()
	}
	return &columnWriter{b: open.b, open: open, sc: sc, order: order, cols: cols}, nil
}

// reserve gives column i of a new INSERT room for the run's largest
// bucket: rows values of size bytes (bulk.Reserve).
func (w *columnWriter) reserve(i, size int) {
	if w.cols != nil && i < len(w.cols) {
		if err := bulk.Reserve(w.cols[i], w.sc.reserve.rows, size); err != nil {
			w.err = err
		}
	}
}

// next returns the index of the column to append, or -1 after an error.
func (w *columnWriter) next() int {
	if w.err != nil {
		return -1
	}
	w.col++
	return w.col - 1
}

func (w *columnWriter) append(i int, v any) {
	if err := w.b.Column(i).Append(v); err != nil {
		w.err = err
	}
}

// strings appends col in order, through the public batch API: each value
// is a view of the batch's bytes (bulk.String) that the driver copies into
// its column. The driver's columns keep their buffers across the blocks of
// an open INSERT (Flush resets them to length 0), so after a run's first
// block the copy grows nothing.
func (w *columnWriter) strings(col *byteColumn, size int) {
	i := w.next()
	if i < 0 {
		return
	}
	if w.reserve(i, size); w.err != nil {
		return
	}
	order := w.order
	if err := bulk.Strings(w.b.Column(i), &w.sc.strs, len(order), func(j int) string {
		return bulk.String(col.at(int(order[j].row)))
	}); err != nil {
		w.err = err
	}
}

// fixed appends stored ids in order, as slices of the batch's own arrays
// that the driver's FixedString column copies.
func (w *columnWriter) fixed(col [][idBytesLen]byte) {
	i := w.next()
	if i < 0 {
		return
	}
	if w.reserve(i, 0); w.err != nil {
		return
	}
	rows := slices.Grow(w.sc.fixed[:0], len(w.order))[:len(w.order)]
	for j, e := range w.order {
		rows[j] = col[e.row][:]
	}
	w.append(i, rows)
	clear(rows) // drop references to the batch
	w.sc.fixed = rows[:0]
}

// coded appends a dictionary-coded column in order: each row's value is
// its code's dictionary string, which the driver copies.
func (w *columnWriter) coded(codes []uint32, values []string, size int) {
	i := w.next()
	if i < 0 {
		return
	}
	if w.reserve(i, size); w.err != nil {
		return
	}
	order := w.order
	if err := bulk.Strings(w.b.Column(i), &w.sc.strs, len(order), func(j int) string {
		return values[codes[order[j].row]]
	}); err != nil {
		w.err = err
	}
}

// gather appends col in order to the next column, through scratch.
func gather[T any](w *columnWriter, scratch *[]T, col []T) {
	if i := w.next(); i >= 0 {
		v := slices.Grow((*scratch)[:0], len(w.order))[:len(w.order)]
		for j, e := range w.order {
			v[j] = col[e.row]
		}
		*scratch = v
		w.append(i, v)
	}
}

// seconds appends DateTime seconds in order to the next column, through
// scratch (the driver takes int64 seconds).
func seconds(w *columnWriter, scratch *[]int64, col []uint32) {
	if i := w.next(); i >= 0 {
		v := slices.Grow((*scratch)[:0], len(w.order))[:len(w.order)]
		for j, e := range w.order {
			v[j] = int64(col[e.row])
		}
		*scratch = v
		w.append(i, v)
	}
}

// constant appends k to every row of the next column, through scratch.
func constant[T any](w *columnWriter, scratch *[]T, k T) {
	if i := w.next(); i >= 0 {
		v := slices.Grow((*scratch)[:0], len(w.order))[:len(w.order)]
		for j := range v {
			v[j] = k
		}
		*scratch = v
		w.append(i, v)
	}
}

// send sends the bucket as a block of the open INSERT; after an append
// error it aborts the INSERT (the driver will take no more of it).
func (w *columnWriter) send() error {
	err := w.err
	if err == nil {
		err = w.b.Flush()
	}
	if err != nil {
		w.b.Abort()
		*w.open = openInsert{}
		return err
	}
	return nil
}
