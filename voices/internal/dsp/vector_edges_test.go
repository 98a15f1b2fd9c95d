package dsp_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/steadyframe/steadyframe/voices/internal/dsp"
	"github.com/steadyframe/steadyframe/voices/internal/dsp/dsptest"
)

// The edges of the vector kernels' runs: every length from 0 to 67 and a
// few long ones (every tail of the 8-frame passes), sources starting at
// odd byte addresses, buses starting past an aligned frame, extreme and
// NaN-free random samples as well as hostile ones, and gains of 0, 1 and
// odd values. Every output must have the scalar kernels' bits (the sign
// of a zero included), and nothing outside the run may change.

// edgeLengths are the run lengths the edge tests try.
func edgeLengths() []int {
	var n []int
	for i := 0; i <= 67; i++ {
		n = append(n, i)
	}
	return append(n, 255, 1024, 1027)
}

// edgeGains are the gain pairs the edge tests try.
var edgeGains = [][2]float32{{0, 0}, {1, 1}, {1, 0}, {0.70710677, 0.3}, {3.3, 1.7}, {0.1, 12.5}}

// edgeInput returns frames source frames of kind k in one of four
// shapes: random, extreme (full-scale 16-bit values; ±1, ±0 and the
// smallest floats), NaN-free random floats over [-4, 4], or hostile
// floats (dsptest.Input).
func edgeInput(r *rand.Rand, k dsp.Kind, frames, shape int) []byte {
	if shape == 0 || shape == 3 {
		return dsptest.Input(r, k, frames)
	}
	b := make([]byte, frames*k.FrameBytes())
	if k == dsp.KindS16Mono || k == dsp.KindS16Stereo {
		ext := []int16{-32768, 32767, -32767, 0, -1, 1}
		for o := 0; o < len(b); o += 2 {
			s := int16(r.Uint32())
			if shape == 1 {
				s = ext[r.IntN(len(ext))]
			}
			binary.LittleEndian.PutUint16(b[o:], uint16(s))
		}
		return b
	}
	ext := []float32{1, -1, 0, float32(math.Copysign(0, -1)), math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, 0.99999994, -0.99999994}
	for o := 0; o < len(b); o += 4 {
		s := float32(r.Float64()*8 - 4)
		if shape == 1 {
			s = ext[r.IntN(len(ext))]
		}
		binary.LittleEndian.PutUint32(b[o:], math.Float32bits(s))
	}
	return b
}

// unaligned returns a copy of b starting off bytes into a larger
// buffer, its capacity its length, and poison (NaN bytes) after it: a
// kernel that read past its run would see them.
func unaligned(b []byte, off int) []byte {
	buf := make([]byte, off+len(b)+64)
	for i := range buf {
		buf[i] = 0xff
	}
	copy(buf[off:], b)
	return buf[off : off+len(b) : off+len(b)]
}

// sameBits fails unless got and want hold the same float bits.
func sameBits(t *testing.T, what string, got, want []dsp.Frame) {
	t.Helper()
	for i := range want {
		for c := 0; c < 2; c++ {
			if g, w := math.Float32bits(got[i][c]), math.Float32bits(want[i][c]); g != w {
				t.Fatalf("%s: frame %d channel %d = %v (%#08x), scalar %v (%#08x)", what, i, c, got[i][c], g, want[i][c], w)
			}
		}
	}
}

// edgeBus returns a bus of n frames plus a guard frame on each side,
// holding a mix already.
func edgeBus(r *rand.Rand, n int) []dsp.Frame {
	bus := make([]dsp.Frame, n+2)
	for i := range bus {
		bus[i] = dsp.Frame{float32(r.NormFloat64()), float32(r.NormFloat64())}
	}
	return bus
}

// TestVectorMixEdges holds each vector set's unity-rate mixers to the
// scalar bits at the edges above.
func TestVectorMixEdges(t *testing.T) {
	dsptest.VectorLevels(t, func(t *testing.T, vec *dsp.Kernels) {
		vec = dsptest.VectorOrSkip(t, vec)
		scalar := dsp.ScalarKernels()
		r := rand.New(rand.NewPCG(31, 32))
		for k := dsp.KindS16Mono; k <= dsp.KindF32Stereo; k++ {
			for _, n := range edgeLengths() {
				for shape := range 4 {
					g := edgeGains[r.IntN(len(edgeGains))]
					src := unaligned(edgeInput(r, k, n, shape), r.IntN(4))
					bus := edgeBus(r, n)
					got, want := append([]dsp.Frame(nil), bus...), append([]dsp.Frame(nil), bus...)
					vec.Mix(k, got[1:n+1], src, g[0], g[1])
					scalar.Mix(k, want[1:n+1], src, g[0], g[1])
					sameBits(t, fmt.Sprintf("%v unity n=%d shape %d gains %v", k, n, shape, g), got, want)
				}
			}
		}
	})
}

// TestVectorLinearEdges holds each vector set's linear resamplers to the
// scalar bits at the edges above, with steps up and down, near 1 and
// far from it, fractions at 0 and just short of 1, and a source that
// ends at the last frame the run reads.
func TestVectorLinearEdges(t *testing.T) {
	dsptest.VectorLevels(t, func(t *testing.T, vec *dsp.Kernels) {
		vec = dsptest.VectorOrSkip(t, vec)
		scalar := dsp.ScalarKernels()
		r := rand.New(rand.NewPCG(33, 34))
		steps := []uint64{1, dsp.FracOne/7 + 3, dsp.FracOne - 1, dsp.FracOne, dsp.FracOne + 1, 44100 << 32 / 48000, 192000 << 32 / 8000, 3*dsp.FracOne + 12345}
		starts := []uint64{0, dsp.FracOne - 1, 1 << 31}
		for k := dsp.KindS16Mono; k <= dsp.KindF32Stereo; k++ {
			for _, n := range edgeLengths() {
				for _, step := range steps {
					shape := r.IntN(4)
					p := starts[r.IntN(len(starts))]
					if r.IntN(2) == 0 {
						p = uint64(r.Uint32()) | uint64(r.IntN(3))<<32
					}
					frames := int(p>>32) + 2
					if n > 0 {
						frames = int((p+uint64(n-1)*step)>>32) + 2
					}
					g := edgeGains[r.IntN(len(edgeGains))]
					src := unaligned(edgeInput(r, k, frames, shape), r.IntN(4))
					bus := edgeBus(r, n)
					got, want := append([]dsp.Frame(nil), bus...), append([]dsp.Frame(nil), bus...)
					vec.Linear(k, got[1:n+1], src, p, step, g[0], g[1])
					scalar.Linear(k, want[1:n+1], src, p, step, g[0], g[1])
					sameBits(t, fmt.Sprintf("%v linear n=%d step %#x p %#x shape %d gains %v", k, n, step, p, shape, g), got, want)
				}
			}
		}
	})
}

// TestVectorSplitMatchesScalar holds each vector set's converter
// (Kernels.Split, which the sinc's conversion shares on arm64) to the
// scalar bits: every kind, the lengths above and a whole plane, sources
// at odd addresses, planes in separate slices either way round. Nothing
// past len(l) may be written.
func TestVectorSplitMatchesScalar(t *testing.T) {
	dsptest.VectorLevels(t, func(t *testing.T, vec *dsp.Kernels) {
		vec = dsptest.VectorOrSkip(t, vec)
		scalar := dsp.ScalarKernels()
		r := rand.New(rand.NewPCG(35, 36))
		const guard = 9
		for k := dsp.KindS16Mono; k <= dsp.KindF32Stereo; k++ {
			for _, n := range append(edgeLengths(), dsp.PlaneFrames) {
				for shape := range 4 {
					src := unaligned(edgeInput(r, k, n, shape), r.IntN(4))
					var got, want [2][]float32
					for c := range 2 {
						got[c], want[c] = make([]float32, n+guard), make([]float32, n+guard)
						for i := range got[c] {
							got[c][i] = float32(r.NormFloat64())
							want[c][i] = got[c][i]
						}
					}
					// Either plane may come first in memory: swap which
					// one is the left.
					a, b := 0, 1
					if shape%2 == 1 {
						a, b = 1, 0
					}
					vec.Split(k, got[a][:n], got[b][:n], src)
					scalar.Split(k, want[a][:n], want[b][:n], src)
					for c := range 2 {
						for i := range want[c] {
							if g, w := math.Float32bits(got[c][i]), math.Float32bits(want[c][i]); g != w {
								t.Fatalf("%v split n=%d shape %d: plane %d sample %d = %v (%#08x), scalar %v (%#08x)", k, n, shape, c, i, got[c][i], g, want[c][i], w)
							}
						}
					}
				}
			}
		}
	})
}
