package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// heldForPeakTest keeps heapPeakAllocator's blocks live until the test drops them.
var heldForPeakTest [][]byte

//go:noinline
func heapPeakAllocator(mib int) {
	for range mib {
		heldForPeakTest = append(heldForPeakTest, make([]byte, 1<<20))
	}
}

// TestPeakHeapProfile: stop reports a peak live heap at least as large as
// what was held although it was freed before stop, and the file is a
// heap profile naming the function that allocated it.
func TestPeakHeapProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "heap.prof")
	stop, err := startPeakHeapProfile(path)
	if err != nil {
		t.Fatal(err)
	}
	heapPeakAllocator(96)
	runtime.GC()
	time.Sleep(3 * heapPeakPoll)
	heldForPeakTest = nil
	runtime.GC()
	time.Sleep(2 * heapPeakPoll)
	peak, err := stop()
	if err != nil {
		t.Fatal(err)
	}
	if peak < 96<<20 {
		t.Errorf("peak live heap %d MiB, want ≥ 96 MiB", peak>>20)
	}
	if again, _ := stop(); again != peak {
		t.Errorf("a second stop says %d, the first %d", again, peak)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("not a pprof profile: %v", err)
	}
	raw, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte("heapPeakAllocator")) {
		t.Error("the profile does not name heapPeakAllocator, which held the peak")
	}
}

// TestPeakHeapProfileOff: no path, no profile and no peak.
func TestPeakHeapProfileOff(t *testing.T) {
	stop, err := startPeakHeapProfile("")
	if err != nil {
		t.Fatal(err)
	}
	if peak, err := stop(); peak != 0 || err != nil {
		t.Errorf("stop = %d, %v; want 0, nil", peak, err)
	}
}
