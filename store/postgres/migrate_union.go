package postgres

import (
	"errors"
	"io/fs"
	"slices"
)

// unionFS is two flat migration folders seen as one, for goose (which
// globs *.sql at the root and reads each file): a name is looked up in
// the first, then in the second, and a glob lists both.
type unionFS [2]fs.FS

// Open opens name from the first folder that has it.
func (u unionFS) Open(name string) (fs.File, error) {
	f, err := u[0].Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return u[1].Open(name)
	}
	return f, err
}

// Glob lists the names matching pattern in both folders, sorted, once each.
func (u unionFS) Glob(pattern string) ([]string, error) {
	var out []string
	for _, f := range u {
		names, err := fs.Glob(f, pattern)
		if err != nil {
			return nil, err
		}
		out = append(out, names...)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}
