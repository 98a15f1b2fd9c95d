// Package dsptest holds the test helpers that package dsp's tests and
// package voices' tests share: hostile inputs for the kernels, a bus
// comparison, and a loop over the vector kernel sets the CPU runs. Only
// tests import it.
package dsptest

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/steadyframe/steadyframe/voices/internal/dsp"
)

// HostileF32 returns n float32 samples: mostly uniform in [-1.2, 1.2],
// with NaNs, infinities, huge, denormal and signed-zero values mixed in.
func HostileF32(r *rand.Rand, n int) []byte {
	special := []uint32{0x7fc00000, 0xffc00000, 0x7f800000, 0xff800000, 0x7f7fffff, 0xff7fffff,
		0x3f800001, 0xbf800001, 0x00000001, 0x807fffff, 0x80000000, 0x3f800000, 0xbf800000}
	b := make([]byte, 4*n)
	for o := 0; o < len(b); o += 4 {
		u := math.Float32bits(float32(r.Float64()*2.4 - 1.2))
		if r.IntN(8) == 0 {
			u = special[r.IntN(len(special))]
		}
		binary.LittleEndian.PutUint32(b[o:], u)
	}
	return b
}

// Input returns frames source frames of kind k: random s16, or hostile
// f32.
func Input(r *rand.Rand, k dsp.Kind, frames int) []byte {
	fb := k.FrameBytes()
	if k == dsp.KindF32Mono || k == dsp.KindF32Stereo {
		return HostileF32(r, frames*fb/4)
	}
	b := make([]byte, frames*fb)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// Same compares two buses: exactly, or within tol (absolute, or relative
// past 1), and NaN nowhere.
func Same(t testing.TB, what string, got, want []dsp.Frame, tol float64) {
	t.Helper()
	for i := range want {
		for c := 0; c < 2; c++ {
			g, w := float64(got[i][c]), float64(want[i][c])
			d := math.Abs(g - w)
			if math.IsNaN(g) || math.IsNaN(w) || d > tol*math.Max(1, math.Abs(w)) {
				t.Fatalf("%s: frame %d channel %d = %v, scalar %v", what, i, c, g, w)
			}
		}
	}
}

// VectorLevels runs f once for each vector kernel set this CPU runs, as
// a subtest named after it. That is the AVX-512 set where the CPU has
// AVX-512F, then the AVX2 one. Where there is none, it runs f once, as
// "none", with a nil set, which f skips with VectorOrSkip. Builds with
// the steadyframe_scalar tag, other architectures and CPUs without AVX2
// have none. scripts/test.sh runs the packages both ways.
func VectorLevels(t *testing.T, f func(t *testing.T, vec *dsp.Kernels)) {
	sets := dsp.VectorKernels()
	if len(sets) == 0 {
		t.Run("none", func(t *testing.T) { f(t, nil) })
	}
	for _, ks := range sets {
		t.Run(ks.Name(), func(t *testing.T) { f(t, ks) })
	}
}

// VectorOrSkip returns vec, a set from VectorLevels, or skips where it
// is nil.
func VectorOrSkip(t testing.TB, vec *dsp.Kernels) *dsp.Kernels {
	t.Helper()
	if vec == nil {
		t.Skip("no vector kernels in this build or on this CPU: the scalar ones are the only ones")
	}
	return vec
}
