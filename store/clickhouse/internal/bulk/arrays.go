package bulk

// The driver appends an Array(String) row given as []string by boxing
// each element into an interface, one allocation a tag key or value (the
// two tag columns of a 1M-resource first import cost ~1.2 s of client CPU
// that way, issue 5 in `git show 77779a1^:docs/benchmarks.md`). Given as []*string, the same
// public call boxes pointers, which allocates nothing: StringArrays hands
// the driver pointers to the caller's strings, in a reused slice.
// BenchmarkStringArrays measures both.

// StringArrays appends Array(String) rows to a column through pointers to
// the caller's strings. One goroutine uses it; its zero value is ready.
type StringArrays struct {
	ptrs []*string
}

// AppendRow appends one array of n elements, element k being *at(k), to
// col. The strings are only read, and copied by the driver before
// AppendRow returns.
func (a *StringArrays) AppendRow(col Column, n int, at func(k int) *string) error {
	p := a.ptrs[:0]
	for k := range n {
		p = append(p, at(k))
	}
	err := col.AppendRow(p)
	clear(p) // keep no caller's strings alive
	a.ptrs = p[:0]
	return err
}
