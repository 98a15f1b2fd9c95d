package voices

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/steadyframe/steadyframe/voices/internal/dsp"
)

// reference renders frames device frames of v the slow way: for each
// device frame, decode the two source frames it interpolates between
// with the reference converter and interpolate in float32. It shares no
// code with the inner loops but decode.
func reference(v *voice, frames int) []float32 {
	out := make([]float32, 2*frames)
	loopLen := uint64(v.end-v.loopStart) << 32
	var s [4]float32
	for n := 0; n < frames; n++ {
		for v.loop && v.pos>>32 >= uint64(v.end) {
			v.pos -= loopLen
		}
		if v.pos>>32 >= uint64(v.end) {
			break // a one-shot clip's end: silence
		}
		v.decode(s[:], int(v.pos>>32), 2)
		t := float32(uint32(v.pos)) * (1.0 / dsp.FracOne)
		out[2*n] = s[0] + float32((s[2]-s[0])*t)
		out[2*n+1] = s[1] + float32((s[3]-s[1])*t)
		v.pos += v.step
	}
	return out
}

// noise returns frames frames of uniform noise in [-amp, amp] in f.
func noise(r *rand.Rand, f Format, frames int, amp float64) []byte {
	b := make([]byte, frames*f.FrameBytes())
	for o := 0; o < len(b); o += f.Encoding.SampleBytes() {
		s := (r.Float64()*2 - 1) * amp
		if f.Encoding == EncodingInt16LE {
			binary.LittleEndian.PutUint16(b[o:], uint16(int16(math.Round(s*32767))))
		} else {
			binary.LittleEndian.PutUint32(b[o:], math.Float32bits(float32(s)))
		}
	}
	return b
}

// TestKernelsMatchReference renders noise in every source format through
// the mixer's inner loops, in blocks of random sizes, and compares every
// sample with the reference converter and resampler: one-shot clips past
// their end, and short loops with a loop start inside the clip, so runs
// split at many loop seams and block edges. Every path must match
// exactly: the reference rounds each step as the kernels do (explicit
// float32 conversions keep Go from fusing its multiply-adds on arm64 and
// GOAMD64=v3), so this holds on every CPU.
func TestKernelsMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, f := range allFormats() {
		for _, loop := range []bool{false, true} {
			pcm := noise(r, f, 37, 1)
			v := testVoice(f, pcm, loop)
			ref := testVoice(f, pcm, loop)
			if loop {
				v.loopStart, ref.loopStart = 5, 5
			}
			const frames = 4000
			want := reference(ref, frames)
			got := make([]float32, 0, 2*frames)
			for len(got) < 2*frames {
				buf := make([]float32, 2*min(1+r.IntN(300), frames-len(got)/2))
				v.pull(buf)
				got = append(got, buf...)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("%v loop=%v: sample %d (frame %d) = %v, reference %v", f, loop, i, i/2, got[i], want[i])
				}
			}
			if v.ended == loop {
				t.Errorf("%v loop=%v: ended = %v", f, loop, v.ended)
			}
		}
	}
}

// TestRampMatchesReference renders blocks whose gains change every block
// (the unity-gain scratch pass plus the ramp) and checks each frame is the
// reference sample times the gain ramped from the last block's target to
// this one's.
func TestRampMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	targets := [][2]float32{{0.25, 1}, {1, 0.5}, {0, 0.75}, {0.6, 0.6}}
	for _, f := range allFormats() {
		pcm := noise(r, f, 301, 1)
		v, ref := testVoice(f, pcm, true), testVoice(f, pcm, true)
		v.loopStart, ref.loopStart = 17, 17
		const block = 256
		want := reference(ref, block*len(targets))
		bus, scratch := make([]frame, block), make([]frame, block)
		gl, gr := float32(1), float32(1)
		v.gainL, v.gainR = gl, gr
		for b, tg := range targets {
			clear(bus)
			v.render(bus, scratch, tg[0], tg[1])
			dl, dr := (tg[0]-gl)/block, (tg[1]-gr)/block
			for i, got := range bus {
				gl += dl
				gr += dr
				n := b*block + i
				wl, wr := float64(want[2*n]*gl), float64(want[2*n+1]*gr)
				if math.Abs(float64(got[0])-wl) > 1e-6 || math.Abs(float64(got[1])-wr) > 1e-6 {
					t.Fatalf("%v block %d frame %d = %v, want (%v, %v)", f, b, i, got, wl, wr)
				}
			}
			gl, gr = tg[0], tg[1]
		}
	}
}

// TestKernelsHostileFloats feeds every float32 source format arbitrary
// bit patterns (NaN, infinities, huge and denormal values) and checks the
// inner loops never let a sample leave [-1, 1].
func TestKernelsHostileFloats(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	special := []uint32{0x7fc00000, 0xffc00000, 0x7f800000, 0xff800000, 0x7f7fffff, 0x3f800001, 0xbf800001, 0x00000001}
	for _, f := range allFormats() {
		if f.Encoding != EncodingFloat32LE {
			continue
		}
		pcm := make([]byte, 1000*f.FrameBytes())
		for o := 0; o < len(pcm); o += 4 {
			u := r.Uint32()
			if r.IntN(4) == 0 {
				u = special[r.IntN(len(special))]
			}
			binary.LittleEndian.PutUint32(pcm[o:], u)
		}
		v := testVoice(f, pcm, true)
		out := make([]float32, 2*4096)
		v.pull(out)
		for i, s := range out {
			if !(s >= -1 && s <= 1) {
				t.Fatalf("%v: sample %d = %v, outside [-1, 1]", f, i, s)
			}
		}
	}
}

// BenchmarkKernels measures each inner loop alone: one looping voice of
// every source format rendering 256-frame blocks at a steady gain. It
// reports ns per device frame, the unit the comments in kernels.go quote.
// The scalar linear loops keep their old names; the sinc's are under
// sinc/, and the vector kernels' under vector/.
func BenchmarkKernels(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	sets := []*dsp.Kernels{dsp.ScalarKernels()}
	if best := dsp.BestKernels(); best != sets[0] {
		sets = append(sets, best)
	}
	for _, ks := range sets {
		for _, rs := range []Resampler{ResamplerLinear, ResamplerSinc} {
			for _, f := range allFormats() {
				name := f.String()
				if rs == ResamplerSinc {
					if f.Rate == 48000 {
						continue // unity rate: the same loop as linear
					}
					name = "sinc/" + name
				}
				if ks != sets[0] {
					name = "vector/" + name
				}
				b.Run(name, func(b *testing.B) {
					pcm := noise(r, f, f.Rate, 0.5)
					v := testVoice(f, pcm, true)
					if rs == ResamplerSinc {
						v = testSincVoice(f, pcm, true, 48000)
					}
					v.kern = ks
					v.gainL, v.gainR = 0.5, 0.5
					bus := make([]frame, 256)
					b.ReportAllocs()
					for b.Loop() {
						v.render(bus, nil, 0.5, 0.5)
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(bus)), "ns/frame")
				})
			}
		}
	}
}
