package clickhouse

import (
	"reflect"
	"slices"
	"unsafe"

	"github.com/ClickHouse/ch-go/proto"
	"github.com/ClickHouse/clickhouse-go/v2/lib/column"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
)

// The driver's String column appends into a byte buffer that starts empty
// and grows by a quarter at a time: a 16 MiB text column of a snapshot
// batch is copied about five times over before it is sent, which was the
// largest single cost of writing a snapshot (docs/benchmarks.md, issue 2).
// The driver offers no way to reserve room, nor to append a batch's values
// without first gathering them into a slice, so rawStringColumn hands out
// the column's buffer through its layout, which canPresize checks once
// against the driver's type (clickhouse-go v2.50.0: struct{name string;
// col proto.ColStr}). With any other layout the writers go through the
// driver's Append, and TestRawStringColumn fails so that an upgrade does
// not lose this silently.

// stringColumnLayout mirrors column.String.
type stringColumnLayout struct {
	name string
	col  proto.ColStr
}

var canPresize = sameLayout(reflect.TypeFor[column.String](), reflect.TypeFor[stringColumnLayout](), allFields)

// fixedStringColumnLayout mirrors column.FixedString (clickhouse-go v2.50.0),
// for rawFixedColumn as stringColumnLayout is for rawStringColumn.
type fixedStringColumnLayout struct {
	//lint:ignore U1000 mirrors the driver's field (sameLayout compares names and offsets)
	name string
	col  proto.ColFixedStr
}

var canRawFixed = sameLayout(reflect.TypeFor[column.FixedString](), reflect.TypeFor[fixedStringColumnLayout](), allFields)

// allFields is a sameLayout compare that compares every field's type.
func allFields(int) bool { return true }

// rawFixedColumn returns the driver's buffer of column i of b when it is a
// FixedString column of the known layout, else nil.
func rawFixedColumn(b driver.Batch, i int) *proto.ColFixedStr {
	if l := rawLayout[column.FixedString, fixedStringColumnLayout](canRawFixed, b, i); l != nil {
		return &l.col
	}
	return nil
}

// rawStringColumn returns the driver's buffer of column i of b when it is a
// String column of the known layout, else nil.
func rawStringColumn(b driver.Batch, i int) *proto.ColStr {
	if l := rawLayout[column.String, stringColumnLayout](canPresize, b, i); l != nil {
		return &l.col
	}
	return nil
}

// rawLayout returns column i of b as its layout L when known (the layout
// checked) and the column is a *C, else nil.
func rawLayout[C, L any](known bool, b driver.Batch, i int) *L {
	if !known {
		return nil
	}
	cols := b.Columns()
	if i >= len(cols) {
		return nil
	}
	c, ok := any(cols[i]).(*C)
	if !ok {
		return nil
	}
	return (*L)(unsafe.Pointer(c))
}

// presizeStrings reserves room for rows more values of bytes bytes in all
// in column i of b when it is a String column; otherwise it does nothing.
func presizeStrings(b driver.Batch, i, rows, bytes int) {
	if c := rawStringColumn(b, i); c != nil {
		c.Buf = slices.Grow(c.Buf, bytes)
		c.Pos = slices.Grow(c.Pos, rows)
	}
}

// The driver makes the buffers of every batch's columns anew, so each
// INSERT of a bulk write left some 5 MiB of String buffers (a batch's text)
// to the collector, which an import runs near its soft memory limit
// (cmd/fourd importGC). A columnBuffers lends the buffers of one INSERT's
// String columns to the next INSERT of the same inserter instead: a first
// import of 1M resources then took 26–27 collections instead of 30
// (docs/benchmarks.md, issue 5). The buffers are taken back once the
// batch's Send or Abort has returned: the driver has then encoded the
// block into its connection's own buffer, and no longer reads the batch's.

// columnBuffers holds the String column buffers of a writer's last INSERT,
// by column, while no INSERT has them.
type columnBuffers struct {
	strs    []proto.ColStr
	offsets []proto.ColUInt64 // of Array(String) columns
	lent    []lentColumn
}

// lentColumn is a column of the current INSERT holding lent buffers.
type lentColumn struct {
	i       int
	values  *proto.ColStr
	offsets *proto.ColUInt64 // nil for a String column
}

// lend gives the String column values of the current INSERT (column i of
// its batch), and the offsets of its arrays when it is an Array(String)
// column, the buffers of the last INSERT's column i, with room for rows
// arrays of n strings of bytes bytes in all (for a String column, rows
// == n).
func (cb *columnBuffers) lend(i int, values *proto.ColStr, offsets *proto.ColUInt64, rows, n, bytes int) {
	if i >= len(cb.strs) {
		cb.strs = append(cb.strs, make([]proto.ColStr, i+1-len(cb.strs))...)
		cb.offsets = append(cb.offsets, make([]proto.ColUInt64, i+1-len(cb.offsets))...)
	}
	values.Buf = withRoom(cb.strs[i].Buf, bytes)
	values.Pos = withRoom(cb.strs[i].Pos, n)
	cb.strs[i] = proto.ColStr{}
	if offsets != nil {
		*offsets = withRoom(cb.offsets[i], rows)
		cb.offsets[i] = nil
	}
	cb.lent = append(cb.lent, lentColumn{i: i, values: values, offsets: offsets})
}

// withRoom returns s emptied when it has room for n elements, else a new
// slice that has (growing s would copy its stale contents).
func withRoom[E any](s []E, n int) []E {
	if cap(s) < n {
		return make([]E, 0, n)
	}
	return s[:0]
}

// takeBack takes back the buffers lent to the current INSERT, as the
// columns hold them (appends may have grown them). Call it only once the
// batch's Send or Abort has returned.
func (cb *columnBuffers) takeBack() {
	for _, l := range cb.lent {
		cb.strs[l.i] = proto.ColStr{Buf: l.values.Buf[:0], Pos: l.values.Pos[:0]}
		if l.offsets != nil {
			cb.offsets[l.i] = (*l.offsets)[:0]
		}
	}
	clear(cb.lent)
	cb.lent = cb.lent[:0]
}
