package voices

import (
	"encoding/binary"
	"math"
)

// The band-limited resampler's inner loops, one per source encoding ×
// channel count. Each adds len(out) device frames, times the steady gains
// gl and gr, into out. src starts at the first source frame the first
// output's filter reads (its position's frame minus t.half) and holds
// every frame the run reads; seq is the first output's row. Each output
// is the dot product of t.taps source frames with its row of
// coefficients; the position then advances by t.adv[seq] frames, and
// the next output takes the next row. scratch is the mixer's: the vector kernels convert
// the run's source frames into it, one plane of floats per channel; the
// scalar ones read src directly and ignore it.
//
// These are the reference and the fallback of the vector kernels
// (kernels_amd64.s), and they sum in the vector kernels' order: each
// channel eight taps at a time into two interleaved accumulators, then
// the accumulators' lanes pairwise. Each product is rounded before it is
// added (the float32 conversions keep the compiler from fusing them), as
// the vector kernels' separate multiply and add do, so both give the same
// bits on any input: a test demands equality, and the mix does not
// depend on the CPU.
//
// The f32 kernels filter the samples as they are and clamp each output to
// [-t.bound, t.bound], reading NaN as silence: samples in [-1, 1] can
// never produce more than t.bound, so valid PCM is untouched, and hostile
// PCM (NaN, infinities, overs) cannot poison the mix, at one check per
// output instead of one per sample read (each source frame is read by
// about taps/step outputs).

// sincPlane is the size in floats of each of the two planes of the
// mixer's scratch for the sinc kernels: a vector kernel converts a run of
// source frames into it (a channel per plane) and filters up to a plane's
// worth at a time, 8 KiB, which stays in the L1 cache beside the
// coefficients.
const sincPlane = 2048

// sincStep moves the window on by one output: j is its byte offset in
// src, fb the source frame size.
func sincStep(t *sincTable, j int, seq uint32, fb int) (int, uint32) {
	j += int(t.adv[seq]) * fb
	if seq++; seq == t.phases {
		seq = 0
	}
	return j, seq
}

// clampTo reads NaN as 0 and limits x to [-b, b].
func clampTo(x, b float32) float32 {
	switch {
	case x != x:
		return 0
	case x > b:
		return b
	case x < -b:
		return -b
	}
	return x
}

// The scalar kernels sum lane by lane: lane l of the vector kernels'
// first accumulator holds taps l, l+16, l+32, ... (in that order) and of
// the second taps l+8, l+24, ...; summing one lane at a time in two
// registers gives the same bits as the vector order without keeping
// sixteen partial sums in memory. Then, as the vector kernels reduce:
// the two accumulators, the upper half of the lanes onto the lower, the
// upper pair onto the lower, and the last two.

// sincSumS16, sincSumF32 and sincSumFloat are one channel's dot product
// in that order, over 16-bit samples, float32 samples in bytes, or
// floats: the window's sample k of the channel is at w[k*stride+off]
// (in samples). Three copies of one loop: a sample reader passed as a
// function cost an indirect call per tap.
func sincSumS16(c []float32, w []byte, stride, off int) float32 {
	K := len(c)
	var s [8]float32
	for l := range s {
		var a0, a1 float32
		k := l
		for ; k+8 < K; k += 16 {
			a0 += float32(c[k] * float32(int16(binary.LittleEndian.Uint16(w[2*((k)*stride+off):]))))
			a1 += float32(c[k+8] * float32(int16(binary.LittleEndian.Uint16(w[2*((k+8)*stride+off):]))))
		}
		if k < K {
			a0 += float32(c[k] * float32(int16(binary.LittleEndian.Uint16(w[2*((k)*stride+off):]))))
		}
		s[l] = a0 + a1
	}
	return hsum(&s)
}

func sincSumF32(c []float32, w []byte, stride, off int) float32 {
	K := len(c)
	var s [8]float32
	for l := range s {
		var a0, a1 float32
		k := l
		for ; k+8 < K; k += 16 {
			a0 += float32(c[k] * math.Float32frombits(binary.LittleEndian.Uint32(w[4*((k)*stride+off):])))
			a1 += float32(c[k+8] * math.Float32frombits(binary.LittleEndian.Uint32(w[4*((k+8)*stride+off):])))
		}
		if k < K {
			a0 += float32(c[k] * math.Float32frombits(binary.LittleEndian.Uint32(w[4*((k)*stride+off):])))
		}
		s[l] = a0 + a1
	}
	return hsum(&s)
}

func sincSumFloat(c []float32, w []float32, stride, off int) float32 {
	K := len(c)
	var s [8]float32
	for l := range s {
		var a0, a1 float32
		k := l
		for ; k+8 < K; k += 16 {
			a0 += float32(c[k] * w[(k)*stride+off])
			a1 += float32(c[k+8] * w[(k+8)*stride+off])
		}
		if k < K {
			a0 += float32(c[k] * w[(k)*stride+off])
		}
		s[l] = a0 + a1
	}
	return hsum(&s)
}

// hsum reduces the eight lanes s: the upper half onto the lower, the
// upper pair onto the lower, and the last two.
func hsum(s *[8]float32) float32 {
	var h [4]float32
	for l := range h {
		h[l] = s[l] + s[l+4]
	}
	return (h[0] + h[2]) + (h[1] + h[3])
}

func sincS16Mono(out []frame, src []byte, t *sincTable, seq uint32, gl, gr float32, _ []float32) {
	gl, gr = gl*s16Scale, gr*s16Scale
	K := t.taps
	j := 0
	for i := range out {
		w := src[j : j+2*K : j+2*K]
		m := sincSumS16(t.row(seq), w, 1, 0)
		out[i][0] += float32(m * gl)
		out[i][1] += float32(m * gr)
		j, seq = sincStep(t, j, seq, 2)
	}
}

func sincF32Mono(out []frame, src []byte, t *sincTable, seq uint32, gl, gr float32, _ []float32) {
	K := t.taps
	j := 0
	for i := range out {
		w := src[j : j+4*K : j+4*K]
		m := sincSumF32(t.row(seq), w, 1, 0)
		m = clampTo(m, t.bound)
		out[i][0] += float32(m * gl)
		out[i][1] += float32(m * gr)
		j, seq = sincStep(t, j, seq, 4)
	}
}

func sincS16Stereo(out []frame, src []byte, t *sincTable, seq uint32, gl, gr float32, _ []float32) {
	gl, gr = gl*s16Scale, gr*s16Scale
	K := t.taps
	j := 0
	for i := range out {
		w := src[j : j+4*K : j+4*K]
		c := t.row(seq)
		l := sincSumS16(c, w, 2, 0)
		r := sincSumS16(c, w, 2, 1)
		out[i][0] += float32(l * gl)
		out[i][1] += float32(r * gr)
		j, seq = sincStep(t, j, seq, 4)
	}
}

func sincF32Stereo(out []frame, src []byte, t *sincTable, seq uint32, gl, gr float32, _ []float32) {
	K := t.taps
	j := 0
	for i := range out {
		w := src[j : j+8*K : j+8*K]
		c := t.row(seq)
		l := sincSumF32(c, w, 2, 0)
		r := sincSumF32(c, w, 2, 1)
		out[i][0] += float32(clampTo(l, t.bound) * gl)
		out[i][1] += float32(clampTo(r, t.bound) * gr)
		j, seq = sincStep(t, j, seq, 8)
	}
}

// sincDot filters a window gathered as stereo frames (w holds taps
// frames, left and right interleaved; a mono source's twice) with row c:
// the path of the frames at a clip's start or end and at loop seams.
func sincDot(c, w []float32) (float32, float32) {
	w = w[:2*len(c)]
	return sincSumFloat(c, w, 2, 0), sincSumFloat(c, w, 2, 1)
}
