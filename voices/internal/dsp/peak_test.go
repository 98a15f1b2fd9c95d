package dsp_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/steadyframe/steadyframe/voices/internal/dsp"
)

// peakRef is the peak the way voices read it before Peak's bit maxima:
// Go's float max of the magnitudes.
func peakRef(buf []dsp.Frame) float32 {
	var pk float32
	for _, f := range buf {
		pk = max(pk, float32(math.Abs(float64(f[0]))), float32(math.Abs(float64(f[1]))))
	}
	return pk
}

// TestPeakMatchesFloatMax checks the bit maxima against the float
// maxima over buffers of every length up to 67, signed zeros, infinities,
// subnormals and NaNs included: the same value, or a NaN for a NaN.
func TestPeakMatchesFloatMax(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	odd := []float32{0, float32(math.Copysign(0, -1)), 1, -1, math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, math.MaxFloat32, float32(math.Inf(1)), float32(math.Inf(-1))}
	for n := range 68 {
		for trial := range 50 {
			buf := make([]dsp.Frame, n)
			for i := range buf {
				for c := range 2 {
					switch r := rng.IntN(10); {
					case r == 0:
						buf[i][c] = odd[rng.IntN(len(odd))]
					case r == 1 && trial%10 == 9:
						buf[i][c] = float32(math.NaN())
					default:
						buf[i][c] = float32(rng.NormFloat64())
					}
				}
			}
			got, want := dsp.Peak(buf), peakRef(buf)
			if math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
				t.Fatalf("%d frames, trial %d: Peak %v, float max %v", n, trial, got, want)
			}
		}
	}
}

// BenchmarkPeak measures a 1024-frame bus's peak, against the float
// maxima it replaced (impl=float-max).
func BenchmarkPeak(b *testing.B) {
	buf := make([]dsp.Frame, 1024)
	for i := range buf {
		buf[i] = dsp.Frame{float32(math.Sin(float64(i))), float32(math.Cos(float64(i)))}
	}
	var sink float32
	for _, impl := range []struct {
		name string
		f    func([]dsp.Frame) float32
	}{{"bits", dsp.Peak}, {"float-max", peakRef}} {
		b.Run("impl="+impl.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sink += impl.f(buf)
			}
		})
	}
	_ = sink
}
