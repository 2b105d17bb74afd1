package webhook

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// seq returns a random source yielding vs in turn, then repeating.
func seq(vs ...float64) func() float64 {
	i := 0
	return func() float64 {
		v := vs[i%len(vs)]
		i++
		return v
	}
}

func TestDefaultBackoffSchedule(t *testing.T) {
	b := DefaultBackoff()
	if err := b.Validate(); err != nil {
		t.Fatal(err)
	}
	var got []time.Duration
	for n := 1; n <= b.Attempts; n++ {
		got = append(got, b.Nominal(n))
	}
	want := []time.Duration{time.Minute, 4 * time.Minute, 16 * time.Minute, 64 * time.Minute,
		256 * time.Minute, 6 * time.Hour, 6 * time.Hour, 0}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("nominal delays (-want +got):\n%s", diff)
	}
	if w := b.WorstCase(); w != 17*time.Hour+41*time.Minute || w > 24*time.Hour {
		t.Errorf("WorstCase() = %s", w)
	}
}

func TestBackoffJitterDeterministic(t *testing.T) {
	tests := []struct {
		name   string
		jitter Jitter
		rand   []float64
		want   []time.Duration
	}{
		{"equal jitter low", JitterEqual, []float64{0}, []time.Duration{30 * time.Second, 2 * time.Minute, 8 * time.Minute}},
		{"equal jitter half", JitterEqual, []float64{0.5}, []time.Duration{45 * time.Second, 3 * time.Minute, 12 * time.Minute}},
		{"full jitter", JitterFull, []float64{0.25, 0.5, 0}, []time.Duration{15 * time.Second, 2 * time.Minute, 0}},
		{"no jitter", JitterNone, []float64{0.9}, []time.Duration{time.Minute, 4 * time.Minute, 16 * time.Minute}},
		{"out-of-range source treated as 0", JitterEqual, []float64{1.5}, []time.Duration{30 * time.Second, 2 * time.Minute, 8 * time.Minute}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := DefaultBackoff()
			b.Jitter, b.Rand = tt.jitter, seq(tt.rand...)
			var got []time.Duration
			for n := 1; n <= len(tt.want); n++ {
				got = append(got, b.Delay(n))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("delays (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBackoffJitterBounds(t *testing.T) {
	b := DefaultBackoff()
	for n := 1; n < b.Attempts; n++ {
		for range 200 {
			d, nominal := b.Delay(n), b.Nominal(n)
			if d < nominal/2 || d > nominal {
				t.Fatalf("Delay(%d) = %s outside [%s, %s]", n, d, nominal/2, nominal)
			}
		}
	}
}

func TestBackoffNext(t *testing.T) {
	first := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	b := DefaultBackoff()
	b.Rand = seq(0.5)
	tests := []struct {
		name       string
		n          int
		now        time.Time
		retryAfter time.Duration
		want       time.Time
		wantOK     bool
	}{
		{"after the first failure", 1, first.Add(time.Second), 0, first.Add(46 * time.Second), true},
		{"retry-after longer than the delay", 1, first, 10 * time.Minute, first.Add(10 * time.Minute), true},
		{"retry-after shorter than the delay", 2, first, 5 * time.Second, first.Add(3 * time.Minute), true},
		{"retry-after past the window is clamped", 3, first.Add(20 * time.Hour), 48 * time.Hour, first.Add(24 * time.Hour), true},
		{"delay past the window is clamped", 7, first.Add(23 * time.Hour), 0, first.Add(24 * time.Hour), true},
		{"window over", 3, first.Add(24 * time.Hour), 0, time.Time{}, false},
		{"attempts exhausted", 8, first.Add(time.Hour), 0, time.Time{}, false},
		{"invalid attempt", 0, first, 0, time.Time{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := b.Next(tt.n, first, tt.now, tt.retryAfter)
			if ok != tt.wantOK || !got.Equal(tt.want) {
				t.Errorf("Next() = %s, %v; want %s, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestBackoffValidate(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*Backoff)
		wantErr bool
	}{
		{"default", func(*Backoff) {}, false},
		{"doubling from 30s", func(b *Backoff) { b.Base, b.Factor = 30*time.Second, 2 }, false},
		{"too slow for the window", func(b *Backoff) { b.Max = 12 * time.Hour }, true},
		{"no attempts", func(b *Backoff) { b.Attempts = 0 }, true},
		{"zero base", func(b *Backoff) { b.Base = 0 }, true},
		{"shrinking factor", func(b *Backoff) { b.Factor = 0.5 }, true},
		{"max below base", func(b *Backoff) { b.Max = time.Second }, true},
		{"no window", func(b *Backoff) { b.Window = 0 }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := DefaultBackoff()
			tt.edit(&b)
			if err := b.Validate(); (err != nil) != tt.wantErr {
				t.Errorf("Validate() = %v, wantErr %v", err, tt.wantErr)
			}
		})
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 21, 5, 0, 0, 0, time.UTC)
	tests := []struct {
		value  string
		want   time.Duration
		wantOK bool
	}{
		{"120", 2 * time.Minute, true},
		{" 0 ", 0, true},
		{"Sat, 21 Nov 2026 05:10:00 GMT", 10 * time.Minute, true},
		{"Sat, 21 Nov 2026 04:00:00 GMT", 0, true},
		{"99999999999", 366 * 24 * time.Hour, true},
		{"-5", 0, false},
		{"1.5", 0, false},
		{"soon", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			got, ok := ParseRetryAfter(tt.value, now)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("ParseRetryAfter(%q) = %s, %v; want %s, %v", tt.value, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}
