package clickhouse

import (
	"reflect"
	"slices"
	"unsafe"

	"github.com/ClickHouse/ch-go/proto"
	"github.com/ClickHouse/clickhouse-go/v2/lib/column"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/fourd-dev/fourd/engine"
)

// The driver appends a row of an Array(String) column through AppendRow,
// which boxes every element into an interface (one allocation a tag key or
// value) and takes a type switch for each: the two tag columns of a
// resource insert cost a first import ~1.2 s of its 14 s of client CPU.
// rawStringArrayColumn hands out the column's element buffer and offsets
// through the driver's layout (clickhouse-go v2.50.0: column.Array holds
// its elements in values and one offset column per level), which
// canRawArray checks once; with any other layout the writers go through
// AppendRow, and TestRawStringArrayColumn fails so that an upgrade does
// not lose this silently.

// arrayColumnLayout mirrors column.Array.
type arrayColumnLayout struct {
	depth    int
	chType   column.Type
	values   column.Interface
	offsets  []unsafe.Pointer // *column.offset: arrayOffsetLayout
	scanType reflect.Type
	name     string
}

// arrayOffsetLayout mirrors column.Array's offset.
type arrayOffsetLayout struct {
	values   column.UInt64 // read as uint64ColumnLayout
	scanType reflect.Type
}

// uint64ColumnLayout mirrors column.UInt64.
type uint64ColumnLayout struct {
	name string
	col  proto.ColUInt64
}

// sameLayout reports whether t and m have the same fields at the same
// offsets, of the same types where compare says so.
func sameLayout(t, m reflect.Type, compare func(i int) bool) bool {
	if t.Kind() != reflect.Struct || t.Size() != m.Size() || t.NumField() != m.NumField() {
		return false
	}
	for i := range t.NumField() {
		a, b := t.Field(i), m.Field(i)
		if a.Name != b.Name || a.Offset != b.Offset || a.Type.Size() != b.Type.Size() || a.Type.Kind() != b.Type.Kind() {
			return false
		}
		if compare(i) && a.Type != b.Type {
			return false
		}
	}
	return true
}

var canRawArray = func() bool {
	arr, m := reflect.TypeFor[column.Array](), reflect.TypeFor[arrayColumnLayout]()
	// offsets is a slice of pointers to the driver's unexported offset type.
	if !sameLayout(arr, m, func(i int) bool { return arr.Field(i).Name != "offsets" }) {
		return false
	}
	off := arr.Field(3).Type
	if off.Elem().Kind() != reflect.Pointer {
		return false
	}
	return sameLayout(off.Elem().Elem(), reflect.TypeFor[arrayOffsetLayout](), allFields) &&
		sameLayout(reflect.TypeFor[column.UInt64](), reflect.TypeFor[uint64ColumnLayout](), allFields)
}()

// rawStringArray is the buffers of an Array(String) column.
type rawStringArray struct {
	values  *proto.ColStr
	offsets *proto.ColUInt64
}

// grow reserves room for rows more arrays of n strings of bytes bytes in
// all.
func (a rawStringArray) grow(rows, n, bytes int) {
	a.values.Buf = slices.Grow(a.values.Buf, bytes)
	a.values.Pos = slices.Grow(a.values.Pos, n)
	*a.offsets = slices.Grow(*a.offsets, rows)
}

// appendTags appends one array: the keys of tags, or their values.
func (a rawStringArray) appendTags(tags engine.Tags, keys bool) {
	last := uint64(0)
	if n := len(*a.offsets); n > 0 {
		last = (*a.offsets)[n-1]
	}
	for _, t := range tags {
		a.values.Append(tagPart(t, keys))
	}
	*a.offsets = append(*a.offsets, last+uint64(len(tags)))
}

// tagPart is t's key, or its value.
func tagPart(t engine.Tag, key bool) string {
	if key {
		return t.Key
	}
	return t.Value
}

// rawStringArrayColumn returns the buffers of column i of b when it is an
// Array(String) column of the known layout; ok is false otherwise.
func rawStringArrayColumn(b driver.Batch, i int) (a rawStringArray, ok bool) {
	if !canRawArray || !canPresize {
		return a, false
	}
	cols := b.Columns()
	if i >= len(cols) {
		return a, false
	}
	c, ok := cols[i].(*column.Array)
	if !ok {
		return a, false
	}
	l := (*arrayColumnLayout)(unsafe.Pointer(c))
	s, ok := l.values.(*column.String)
	if !ok || l.depth != 1 || len(l.offsets) != 1 {
		return a, false
	}
	off := (*arrayOffsetLayout)(l.offsets[0])
	u := (*uint64ColumnLayout)(unsafe.Pointer(&off.values))
	return rawStringArray{values: &(*stringColumnLayout)(unsafe.Pointer(s)).col, offsets: &u.col}, true
}
