package dsp_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/steadyframe/steadyframe/voices/internal/dsp"
	"github.com/steadyframe/steadyframe/voices/internal/dsp/dsptest"
)

// TestVectorPitchMatchesScalar runs the pitched filter of every vector
// kernel set and the scalar one on the same planes: every filter of a
// bank up to ratio 8 (48 to 384 taps, multiples of 16 and not), mono and
// stereo, run lengths 1 to 40 and 1024, steps ramped around the filter's
// ratio, random gains added into a bus that already holds a mix. Every
// output and the returned position must have the same bits.
func TestVectorPitchMatchesScalar(t *testing.T) {
	dsptest.VectorLevels(t, vectorPitchMatchesScalar)
}

func vectorPitchMatchesScalar(t *testing.T, vec *dsp.Kernels) {
	vec = dsptest.VectorOrSkip(t, vec)
	scalar := dsp.ScalarKernels()
	r := rand.New(rand.NewPCG(21, 22))
	bank := dsp.PitchBankUpTo(8 * dsp.FracOne)
	lengths := []int{1024}
	for n := 1; n <= 40; n++ {
		lengths = append(lengths, n)
	}
	seen := map[int]bool{}
	for _, ratio := range []float64{0.3, 1, 1.2, 1.5, 1.7, 2, 2.4, 3, 3.5, 4, 5, 6, 7, 8} {
		step := uint64(ratio * dsp.FracOne)
		ft := bank.For(step)
		seen[ft.Taps()] = true
		for _, n := range lengths {
			for _, mono := range []bool{true, false} {
				steps := make([]uint64, n)
				to := uint64(float64(step) * (0.9 + 0.1*r.Float64()))
				d := int64(to - step)
				for i := range steps {
					steps[i] = step + uint64(d*int64(i+1)/int64(n))
				}
				p := uint64(r.Uint32()) | uint64(r.IntN(3))<<32
				frames := int((p+uint64(n)*max(step, to))>>32) + ft.Taps() + 1
				l, rt := make([]float32, frames), make([]float32, frames)
				for i := range l {
					l[i], rt[i] = float32(r.Float64()*2-1), float32(r.Float64()*2-1)
				}
				if mono {
					copy(rt, l)
				}
				gl, gr := float32(r.Float64()*2), float32(r.Float64()*2)
				bus := make([]dsp.Frame, n)
				for i := range bus {
					bus[i] = dsp.Frame{float32(r.NormFloat64()), float32(r.NormFloat64())}
				}
				got, want := append([]dsp.Frame(nil), bus...), append([]dsp.Frame(nil), bus...)
				pg := vec.FilterSteps(ft, got, l, rt, mono, p, steps, gl, gr)
				pw := scalar.FilterSteps(ft, want, l, rt, mono, p, steps, gl, gr)
				if pg != pw {
					t.Fatalf("ratio %v, %d outputs: position %#x, scalar %#x", ratio, n, pg, pw)
				}
				for i := range want {
					for c := range 2 {
						if math.Float32bits(got[i][c]) != math.Float32bits(want[i][c]) {
							t.Fatalf("ratio %v (%d taps), mono %v, %d outputs: frame %d channel %d = %v, scalar %v",
								ratio, ft.Taps(), mono, n, i, c, got[i][c], want[i][c])
						}
					}
				}
			}
		}
	}
	if len(seen) < 10 {
		t.Fatalf("the bank gave %d filter lengths, want the 13 of ratios 1 to 8", len(seen))
	}
}

// TestVectorPitchBounds holds every set's pitched filter to its planes:
// a run whose last window would start past them panics before it reads
// there, whether that output is the first, inside a pair or the odd last.
func TestVectorPitchBounds(t *testing.T) {
	bank := dsp.PitchBankUpTo(dsp.FracOne)
	ft := bank.For(dsp.FracOne)
	for _, ks := range append([]*dsp.Kernels{dsp.ScalarKernels()}, dsp.VectorKernels()...) {
		for _, n := range []int{1, 2, 7, 8} {
			for _, mono := range []bool{true, false} {
				l, r := make([]float32, ft.Taps()+n-1), make([]float32, ft.Taps()+n-1)
				out, steps := make([]dsp.Frame, n), make([]uint64, n)
				for i := range steps {
					steps[i] = dsp.FracOne
				}
				// n outputs one frame apart fit exactly: no panic.
				ks.FilterSteps(ft, out, l, r, mono, 0, steps, 1, 1)
				// One frame later, the last window starts one frame past.
				func() {
					defer func() {
						if recover() == nil {
							t.Errorf("%s: %d outputs past planes of %d frames did not panic", ks.Name(), n, len(l))
						}
					}()
					ks.FilterSteps(ft, out, l, r, mono, dsp.FracOne, steps, 1, 1)
				}()
			}
		}
	}
}
