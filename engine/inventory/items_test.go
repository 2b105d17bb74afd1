package inventory

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestItemsPrechecked checks that only the NDJSON decoder's items tell the
// engine to skip its UTF-8 and JSON checks, and that they hold what that
// promises.
func TestItemsPrechecked(t *testing.T) {
	for _, tt := range []struct {
		file string
		want bool
	}{
		{"fourd.ndjson", true},
		{"aws-config-snapshot.json", false},
		{"terraform.tfstate", false},
	} {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(sampleDir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			d, _, err := Open(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for it := range Items(d) {
				if it.Err != nil {
					continue
				}
				n++
				if it.Prechecked != tt.want {
					t.Fatalf("item %d: Prechecked = %v, want %v", it.Index, it.Prechecked, tt.want)
				}
				if it.Prechecked {
					checkPrechecked(t, it.Resource)
				}
			}
			if n == 0 {
				t.Fatal("no items")
			}
		})
	}
}
