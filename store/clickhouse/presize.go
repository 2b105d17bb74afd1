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

var canPresize = func() bool {
	t := reflect.TypeFor[column.String]()
	m := reflect.TypeFor[stringColumnLayout]()
	if t.Size() != m.Size() || t.NumField() != m.NumField() {
		return false
	}
	for i := range t.NumField() {
		a, b := t.Field(i), m.Field(i)
		if a.Name != b.Name || a.Type != b.Type || a.Offset != b.Offset {
			return false
		}
	}
	return true
}()

// rawStringColumn returns the driver's buffer of column i of b when it is a
// String column of the known layout, else nil.
func rawStringColumn(b driver.Batch, i int) *proto.ColStr {
	if !canPresize {
		return nil
	}
	cols := b.Columns()
	if i >= len(cols) {
		return nil
	}
	c, ok := cols[i].(*column.String)
	if !ok {
		return nil
	}
	return &(*stringColumnLayout)(unsafe.Pointer(c)).col
}

// presizeStrings reserves room for rows more values of bytes bytes in all
// in column i of b when it is a String column; otherwise it does nothing.
func presizeStrings(b driver.Batch, i, rows, bytes int) {
	if c := rawStringColumn(b, i); c != nil {
		c.Buf = slices.Grow(c.Buf, bytes)
		c.Pos = slices.Grow(c.Pos, rows)
	}
}
