// Package bulk holds the speed-ups of store/clickhouse's bulk writes that
// work through clickhouse-go's public batch API only: columns appended a
// whole slice at a time (Batch.Column(i).Append), Array(String) rows
// appended without boxing each element, read-only string views of the
// writers' own byte buffers, and a new INSERT's string columns sized for
// its blocks before the first (Reserve). Nothing here reaches into the driver's
// unexported fields: an upgrade of clickhouse-go can change its buffers'
// layout without breaking, or silently slowing, these writes. Strings,
// StringArrays and Reserve have benchmarks (bench_test.go, reserve_test.go) against the plain
// driver calls they replace; docs/design/bulk-write.md gives the figures.
package bulk

import (
	"slices"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
)

// Column is the public surface of one column of an open INSERT
// (driver.BatchColumn).
type Column = driver.BatchColumn

// Strings appends n values to col, value j being at(j), gathered into
// *scratch (reused by the next call; the driver copies the values before
// Append returns, so scratch is cleared of references afterwards).
func Strings(col Column, scratch *[]string, n int, at func(j int) string) error {
	s := slices.Grow((*scratch)[:0], n)[:n]
	for j := range s {
		s[j] = at(j)
	}
	err := col.Append(s)
	clear(s)
	*scratch = s[:0]
	return err
}

// Gather appends n values to col, value j being at(j), through *scratch.
// It serves the driver's fixed-width columns (integers, DateTime as int64
// or time.Time), which take a typed slice without boxing.
func Gather[T any](col Column, scratch *[]T, n int, at func(j int) T) error {
	s := slices.Grow((*scratch)[:0], n)[:n]
	for j := range s {
		s[j] = at(j)
	}
	*scratch = s
	return col.Append(s)
}
