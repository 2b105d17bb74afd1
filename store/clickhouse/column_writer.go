package clickhouse

import (
	"context"
	"fmt"
	"slices"
	"unsafe"

	"github.com/ClickHouse/ch-go/proto"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
)

// A snapshot write's senders append a bucket's columns to their open
// INSERTs through a columnWriter, in the bucket's sorted order.

// columnScratch is one sender's reusable buffers: a batch's sort orders
// and one column's values at a time, so that a batch costs no per-column
// allocation beyond what the driver copies.
type columnScratch struct {
	order, tmp []sortEntry
	hashes     []uint64 // resource hashes of a bucket's rows
	fixed      []byte   // a bucket's stored ids in order (columnWriter.fixed)
	strs       []string
	u8         []uint8
	i8         []int8
	i64        []int64
	u64        []uint64
	// Row positions of the String columns, by column index, and the
	// dictionaries' bytes of the coded ones (columnWriter.strings and
	// coded).
	pos     [][]proto.Position
	dicts   [][]byte
	dictBuf []byte
	dictPos []proto.Position
	// The sender's INSERTs into findings and the resource index, open
	// while it sends a run.
	findings, index openInsert
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
}

// newColumnWriter appends one batch to the open INSERT, or to a new one.
func (s *Store) newColumnWriter(ctx context.Context, sc *columnScratch, open *openInsert, insert string, order []sortEntry) (*columnWriter, error) {
	if open.b == nil {
		b, err := s.prepareBatch(ctx, insert)
		if err != nil {
			return nil, fmt.Errorf("prepare batch: %w", err)
		}
		open.b = b
	}
	return &columnWriter{b: open.b, open: open, sc: sc, order: order}, nil
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

// strings appends col in order. When the driver's layout is known (see
// presize.go) nothing is copied: the driver's String column is pointed at
// the batch's bytes, with the rows' positions in order, and encodes them
// straight into its connection's buffer at Flush (send lets go of them
// right after). Copying each value into the driver's buffer first cost a
// 10M-finding snapshot ~3 s of the client's CPU (docs/benchmarks.md,
// issue 2).
func (w *columnWriter) strings(col *byteColumn) {
	i := w.next()
	if i < 0 {
		return
	}
	if raw := rawStringColumn(w.b, i); raw != nil {
		pos := w.sc.positions(i, len(w.order))
		for j, e := range w.order {
			start := uint32(0)
			if e.row > 0 {
				start = col.end[e.row-1]
			}
			pos[j] = proto.Position{Start: int(start), End: int(col.end[e.row])}
		}
		// Capped, so that an append by the driver could never write into
		// the batch.
		raw.Buf, raw.Pos = col.data[:len(col.data):len(col.data)], pos
		return
	}
	strs := w.scratchStrings()
	for j, e := range w.order {
		// The driver copies each value before the batch is reset.
		v := col.at(int(e.row))
		strs[j] = unsafe.String(unsafe.SliceData(v), len(v))
	}
	w.append(i, strs)
}

// fixed appends stored ids in order: gathered into the sender's scratch,
// which the driver's FixedString column then points at, as strings does.
func (w *columnWriter) fixed(col [][idBytesLen]byte) {
	i := w.next()
	if i < 0 {
		return
	}
	n := len(w.order)
	buf := slices.Grow(w.sc.fixed[:0], n*idBytesLen)[:n*idBytesLen]
	w.sc.fixed = buf
	for j, e := range w.order {
		copy(buf[j*idBytesLen:(j+1)*idBytesLen], col[e.row][:])
	}
	if raw := rawFixedColumn(w.b, i); raw != nil && raw.Size == idBytesLen {
		raw.Buf = buf[:len(buf):len(buf)]
		return
	}
	rows := make([][]byte, n)
	for j := range rows {
		rows[j] = buf[j*idBytesLen : (j+1)*idBytesLen]
	}
	w.append(i, rows)
}

// coded appends a dictionary-coded column in order; like strings, it points
// the driver's column at the dictionary's values laid out once.
func (w *columnWriter) coded(codes []uint32, values []string) {
	i := w.next()
	if i < 0 {
		return
	}
	if raw := rawStringColumn(w.b, i); raw != nil {
		sc := w.sc
		sc.dictBuf, sc.dictPos = sc.dictBuf[:0], sc.dictPos[:0]
		for _, v := range values {
			start := len(sc.dictBuf)
			sc.dictBuf = append(sc.dictBuf, v...)
			sc.dictPos = append(sc.dictPos, proto.Position{Start: start, End: len(sc.dictBuf)})
		}
		pos := sc.positions(i, len(w.order))
		for j, e := range w.order {
			pos[j] = sc.dictPos[codes[e.row]]
		}
		// Each coded column gets its own copy of its (small) dictionary's
		// bytes: the next column reuses dictBuf.
		buf := sc.dictBytes(i, len(sc.dictBuf))
		copy(buf, sc.dictBuf)
		raw.Buf, raw.Pos = buf[:len(buf):len(buf)], pos
		return
	}
	strs := w.scratchStrings()
	for j, e := range w.order {
		strs[j] = values[codes[e.row]]
	}
	w.append(i, strs)
}

// positions returns the scratch positions of column i, n long.
func (sc *columnScratch) positions(i, n int) []proto.Position {
	if i >= len(sc.pos) {
		sc.pos = append(sc.pos, make([][]proto.Position, i+1-len(sc.pos))...)
	}
	sc.pos[i] = slices.Grow(sc.pos[i][:0], n)[:n]
	return sc.pos[i]
}

// dictBytes returns the scratch dictionary bytes of column i, n long.
func (sc *columnScratch) dictBytes(i, n int) []byte {
	if i >= len(sc.dicts) {
		sc.dicts = append(sc.dicts, make([][]byte, i+1-len(sc.dicts))...)
	}
	sc.dicts[i] = slices.Grow(sc.dicts[i][:0], n)[:n]
	return sc.dicts[i]
}

func (w *columnWriter) scratchStrings() []string {
	w.sc.strs = slices.Grow(w.sc.strs[:0], len(w.order))[:len(w.order)]
	return w.sc.strs
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
	clear(w.sc.strs) // drop references to the batch's strings
	err := w.err
	if err == nil {
		err = w.b.Flush()
	}
	// The driver has encoded the block (or will not): its String columns
	// let go of the bucket and of the sender's scratch, which the next
	// bucket reuses.
	for i := range w.col {
		if raw := rawStringColumn(w.b, i); raw != nil {
			raw.Buf, raw.Pos = nil, nil
		}
		if raw := rawFixedColumn(w.b, i); raw != nil {
			raw.Buf = nil
		}
	}
	if err != nil {
		w.b.Abort()
		*w.open = openInsert{}
		return err
	}
	return nil
}
