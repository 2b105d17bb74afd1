package main

import (
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"sync"
	"time"
)

// startCPUProfile writes a CPU profile to path until stop is called; an
// empty path profiles nothing.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// heapPeakPoll is how often startPeakHeapProfile looks at the live heap.
const heapPeakPoll = 200 * time.Millisecond

// heapPeakStep: startPeakHeapProfile writes again when the live heap grew
// by more than 1/heapPeakStep over its last profile's.
const heapPeakStep = 50

// liveHeapMetric is the heap the last garbage collection marked live: the
// figure a heap profile's in-use samples describe.
const liveHeapMetric = "/gc/heap/live:bytes"

// startPeakHeapProfile writes a heap profile to path each time a garbage
// collection leaves more live heap than any before it, so that the file
// holds the in-use heap at the run's peak (its inuse_space as of that
// collection) and every allocation up to then (alloc_space). stop writes a
// last profile if the peak is the final one and returns the peak live heap
// in bytes (a profile is within 2 % of it); an empty path profiles nothing (and stop returns 0).
func startPeakHeapProfile(path string) (stop func() (peak uint64, err error), err error) {
	if path == "" {
		return func() (uint64, error) { return 0, nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	p := &peakHeap{path: path, sample: []metrics.Sample{{Name: liveHeapMetric}}}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(heapPeakPoll)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				p.check()
			}
		}
	}()
	var once sync.Once
	return func() (uint64, error) {
		once.Do(func() {
			close(done)
			<-finished
			p.check()
		})
		return p.peak, p.err
	}, nil
}

// peakHeap is startPeakHeapProfile's state, touched by one goroutine at a
// time (the poller, then stop after the poller ended).
type peakHeap struct {
	path    string
	sample  []metrics.Sample
	peak    uint64 // the largest live heap seen
	written uint64 // the live heap of the profile in the file
	err     error
}

// check writes the profile when the live heap is above the peak so far.
func (p *peakHeap) check() {
	metrics.Read(p.sample)
	if p.sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	live := p.sample[0].Value.Uint64()
	if live > p.peak {
		p.peak = live
	}
	// A new profile only when the heap grew past the last one's by
	// heapPeakStep: a growing heap would otherwise write one each poll.
	if live <= p.written+p.written/heapPeakStep || p.err != nil {
		return
	}
	p.written = live
	f, err := os.Create(p.path)
	if err != nil {
		p.err = err
		return
	}
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		p.err = err
		return
	}
	p.err = f.Close()
}
