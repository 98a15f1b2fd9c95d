package voices

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// vectorOrSkip returns vec, a vector kernel set from vectorLevels, or
// skips where it is nil: builds with the steadyframe_scalar tag, other
// architectures and CPUs without AVX2 have none (scripts/test.sh runs the
// package both ways).
func vectorOrSkip(t testing.TB, vec *kernelSet) *kernelSet {
	t.Helper()
	if vec == nil {
		t.Skip("no vector kernels in this build or on this CPU: the scalar ones are the only ones")
	}
	return vec
}

// hostileF32 returns n float32 samples: mostly uniform in [-1.2, 1.2],
// with NaNs, infinities, huge, denormal and signed-zero values mixed in.
func hostileF32(r *rand.Rand, n int) []byte {
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

// kernelInput returns frames source frames of kind k: random s16, or
// hostile f32.
func kernelInput(r *rand.Rand, k sourceKind, frames int) []byte {
	fb := kindFrameBytes[k]
	if k == kindF32Mono || k == kindF32Stereo {
		return hostileF32(r, frames*fb/4)
	}
	b := make([]byte, frames*fb)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// sameFrames compares two buses: exactly, or within tol (absolute, or
// relative past 1), and NaN nowhere.
func sameFrames(t *testing.T, what string, got, want []frame, tol float64) {
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

var kindNames = [...]string{kindS16Mono: "s16 mono", kindS16Stereo: "s16 stereo", kindF32Mono: "f32 mono", kindF32Stereo: "f32 stereo"}

// TestVectorKernelsMatchScalar runs every vector kernel (4 source kinds ×
// unity, linear and sinc) and its scalar reference on the same input: run
// lengths 0 to 70 and long ones (every tail), random gains added into a
// bus that already holds a mix, hostile floats (NaN, infinities, overs,
// denormals), and for the resamplers every kind of step: up, down,
// unity-adjacent; with the AVX-512 set and the AVX2 one where the CPU
// has both. Unity and sinc kernels, and the f32 linear ones, must
// give the same bits; the s16 linear ones interpolate in floats, not
// integers, and may differ by a rounding.
func TestVectorKernelsMatchScalar(t *testing.T) { vectorLevels(t, vectorKernelsMatchScalar) }

func vectorKernelsMatchScalar(t *testing.T, vec *kernelSet) {
	vec = vectorOrSkip(t, vec)
	r := rand.New(rand.NewPCG(11, 12))
	lengths := []int{}
	for n := 0; n <= 70; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 255, 256, 1000, 1024, 5000) // 5000: longer than a plane
	steps := []uint64{}
	for _, rate := range supportedRates {
		steps = append(steps, uint64(rate)<<32/48000)
	}
	var tables []*sincTable
	// Group layouts with cycles of 16 rows (one group), 48, 160, 320 and
	// 1280, the per-output kernels for a long cycle (16 kHz to 44.1 kHz)
	// and for downsampling.
	for _, pair := range [][2]int{{22050, 48000}, {44100, 48000}, {8000, 48000}, {22050, 44100}, {16000, 48000}, {16000, 44100},
		{96000, 48000}, {88200, 48000}, {48000, 44100}, {11025, 96000}} {
		tb := sincTableFor(pair[0], pair[1])
		if grouped := pair[0] < pair[1] && pair != [2]int{16000, 44100}; (tb.grp != nil) != grouped {
			t.Fatalf("%d Hz to %d Hz: group layout %v, want %v", pair[0], pair[1], tb.grp != nil, grouped)
		}
		tables = append(tables, tb)
	}
	planes := newSincPlanes()
	for k := kindS16Mono; k <= kindF32Stereo; k++ {
		for _, n := range lengths {
			gl, gr := float32(r.Float64()*4), float32(r.Float64()*4)
			bus := make([]frame, n)
			for i := range bus {
				bus[i] = frame{float32(r.NormFloat64()), float32(r.NormFloat64())}
			}
			run := func(f func(out []frame)) []frame {
				out := append([]frame(nil), bus...)
				f(out)
				return out
			}

			src := kernelInput(r, k, n+1)
			sameFrames(t, kindNames[k]+" unity", run(func(o []frame) { vec.mix[k](o, src[:n*kindFrameBytes[k]], gl, gr) }),
				run(func(o []frame) { scalarKernels.mix[k](o, src[:n*kindFrameBytes[k]], gl, gr) }), 0)

			tol := 0.0
			if k == kindS16Mono || k == kindS16Stereo {
				tol = 1e-6
			}
			for _, step := range steps {
				p := uint64(r.Uint32())
				frames := 2
				if n > 0 {
					frames = int((p+uint64(n-1)*step)>>32) + 2
				}
				src := kernelInput(r, k, frames)
				sameFrames(t, kindNames[k]+" linear", run(func(o []frame) { vec.linear[k](o, src, p, step, gl, gr) }),
					run(func(o []frame) { scalarKernels.linear[k](o, src, p, step, gl, gr) }), tol)
			}

			for _, tb := range tables {
				ph := r.Uint32N(tb.phases)
				last, _ := tb.advance(0, ph, max(n-1, 0))
				src := kernelInput(r, k, last+tb.taps)
				sameFrames(t, kindNames[k]+" sinc", run(func(o []frame) { vec.sinc(k, o, src, tb, ph, gl, gr, planes) }),
					run(func(o []frame) { scalarKernels.sinc(k, o, src, tb, ph, gl, gr, planes) }), 0)
			}
		}
	}
}

// TestVectorRenderMatchesScalar renders looping and one-shot voices of
// every source format, with both resamplers, through voice.render with
// each kernel set, in blocks of random sizes with gain ramps: the
// dispatch, the runs' tails, the seams and ends must come out the same.
func TestVectorRenderMatchesScalar(t *testing.T) { vectorLevels(t, vectorRenderMatchesScalar) }

func vectorRenderMatchesScalar(t *testing.T, vec *kernelSet) {
	vec = vectorOrSkip(t, vec)
	r := rand.New(rand.NewPCG(13, 14))
	for _, rs := range []Resampler{ResamplerLinear, ResamplerSinc} {
		for _, f := range allFormats() {
			for _, loop := range []bool{false, true} {
				k := kindOf(f)
				pcm := kernelInput(r, k, 3000)
				mk := func(ks *kernelSet) *voice {
					v := testVoice(f, pcm, loop)
					if rs == ResamplerSinc {
						v = testSincVoice(f, pcm, loop, 48000)
					}
					v.kern = ks
					v.loopStart = 700
					return v
				}
				a, b := mk(&scalarKernels), mk(vec)
				scratch := make([]frame, 1024)
				for blk := 0; blk < 20; blk++ {
					n := 1 + r.IntN(1024)
					tl, tr := float32(r.Float64()), float32(r.Float64())
					if blk%3 == 0 {
						tl, tr = a.gainL, a.gainR // steady: straight into the kernels
					}
					want, got := make([]frame, n), make([]frame, n)
					a.render(want, scratch, tl, tr)
					b.render(got, scratch, tl, tr)
					tol := 0.0
					if rs == ResamplerLinear && f.Encoding == EncodingInt16LE {
						tol = 1e-6
					}
					sameFrames(t, rs.String()+" "+f.String(), got, want, tol)
					if a.ended != b.ended || a.pos != b.pos || a.seq != b.seq {
						t.Fatalf("%v %v: state differs after block %d", rs, f, blk)
					}
				}
			}
		}
	}
}
