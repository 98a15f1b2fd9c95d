package voices

import (
	"math/rand/v2"
	"testing"
)

// TestRampSteps holds rampSteps, which counts a quotient on, to the ramp
// it replaced, a division an output: s0 + (s1-s0)×(i+1)/n, truncated,
// up and down, for block lengths 1 to 1024.
func TestRampSteps(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		n := 1 + r.IntN(1024)
		s0, s1 := uint64(r.Uint32())<<3, uint64(r.Uint32())<<3
		if r.IntN(4) == 0 {
			s1 = s0
		}
		got := make([]uint64, n)
		rampSteps(got, s0, s1)
		d := int64(s1 - s0)
		for i := range got {
			if want := s0 + uint64(d*int64(i+1)/int64(n)); got[i] != want {
				t.Fatalf("ramp %d to %d over %d: step %d = %d, want %d", s0, s1, n, i, got[i], want)
			}
		}
	}
}

// TestFitSpan holds fitSpan's division for a constant step to the count
// it spares: the outputs whose window of K frames lies inside the span.
func TestFitSpan(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		step := uint64(r.Uint64N(8<<32)) + 1
		p := uint64(r.Uint64N(uint64(pitchSpan) << 32))
		K := 48 + 8*r.IntN(40)
		steps := make([]uint64, 1+r.IntN(1024))
		for i := range steps {
			steps[i] = step
		}
		c, q := fitSpan(steps, p, K, true)
		wc, wq := fitSpan(steps, p, K, false)
		if c != wc || q != wq {
			t.Fatalf("step %#x from %#x, %d taps: %d outputs to %#x, counted %d to %#x", step, p, K, c, q, wc, wq)
		}
	}
}
