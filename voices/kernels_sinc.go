package voices

import (
	"encoding/binary"
	"math"
)

// The band-limited resampler's inner loops, one per source encoding ×
// channel count. Each adds len(out) device frames, times the steady gains
// gl and gr, into out. src starts at the first source frame the first
// output's filter reads (its position's frame minus t.half) and holds
// every frame the run reads; phase is the first output's phase. Each
// output is the dot product of t.taps source frames with the phase's row
// of coefficients; the position then advances by t.stepInt frames and
// t.stepNum phases.
//
// These are the reference and the fallback of the vector kernels
// (kernels_amd64.s), and they sum in the vector kernels' order: eight
// taps at a time into two interleaved accumulators (mono: eight lanes of
// taps; stereo: four frames of two channels), then the halves pairwise.
// Each product is rounded before it is added (the float32 conversions
// keep the compiler from fusing them), as the vector kernels' separate
// multiply and add do, so both give the same bits on any input: a test
// demands equality, and the mix does not depend on the CPU.
//
// The f32 kernels filter the samples as they are and clamp each output to
// [-t.bound, t.bound], reading NaN as silence: samples in [-1, 1] can
// never produce more than t.bound, so valid PCM is untouched, and hostile
// PCM (NaN, infinities, overs) cannot poison the mix, at one check per
// output instead of one per sample read (each source frame is read by
// about taps/step outputs).

// sincStep moves the window on by one output: j is its byte offset in
// src, fb the source frame size.
func sincStep(t *sincTable, j int, phase uint32, fb int) (int, uint32) {
	phase += t.stepNum
	adv := int(t.stepInt)
	if phase >= t.phases {
		phase -= t.phases
		adv++
	}
	return j + adv*fb, phase
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

// hsum adds the eight lanes s as the vector kernels do: the upper half
// onto the lower, then the upper pair onto the lower (for a mono sum,
// then the last two; a stereo one ends with left and right).
func hsum(s *[8]float32) (float32, float32) {
	var h [4]float32
	for l := range h {
		h[l] = s[l] + s[l+4]
	}
	return h[0] + h[2], h[1] + h[3]
}

// The scalar kernels sum lane by lane: lane l of the vector kernels'
// first accumulator holds taps l, l+16, l+32, ... (in that order) and of
// the second taps l+8, l+24, ...; summing one lane at a time in two
// registers gives the same bits as the vector kernels' order without
// keeping sixteen partial sums in memory. A stereo lane is a channel of
// one of four frames: taps f, f+8, ... and f+4, f+12, ... for f < 4.

func sincS16Mono(out []frame, src []byte, t *sincTable, phase uint32, gl, gr float32) {
	gl, gr = gl*s16Scale, gr*s16Scale
	K := t.taps
	j := 0
	for i := range out {
		c := t.row(phase)
		w := src[j : j+2*K : j+2*K]
		var s [8]float32
		for l := range s {
			var a0, a1 float32
			k := l
			for ; k+8 < K; k += 16 {
				a0 += float32(c[k] * float32(int16(binary.LittleEndian.Uint16(w[2*k:]))))
				a1 += float32(c[k+8] * float32(int16(binary.LittleEndian.Uint16(w[2*k+16:]))))
			}
			if k < K {
				a0 += float32(c[k] * float32(int16(binary.LittleEndian.Uint16(w[2*k:]))))
			}
			s[l] = a0 + a1
		}
		h0, h1 := hsum(&s)
		m := h0 + h1
		out[i][0] += float32(m * gl)
		out[i][1] += float32(m * gr)
		j, phase = sincStep(t, j, phase, 2)
	}
}

func sincF32Mono(out []frame, src []byte, t *sincTable, phase uint32, gl, gr float32) {
	K := t.taps
	j := 0
	for i := range out {
		c := t.row(phase)
		w := src[j : j+4*K : j+4*K]
		var s [8]float32
		for l := range s {
			var a0, a1 float32
			k := l
			for ; k+8 < K; k += 16 {
				a0 += float32(c[k] * math.Float32frombits(binary.LittleEndian.Uint32(w[4*k:])))
				a1 += float32(c[k+8] * math.Float32frombits(binary.LittleEndian.Uint32(w[4*k+32:])))
			}
			if k < K {
				a0 += float32(c[k] * math.Float32frombits(binary.LittleEndian.Uint32(w[4*k:])))
			}
			s[l] = a0 + a1
		}
		h0, h1 := hsum(&s)
		m := clampTo(h0+h1, t.bound)
		out[i][0] += float32(m * gl)
		out[i][1] += float32(m * gr)
		j, phase = sincStep(t, j, phase, 4)
	}
}

func sincS16Stereo(out []frame, src []byte, t *sincTable, phase uint32, gl, gr float32) {
	gl, gr = gl*s16Scale, gr*s16Scale
	K := t.taps
	j := 0
	for i := range out {
		c := t.row(phase)
		w := src[j : j+4*K : j+4*K]
		var s [8]float32
		for f := 0; f < 4; f++ {
			var l0, l1, r0, r1 float32
			for k := f; k < K; k += 8 {
				u0 := binary.LittleEndian.Uint32(w[4*k:])
				u1 := binary.LittleEndian.Uint32(w[4*k+16:])
				l0 += float32(c[k] * float32(int16(u0)))
				r0 += float32(c[k] * float32(int16(u0>>16)))
				l1 += float32(c[k+4] * float32(int16(u1)))
				r1 += float32(c[k+4] * float32(int16(u1>>16)))
			}
			s[2*f], s[2*f+1] = l0+l1, r0+r1
		}
		l, r := hsum(&s)
		out[i][0] += float32(l * gl)
		out[i][1] += float32(r * gr)
		j, phase = sincStep(t, j, phase, 4)
	}
}

func sincF32Stereo(out []frame, src []byte, t *sincTable, phase uint32, gl, gr float32) {
	K := t.taps
	j := 0
	for i := range out {
		c := t.row(phase)
		w := src[j : j+8*K : j+8*K]
		var s [8]float32
		for f := 0; f < 4; f++ {
			var l0, l1, r0, r1 float32
			for k := f; k < K; k += 8 {
				u0 := binary.LittleEndian.Uint64(w[8*k:])
				u1 := binary.LittleEndian.Uint64(w[8*k+32:])
				l0 += float32(c[k] * math.Float32frombits(uint32(u0)))
				r0 += float32(c[k] * math.Float32frombits(uint32(u0>>32)))
				l1 += float32(c[k+4] * math.Float32frombits(uint32(u1)))
				r1 += float32(c[k+4] * math.Float32frombits(uint32(u1>>32)))
			}
			s[2*f], s[2*f+1] = l0+l1, r0+r1
		}
		l, r := hsum(&s)
		out[i][0] += float32(clampTo(l, t.bound) * gl)
		out[i][1] += float32(clampTo(r, t.bound) * gr)
		j, phase = sincStep(t, j, phase, 8)
	}
}

// sincDot filters a window gathered as stereo frames (w holds taps
// frames, left and right interleaved; a mono source's twice) with row c:
// the path of the frames at a clip's start or end and at loop seams.
func sincDot(c, w []float32) (float32, float32) {
	K := len(c)
	w = w[:2*K]
	var s [8]float32
	for f := 0; f < 4; f++ {
		var l0, l1, r0, r1 float32
		for k := f; k < K; k += 8 {
			l0 += float32(c[k] * w[2*k])
			r0 += float32(c[k] * w[2*k+1])
			l1 += float32(c[k+4] * w[2*k+8])
			r1 += float32(c[k+4] * w[2*k+9])
		}
		s[2*f], s[2*f+1] = l0+l1, r0+r1
	}
	return hsum(&s)
}
