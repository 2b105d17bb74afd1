// Package archtest holds tests of rules that hold across the tree: no SQL
// or database driver outside the stores, one JSON validator. It has no
// code of its own.
package archtest
