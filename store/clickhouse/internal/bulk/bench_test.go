package bulk_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/fourd-dev/fourd/store/clickhouse/internal/bulk"
)

// tags are the Array(String) rows of the benchmarks: a resource's tag
// values, a few short strings each.
func benchTags() [][]string {
	rows := make([][]string, 1000)
	for i := range rows {
		for k := range 4 {
			rows[i] = append(rows[i], "value-"+strconv.Itoa(i*k))
		}
	}
	return rows
}

// BenchmarkStringArrays compares StringArrays (pointers, nothing boxed)
// with the driver's AppendRow of a []string (each element boxed), per
// 1,000 rows of 4 elements, appended to an INSERT that is then aborted.
func BenchmarkStringArrays(b *testing.B) {
	c := conn(b)
	rows := benchTags()
	run := func(b *testing.B, appendRow func(col bulk.Column, r []string) error) {
		batch, err := c.PrepareBatch(context.Background(), "INSERT INTO t (n, s, a)")
		if err != nil {
			b.Fatal(err)
		}
		defer batch.Abort()
		col := batch.Column(2)
		b.ReportAllocs()
		for b.Loop() {
			for _, r := range rows {
				if err := appendRow(col, r); err != nil {
					b.Fatal(err)
				}
			}
			batch.Columns()[2].Reset()
		}
	}
	b.Run("pointers", func(b *testing.B) {
		var a bulk.StringArrays
		run(b, func(col bulk.Column, r []string) error {
			return a.AppendRow(col, len(r), func(k int) *string { return &r[k] })
		})
	})
	b.Run("strings", func(b *testing.B) {
		run(b, func(col bulk.Column, r []string) error { return col.AppendRow(r) })
	})
}

// BenchmarkStrings compares Strings (one Append of a gathered slice) with
// the driver's AppendRow of each value, per 1,000 values.
func BenchmarkStrings(b *testing.B) {
	c := conn(b)
	vals := make([]string, 1000)
	for i := range vals {
		vals[i] = "res_" + strconv.Itoa(i*7919)
	}
	run := func(b *testing.B, appendAll func(col bulk.Column) error) {
		batch, err := c.PrepareBatch(context.Background(), "INSERT INTO t (n, s, a)")
		if err != nil {
			b.Fatal(err)
		}
		defer batch.Abort()
		b.ReportAllocs()
		for b.Loop() {
			if err := appendAll(batch.Column(1)); err != nil {
				b.Fatal(err)
			}
			batch.Columns()[1].Reset()
		}
	}
	b.Run("slice", func(b *testing.B) {
		var scratch []string
		run(b, func(col bulk.Column) error {
			return bulk.Strings(col, &scratch, len(vals), func(j int) string { return vals[j] })
		})
	})
	b.Run("rows", func(b *testing.B) {
		run(b, func(col bulk.Column) error {
			for _, v := range vals {
				if err := col.AppendRow(v); err != nil {
					return err
				}
			}
			return nil
		})
	})
}
