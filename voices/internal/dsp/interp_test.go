package dsp

import (
	"math"
	"testing"
)

// TestInterpMatchesTable filters one signal through the exact table of
// 44100 to 48000 Hz and through the Interp of the same rates: the
// interpolated coefficients must give the same outputs within the
// filter's own precision.
func TestInterpMatchesTable(t *testing.T) {
	const n = 1000
	tab, it := TableFor(44100, 48000), InterpFor(44100, 48000)
	if tab.Taps() != it.Taps() || tab.Half() != it.Half() {
		t.Fatalf("taps %d/%d half %d/%d", tab.Taps(), it.Taps(), tab.Half(), it.Half())
	}
	planes := NewPlanes()
	l, r := planes.Window(PlaneFrames)
	for i := range l {
		l[i] = float32(0.5 * math.Sin(float64(i)*0.3))
		r[i] = float32(0.5 * math.Cos(float64(i)*0.05))
	}
	want := make([]Frame, n)
	ScalarKernels().Filter(true, want, l, r, tab, 0, 1, 1)
	got := make([]Frame, n)
	p := it.Filter(got, l, r, 0, uint64(44100)<<32/48000, 1, 1)
	if k, _ := tab.Advance(0, 0, n); int(p>>32) != k {
		t.Fatalf("Interp ends at frame %d, the table at %d", p>>32, k)
	}
	worst := 0.0
	for i := range want {
		worst = max(worst, math.Abs(float64(got[i][0]-want[i][0])), math.Abs(float64(got[i][1]-want[i][1])))
	}
	t.Logf("largest difference %.3g", worst)
	if worst > 2e-5 { // -94 dB re 0.5
		t.Fatalf("Interp differs from the exact table by %.3g, want at most 2e-5", worst)
	}
}

// BenchmarkInterp times Interp.Filter alone, stereo, 1024 outputs of a
// 44101 Hz source on a 48 kHz device: the scalar cost a vector kernel
// would cut (ns/op per 1024 outputs).
func BenchmarkInterp(b *testing.B) {
	it := InterpFor(44101, 48000)
	planes := NewPlanes()
	l, r := planes.Window(PlaneFrames)
	out := make([]Frame, 1024)
	step := uint64(44101) << 32 / 48000
	b.ReportAllocs()
	for b.Loop() {
		it.Filter(out, l, r, 0, step, 1, 1)
	}
}
