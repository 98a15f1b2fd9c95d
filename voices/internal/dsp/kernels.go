package dsp

// The amd64 vector kernels are generated: asmgen (a module of its own,
// so that this one does not need avo) writes kernels_amd64.s, and
// scripts/ci-kernels.sh fails when regenerating changes it.
//go:generate go run -C asmgen . -out ../kernels_amd64.s

import (
	"encoding/binary"
	"math"
	"slices"
)

// The mixer's inner loops: one per source encoding × channel count × rate
// (unity or resampled). Each converts, resamples, applies the gain and
// adds into the bus in one pass over a run of frames, reading the
// caller's PCM directly: no per-sample switch, call or intermediate
// buffer. Against the former decode-into-floats-then-resample, that took
// voices' BenchmarkMix32 from 3.76M to 1.40M instructions per 1024-frame block
// (valgrind --tool=callgrind, mixer code only) and its CPU time from
// about 245 to 96 µs (best of eight, alternating, on a shared machine).
//
// Every loop adds len(out) frames, times the steady gains gl and gr, into
// out (a ramping gain is applied by voices' voice.render afterwards). src starts
// at the run's first source frame and must hold every frame the run
// reads: len(out) frames at unity rate; resampling, the frame the
// position p reaches on each device frame and the one after it. p is the
// 32.32 position relative to src (its integer part starts at 0), step
// the source frames per device frame.
//
// Each frame's source bytes are read through a three-index slice of
// exactly their length, which costs one bounds check and spares the
// pointer masking an open-ended slice needs. The loops take no pointer
// but out and src: the compiler is short of registers here, and a gain
// struct passed by pointer cost a register and, in the s16 resamplers, a
// stack reload on every frame.

// s16Scale turns an int16 sample into [-1, 1). The s16 loops fold it
// into the gain: scaling by a power of two is exact, so the result is the
// same as scaling each sample.
const s16Scale = 1.0 / 32768

func mixS16Mono(out []Frame, src []byte, gl, gr float32) {
	gl, gr = gl*s16Scale, gr*s16Scale
	for i := range out {
		j := 2 * i
		s := float32(int16(binary.LittleEndian.Uint16(src[j : j+2 : j+2])))
		out[i][0] += float32(s * gl)
		out[i][1] += float32(s * gr)
	}
}

func mixS16Stereo(out []Frame, src []byte, gl, gr float32) {
	gl, gr = gl*s16Scale, gr*s16Scale
	for i := range out {
		j := 4 * i
		u := binary.LittleEndian.Uint32(src[j : j+4 : j+4])
		out[i][0] += float32(float32(int16(u)) * gl)
		out[i][1] += float32(float32(int16(u>>16)) * gr)
	}
}

func mixF32Mono(out []Frame, src []byte, gl, gr float32) {
	for i := range out {
		j := 4 * i
		s := clamp(math.Float32frombits(binary.LittleEndian.Uint32(src[j : j+4 : j+4])))
		out[i][0] += float32(s * gl)
		out[i][1] += float32(s * gr)
	}
}

func mixF32Stereo(out []Frame, src []byte, gl, gr float32) {
	for i := range out {
		j := 8 * i
		u := binary.LittleEndian.Uint64(src[j : j+8 : j+8])
		out[i][0] += float32(clamp(math.Float32frombits(uint32(u))) * gl)
		out[i][1] += float32(clamp(math.Float32frombits(uint32(u>>32))) * gr)
	}
}

// The s16 resamplers interpolate the samples as integers converted to
// floats, unscaled (exact), in the f32 resamplers' order, s0 + (s1-s0)·t,
// and take the scale in the gains (a power of two: exact). So every
// kernel, vector or scalar, rounds the same steps the same way. The
// former integer interpolation with 32-bit weights, rounded once, was a
// little more precise and about 25% faster in plain Go, but no vector
// unit converts 64-bit integers to floats without AVX-512DQ, and the
// vector kernels gave other bits.

func resampleS16Mono(out []Frame, src []byte, p, step uint64, gl, gr float32) {
	gl, gr = gl*s16Scale, gr*s16Scale
	for i := range out {
		j := 2 * (p >> 32)
		u := binary.LittleEndian.Uint32(src[j : j+4 : j+4])
		s0 := float32(int16(u))
		s := s0 + float32((float32(int16(u>>16))-s0)*frac(p))
		p += step
		out[i][0] += float32(s * gl)
		out[i][1] += float32(s * gr)
	}
}

func resampleS16Stereo(out []Frame, src []byte, p, step uint64, gl, gr float32) {
	gl, gr = gl*s16Scale, gr*s16Scale
	for i := range out {
		j := 4 * (p >> 32)
		u := binary.LittleEndian.Uint64(src[j : j+8 : j+8])
		t := frac(p)
		l0, r0 := float32(int16(u)), float32(int16(u>>16))
		l := l0 + float32((float32(int16(u>>32))-l0)*t)
		r := r0 + float32((float32(int16(u>>48))-r0)*t)
		p += step
		out[i][0] += float32(l * gl)
		out[i][1] += float32(r * gr)
	}
}

// frac returns the interpolation weight of the next source frame: the
// fraction of the 32.32 position p.
func frac(p uint64) float32 { return float32(uint32(p)) * (1.0 / FracOne) }

// The f32 resamplers clamp after interpolating: in-range samples give a
// result bit for bit the same as clamping each sample first, and hostile
// ones (NaN, infinities, overs) still cannot leave [-1, 1]
// (voices' TestKernelsHostileFloats). One check per channel instead of two: about
// 3.5 against 4.1 ns per frame for the loop alone on a 44.1 kHz stereo
// run (the shape of voices' BenchmarkKernels/44100Hz/2ch/f32le).

func resampleF32Mono(out []Frame, src []byte, p, step uint64, gl, gr float32) {
	for i := range out {
		j := 4 * (p >> 32)
		u := binary.LittleEndian.Uint64(src[j : j+8 : j+8])
		s0 := math.Float32frombits(uint32(u))
		s := clamp(s0 + float32((math.Float32frombits(uint32(u>>32))-s0)*frac(p)))
		p += step
		out[i][0] += float32(s * gl)
		out[i][1] += float32(s * gr)
	}
}

func resampleF32Stereo(out []Frame, src []byte, p, step uint64, gl, gr float32) {
	for i := range out {
		j := 8 * (p >> 32)
		b := src[j : j+16 : j+16]
		t := frac(p)
		l0 := math.Float32frombits(binary.LittleEndian.Uint32(b[0:]))
		r0 := math.Float32frombits(binary.LittleEndian.Uint32(b[4:]))
		l := clamp(l0 + float32((math.Float32frombits(binary.LittleEndian.Uint32(b[8:]))-l0)*t))
		r := clamp(r0 + float32((math.Float32frombits(binary.LittleEndian.Uint32(b[12:]))-r0)*t))
		p += step
		out[i][0] += float32(l * gl)
		out[i][1] += float32(r * gr)
	}
}

// Kernels is one implementation of the mixer's inner loops, the unity
// and linear ones indexed by Kind: the scalar reference (ScalarKernels)
// or the vector kernels of the CPU (BestKernels). A mixer picks one at
// construction. A set is immutable: any goroutine may use it.
type Kernels struct {
	name   string
	mix    [4]func(out []Frame, src []byte, gl, gr float32)
	linear [4]func(out []Frame, src []byte, p, step uint64, gl, gr float32)
	// convert and filter are the band-limited resampler's two halves:
	// Sinc (kernels_sinc.go) runs them over a run of any kind, and
	// filter alone, over planes already converted, is the path of the
	// frames at seams and ends (voices' sincEdges).
	convert sincConverter
	filter  sincFilter
	// pitch and split are the pitched voices' filter and converter
	// (Kernels.FilterSteps, Kernels.Split).
	pitch pitchFilter
	split sincConverter
	// deint is Kernels.Deinterleave.
	deint func(l, r []float32, src []Frame)
}

// scalarKernels are the reference loops in plain Go: what other
// architectures, CPUs without AVX2, and builds with the
// steadyframe_scalar tag run, and what the vector kernels' tests compare
// against.
var scalarKernels = Kernels{
	name:    "scalar",
	mix:     [4]func([]Frame, []byte, float32, float32){mixS16Mono, mixS16Stereo, mixF32Mono, mixF32Stereo},
	linear:  [4]func([]Frame, []byte, uint64, uint64, float32, float32){resampleS16Mono, resampleS16Stereo, resampleF32Mono, resampleF32Stereo},
	convert: convertScalar,
	filter:  filterScalar,
	pitch:   filterStepsScalar,
	split:   convertScalar,
	deint:   deinterleaveScalar,
}

// ScalarKernels returns the reference kernels in plain Go.
func ScalarKernels() *Kernels { return &scalarKernels }

// BestKernels returns the fastest kernels this build has for this CPU.
func BestKernels() *Kernels {
	if len(vectorSets) > 0 {
		return vectorSets[0]
	}
	return &scalarKernels
}

// VectorKernels returns every vector kernel set this CPU runs, the
// fastest first: none on other architectures, on amd64 CPUs without
// AVX2 and in builds with the steadyframe_scalar tag. The tests and
// benchmarks compare them side by side.
func VectorKernels() []*Kernels { return slices.Clone(vectorSets) }

// Deinterleave copies len(l) frames of src into the planes l and r, left
// and right, unchanged: a rate bus's summed frames into the planes its
// filter reads. r and src must hold as many; the planes must not overlap.
func (ks *Kernels) Deinterleave(l, r []float32, src []Frame) { ks.deint(l, r, src) }

// deinterleaveScalar is the reference Deinterleave.
func deinterleaveScalar(l, r []float32, src []Frame) {
	src, r = src[:len(l)], r[:len(l)]
	for j, f := range src {
		l[j], r[j] = f[0], f[1]
	}
}

// Name returns the set's name: "scalar", "avx2" or "avx512".
func (ks *Kernels) Name() string { return ks.name }

// Mix adds len(out) frames of a unity-rate source of kind k, times the
// steady gains gl and gr, into out. src holds exactly those frames.
func (ks *Kernels) Mix(k Kind, out []Frame, src []byte, gl, gr float32) {
	ks.mix[k](out, src, gl, gr)
}

// Linear adds len(out) frames of a source of kind k, resampled by
// linear interpolation, times the steady gains gl and gr, into out. p
// is the 32.32 position relative to src (its integer part starts at 0),
// and step the source frames per device frame. src must hold every
// frame the run reads: the frame each output's position is in and the
// one after it.
func (ks *Kernels) Linear(k Kind, out []Frame, src []byte, p, step uint64, gl, gr float32) {
	ks.linear[k](out, src, p, step, gl, gr)
}
