package dsp_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/steadyframe/steadyframe/voices/internal/dsp"
)

// TestDeinterleave checks every kernel set's Deinterleave against the
// frames themselves: each left and right sample, NaNs, infinities and
// values past full scale included (a bus's sum is not clamped), lands in
// its plane bit for bit, for every length up to 70, with the right plane
// before or after the left in memory, and nothing past len(l) is written.
func TestDeinterleave(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	odd := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 3.5, -7, float32(math.Copysign(0, -1))}
	for _, ks := range append([]*dsp.Kernels{dsp.ScalarKernels()}, dsp.VectorKernels()...) {
		for n := range 71 {
			src := make([]dsp.Frame, n+3)
			for i := range src {
				for c := range 2 {
					if rng.IntN(8) == 0 {
						src[i][c] = odd[rng.IntN(len(odd))]
					} else {
						src[i][c] = float32(rng.NormFloat64())
					}
				}
			}
			// One buffer, the planes in either order, a guard after each.
			buf := make([]float32, 2*(n+1))
			for i := range buf {
				buf[i] = 42
			}
			for _, rFirst := range []bool{false, true} {
				l, r := buf[:n], buf[n+1:2*n+1]
				if rFirst {
					r, l = buf[:n], buf[n+1:2*n+1]
				}
				ks.Deinterleave(l, r, src[:n])
				for i := range n {
					if math.Float32bits(l[i]) != math.Float32bits(src[i][0]) || math.Float32bits(r[i]) != math.Float32bits(src[i][1]) {
						t.Fatalf("%s, %d frames: frame %d in the planes (%v, %v), want %v", ks.Name(), n, i, l[i], r[i], src[i])
					}
				}
				if buf[n] != 42 || buf[2*n+1] != 42 {
					t.Fatalf("%s, %d frames: wrote past a plane", ks.Name(), n)
				}
			}
		}
	}
}

// BenchmarkDeinterleave times a rate bus's 1024 summed frames into its
// planes with each kernel set.
func BenchmarkDeinterleave(b *testing.B) {
	src := make([]dsp.Frame, 1024)
	l, r := make([]float32, len(src)), make([]float32, len(src))
	for _, ks := range append([]*dsp.Kernels{dsp.ScalarKernels()}, dsp.VectorKernels()...) {
		b.Run(ks.Name(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ks.Deinterleave(l, r, src)
			}
		})
	}
}
