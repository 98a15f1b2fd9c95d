package dsp_test

import (
	"testing"

	"github.com/steadyframe/steadyframe/voices/internal/dsp"
)

// TestLimiter checks the output protection: everything within full scale
// passes bit for bit, an over lands exactly on full scale and never past
// it, the gain recovers to exactly unity afterwards, and nothing ever
// leaves [-1, 1]. (The former soft clip bent every sample above 0.75.)
func TestLimiter(t *testing.T) {
	lim := dsp.NewLimiter(48000)
	limit := func(l, r float32) (float32, float32) {
		f := []dsp.Frame{{l, r}}
		lim.Run(f, 1, 0)
		return f[0][0], f[0][1]
	}
	for x := float32(-1); x <= 1; x += 1.0 / 4096 {
		if l, r := limit(x, -x); l != x || r != -x {
			t.Fatalf("limit(%v) = %v, %v: changed a sample within full scale", x, l, r)
		}
	}
	l, r := limit(2, 0.5)
	if l != 1 || r != 0.25 {
		t.Fatalf("an over of 2 = %v, %v: want 1, 0.25 (both channels by the same gain)", l, r)
	}
	for x := float32(-100); x <= 100; x += 0.37 {
		if l, r := limit(x, x/3); l < -1 || l > 1 || r < -1 || r > 1 {
			t.Fatalf("limit(%v) = %v, %v: outside [-1, 1]", x, l, r)
		}
	}
	// 50 ms time constant: after a second of silence the gain is back at
	// exactly one, and a full-scale sample passes unchanged.
	for i := 0; i < 48000; i++ {
		limit(0, 0)
	}
	if l, _ := limit(0.999, 0); lim.Cut() != 0 || l != 0.999 {
		t.Fatalf("after recovery: gain reduction %v, 0.999 -> %v", lim.Cut(), l)
	}
}
