package bulk

import "unsafe"

// String returns b's bytes as a string without copying them, for handing
// a writer's own buffer (a row's JSON attributes, an event's data, a
// batch's byte column) to the driver's String columns, which copy what
// they are given before Append returns.
//
// This is the package's one use of unsafe, and it concerns no other
// module's memory: it reinterprets a []byte that the caller owns as a
// string (unsafe.String, the language's documented conversion). The
// caller must not change b while the string is in use; every caller here
// passes the string to an Append that copies it, and keeps it no longer.
// FuzzString checks that the view reads exactly b's bytes.
func String(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}
