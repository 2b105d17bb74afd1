package bulk

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strings"

	"github.com/ClickHouse/ch-go/proto"
	"github.com/ClickHouse/clickhouse-go/v2/lib/column"
)

// The driver makes new columns for every INSERT, and a String or
// FixedString column then grows value by value: Go grows a large slice by
// a quarter at a time, so the first block of an INSERT copies its bytes
// about four times over (the 10M loadgen's snapshot write spent ~1 s of
// client CPU there, 20 INSERTs of 500k rows). The driver's public column
// interface has no way to ask for capacity, but its Decode sizes a
// column's buffers for the rows it decodes in one allocation each (ch-go's
// ColStr.DecodeColumn: the positions for every row at once, the bytes for
// a value of 128 bytes or more exactly), and Reset empties a column and
// keeps them. Reserve decodes a made-up block of the wanted size and
// resets the column: what the INSERT appends afterwards fills buffers
// that are already there. BenchmarkReserve measures it.

// MinReserveBytes is the least a String column's bytes are reserved: the
// decoder allocates a shorter first value's bytes for every row left.
const MinReserveBytes = 128

// Reserve gives col, a String or FixedString column of an INSERT that has
// no rows yet, room for rows values of size bytes in all (FixedString:
// rows values of its width). Other columns and a column that holds rows
// are left alone. It fails only if the driver's column is not empty after
// the reset, which would send made-up rows: the INSERT must be aborted
// then. Whatever the driver does with capacity, what is appended later is
// what is sent.
func Reserve(col column.Interface, rows, size int) error {
	if rows <= 0 || col.Rows() != 0 {
		return nil
	}
	var src io.Reader
	switch t := string(col.Type()); {
	case t == "String":
		// One value of size bytes, then rows-1 empty values: a length
		// prefix, then zeros (the value's bytes and the empty values'
		// lengths).
		var prefix [binary.MaxVarintLen64]byte
		n := binary.PutUvarint(prefix[:], uint64(max(size, MinReserveBytes)))
		src = io.MultiReader(bytes.NewReader(prefix[:n]), zeros{})
	case strings.HasPrefix(t, "FixedString("):
		src = zeros{}
	default:
		return nil
	}
	// The decode only sizes: its values are thrown away by the reset.
	if err := col.Decode(proto.NewReader(src), rows); err != nil {
		col.Reset()
		return fmt.Errorf("bulk: reserve %s: %w", col.Type(), err)
	}
	col.Reset()
	if n := col.Rows(); n != 0 {
		return fmt.Errorf("bulk: reserve %s: %d rows left after a reset", col.Type(), n)
	}
	return nil
}

// zeros reads as an endless run of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
