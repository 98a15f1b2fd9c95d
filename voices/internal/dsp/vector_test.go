package dsp_test

import (
	"math/rand/v2"
	"testing"

	"github.com/steadyframe/steadyframe/voices/internal/dsp"
	"github.com/steadyframe/steadyframe/voices/internal/dsp/dsptest"
)

// rates are the source rates voices pools.
var rates = []int{8000, 11025, 16000, 22050, 32000, 44100, 48000, 88200, 96000}

// TestVectorKernelsMatchScalar runs every vector kernel (4 source kinds ×
// unity, linear and sinc) and its scalar reference on the same input: run
// lengths 0 to 70 and long ones (every tail), random gains added into a
// bus that already holds a mix, hostile floats (NaN, infinities, overs,
// denormals), and for the resamplers every kind of step: up, down,
// unity-adjacent; with the AVX-512 set and the AVX2 one where the CPU
// has both. Every kernel must give the same bits.
func TestVectorKernelsMatchScalar(t *testing.T) {
	dsptest.VectorLevels(t, vectorKernelsMatchScalar)
}

func vectorKernelsMatchScalar(t *testing.T, vec *dsp.Kernels) {
	vec = dsptest.VectorOrSkip(t, vec)
	scalar := dsp.ScalarKernels()
	r := rand.New(rand.NewPCG(11, 12))
	lengths := []int{}
	for n := 0; n <= 70; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 255, 256, 1000, 1024, 5000) // 5000: longer than a plane
	steps := []uint64{}
	for _, rate := range rates {
		steps = append(steps, uint64(rate)<<32/48000)
	}
	var tables []*dsp.SincTable
	// Group layouts with cycles of 16 rows (one group), 48, 160, 320 and
	// 1280, the per-output kernels for a long cycle (16 kHz to 44.1 kHz)
	// and for downsampling.
	for _, pair := range [][2]int{{22050, 48000}, {44100, 48000}, {8000, 48000}, {22050, 44100}, {16000, 48000}, {16000, 44100},
		{96000, 48000}, {88200, 48000}, {48000, 44100}, {11025, 96000}} {
		tb := dsp.TableFor(pair[0], pair[1])
		if grouped := pair[0] < pair[1] && pair != [2]int{16000, 44100}; tb.Grouped() != grouped {
			t.Fatalf("%d Hz to %d Hz: group layout %v, want %v", pair[0], pair[1], tb.Grouped(), grouped)
		}
		tables = append(tables, tb)
	}
	planes := dsp.NewPlanes()
	for k := dsp.KindS16Mono; k <= dsp.KindF32Stereo; k++ {
		for _, n := range lengths {
			gl, gr := float32(r.Float64()*4), float32(r.Float64()*4)
			bus := make([]dsp.Frame, n)
			for i := range bus {
				bus[i] = dsp.Frame{float32(r.NormFloat64()), float32(r.NormFloat64())}
			}
			run := func(f func(out []dsp.Frame)) []dsp.Frame {
				out := append([]dsp.Frame(nil), bus...)
				f(out)
				return out
			}

			src := dsptest.Input(r, k, n+1)
			unity := src[:n*k.FrameBytes()]
			dsptest.Same(t, k.String()+" unity", run(func(o []dsp.Frame) { vec.Mix(k, o, unity, gl, gr) }),
				run(func(o []dsp.Frame) { scalar.Mix(k, o, unity, gl, gr) }), 0)
			// With the source running on past the run, the vector loop
			// mixes the last n%8 frames in a masked group: the same
			// bits, and no frame of the bus past the run touched.
			roomy := dsptest.Input(r, k, n+8)
			guard := func(f func(out []dsp.Frame)) []dsp.Frame {
				wide := append(append([]dsp.Frame(nil), bus...), make([]dsp.Frame, 8)...)
				for i := n; i < len(wide); i++ {
					wide[i] = dsp.Frame{float32(i), -float32(i)}
				}
				f(wide[:n])
				for i := n; i < len(wide); i++ {
					if wide[i] != (dsp.Frame{float32(i), -float32(i)}) {
						t.Fatalf("%v unity, %d frames: the bus's frame %d changed to %v", k, n, i, wide[i])
					}
				}
				return wide[:n]
			}
			dsptest.Same(t, k.String()+" unity, source past the run", guard(func(o []dsp.Frame) { vec.Mix(k, o, roomy, gl, gr) }),
				guard(func(o []dsp.Frame) { scalar.Mix(k, o, roomy, gl, gr) }), 0)

			for _, step := range steps {
				p := uint64(r.Uint32())
				frames := 2
				if n > 0 {
					frames = int((p+uint64(n-1)*step)>>32) + 2
				}
				src := dsptest.Input(r, k, frames)
				dsptest.Same(t, k.String()+" linear", run(func(o []dsp.Frame) { vec.Linear(k, o, src, p, step, gl, gr) }),
					run(func(o []dsp.Frame) { scalar.Linear(k, o, src, p, step, gl, gr) }), 0)
			}

			for _, tb := range tables {
				ph := r.Uint32N(tb.Phases())
				last, _ := tb.Advance(0, ph, max(n-1, 0))
				src := dsptest.Input(r, k, last+tb.Taps())
				dsptest.Same(t, k.String()+" sinc", run(func(o []dsp.Frame) { vec.Sinc(k, o, src, tb, ph, gl, gr, planes) }),
					run(func(o []dsp.Frame) { scalar.Sinc(k, o, src, tb, ph, gl, gr, planes) }), 0)
			}
		}
	}
}
