package testserver

import (
	"sync"
	"time"
)

// Clock is the stack's clock: the wall clock (or a fixed start, see
// FixedClock) moved forward by what tests advance it.
type Clock struct {
	mu     sync.Mutex
	start  time.Time // zero: the wall clock
	offset time.Duration
}

// FixedClock is a Clock that starts at t and moves only when advanced, so
// documents built on it are the same every run.
func FixedClock(t time.Time) *Clock { return &Clock{start: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.start.IsZero() {
		return time.Now().Add(c.offset)
	}
	return c.start.Add(c.offset)
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.offset += d
	c.mu.Unlock()
}
