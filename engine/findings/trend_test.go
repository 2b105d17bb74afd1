package findings

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSampleEvenly(t *testing.T) {
	seq := func(n int) []int {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	for _, tc := range []struct {
		name string
		in   []int
		n    int
		want []int
	}{
		{"fewer than n", seq(3), 5, []int{0, 1, 2}},
		{"exactly n", seq(4), 4, []int{0, 1, 2, 3}},
		{"ten down to four keeps both ends", seq(10), 4, []int{0, 3, 6, 9}},
		{"101 down to 100", seq(101), 100, append([]int{0}, seq(101)[2:]...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := sampleEvenly(tc.in, tc.n)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
