package webhook

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Jitter selects how a retry delay is randomized.
type Jitter int

// Jitter modes. Equal jitter waits between half and all of the nominal delay,
// so retries spread out yet never come much earlier than the table says;
// full jitter waits anywhere between zero and the nominal delay.
const (
	JitterEqual Jitter = iota
	JitterFull
	JitterNone
)

// Backoff is the retry schedule of a delivery: attempt 1 is immediate, and
// after failed attempt n the next waits Base·Factorⁿ⁻¹ (capped at Max),
// randomized by Jitter. The zero value is not usable; start from
// DefaultBackoff.
type Backoff struct {
	// Attempts is the total number of attempts, the first included.
	Attempts int
	// Base is the nominal delay after the first failed attempt.
	Base time.Duration
	// Factor multiplies the delay after each further failure.
	Factor float64
	// Max caps a single nominal delay.
	Max time.Duration
	// Window bounds the time from the first attempt to the last one.
	Window time.Duration
	// Jitter selects the randomization.
	Jitter Jitter
	// Rand returns a number in [0, 1); nil uses math/rand/v2. Tests inject
	// a fixed source to make the schedule deterministic.
	Rand func() float64
}

// DefaultBackoff returns the schedule fourd uses: 8 attempts within 24 h,
// nominal delays of 1 min, 4 min, 16 min, 64 min, 4 h 16 min, 6 h and 6 h
// (17 h 41 min in all), with equal jitter. Every attempt starts within 24 h
// of the first, Retry-After included.
func DefaultBackoff() Backoff {
	return Backoff{Attempts: 8, Base: time.Minute, Factor: 4, Max: 6 * time.Hour,
		Window: 24 * time.Hour, Jitter: JitterEqual}
}

// Validate reports whether the schedule is usable and its worst case (every
// delay at its nominal maximum) fits in Window.
func (b Backoff) Validate() error {
	switch {
	case b.Attempts < 1:
		return errors.New("webhook: Backoff.Attempts must be at least 1")
	case b.Base <= 0 || b.Max < b.Base:
		return errors.New("webhook: Backoff needs 0 < Base <= Max")
	case b.Factor < 1 || math.IsInf(b.Factor, 0) || math.IsNaN(b.Factor):
		return errors.New("webhook: Backoff.Factor must be a finite number >= 1")
	case b.Window <= 0:
		return errors.New("webhook: Backoff.Window must be positive")
	}
	if worst := b.WorstCase(); worst > b.Window {
		return fmt.Errorf("webhook: Backoff worst case %s exceeds the window %s", worst, b.Window)
	}
	return nil
}

// Nominal returns the delay after failed attempt n (1-based) before jitter,
// which is the jittered delay's upper bound; zero when no attempt follows n.
func (b Backoff) Nominal(n int) time.Duration {
	if n < 1 || n >= b.Attempts {
		return 0
	}
	d := float64(b.Base) * math.Pow(b.Factor, float64(n-1))
	if d >= float64(b.Max) {
		return b.Max
	}
	return time.Duration(d)
}

// WorstCase returns the sum of all nominal delays: the latest the final
// attempt can start after the first one, Retry-After aside.
func (b Backoff) WorstCase() time.Duration {
	var sum time.Duration
	for n := 1; n < b.Attempts; n++ {
		sum += b.Nominal(n)
	}
	return sum
}

// Delay returns the jittered delay after failed attempt n.
func (b Backoff) Delay(n int) time.Duration {
	d := b.Nominal(n)
	r := b.random()
	switch b.Jitter {
	case JitterFull:
		return time.Duration(float64(d) * r)
	case JitterNone:
		return d
	default:
		return d/2 + time.Duration(float64(d/2)*r)
	}
}

func (b Backoff) random() float64 {
	if b.Rand == nil {
		return rand.Float64()
	}
	r := b.Rand()
	if r < 0 || r >= 1 || math.IsNaN(r) {
		return 0
	}
	return r
}

// Next returns when the attempt after failed attempt n should start, given
// when the first attempt started, the current time and the Retry-After the
// receiver asked for (zero when none). The next attempt waits at least the
// jittered delay and at least Retry-After, but never past the end of the
// window: a later wish is clamped to the window's end, where one last
// attempt runs. ok is false when no attempt remains.
func (b Backoff) Next(n int, first, now time.Time, retryAfter time.Duration) (next time.Time, ok bool) {
	if n < 1 || n >= b.Attempts {
		return time.Time{}, false
	}
	deadline := first.Add(b.Window)
	if !now.Before(deadline) {
		return time.Time{}, false
	}
	d := max(b.Delay(n), retryAfter)
	next = now.Add(d)
	if next.After(deadline) {
		next = deadline
	}
	return next, true
}

// ParseRetryAfter reads a Retry-After header value: delay-seconds or an
// HTTP date. It returns false when value is empty or malformed; a date in
// the past is a zero delay.
func ParseRetryAfter(value string, now time.Time) (time.Duration, bool) {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(value, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		// Anything beyond a year is clamped; Next clamps to the window.
		return time.Duration(min(secs, 366*24*3600)) * time.Second, true
	}
	t, err := http.ParseTime(value)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}
