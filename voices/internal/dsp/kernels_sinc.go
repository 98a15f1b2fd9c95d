package dsp

import (
	"encoding/binary"
	"math"
)

// The band-limited resampler's inner loop, Kernels.sinc, for every
// source encoding × channel count. It adds len(out) device frames, times
// the steady gains gl and gr, into out. src starts at the first source frame the first
// output's filter reads (its position's frame minus t.half) and holds
// every frame the run reads; seq is the first output's row. Each output
// is the dot product of t.taps source frames with its row of
// coefficients; the position then advances by t.adv[seq] frames, and the
// next output takes the next row. planes is the mixer's scratch
// (NewPlanes).
//
// Every kernel, scalar or vector, first converts the run's frames into
// planes of floats, a plane per channel, once each: the filter reads each
// frame about taps/step times. 16-bit samples go in unscaled, exact, and
// their scale joins the gains; float32 samples go in through clamp, as
// the unity and linear kernels read them: NaN is silence and the rest is
// limited to [-1, 1], so hostile PCM (NaN, infinities, overs) cannot
// poison the mix, and a bad sample costs only itself.
//
// The scalar kernels are the reference and the fallback of the vector
// ones (kernels_amd64.s, sinc_avx512_amd64.s, sinc_avx2_amd64.s) and give
// the same values: each output sums its taps in the order of the vector
// kernel that runs its filter (sincDotGroup, sincDotLanes), every
// product rounded before it is added, as the vector kernels' separate
// multiplies and adds round them. So the mix does not depend on the CPU,
// and a test demands equality.

// sincPlane is the most frames a run converts at a time: a plane of 8
// KiB per channel, which stays in the L1 cache beside the coefficients.
const sincPlane = 2048

// sincLead and sincStride place the planes in the scratch: the left
// plane's first frame at sincLead floats, the right one's sincStride
// floats after the left one's. The group kernels compute 16 outputs at
// a time and load 16 samples at a time, so around a run they read up to
// 15 floats before its first frame and 15 past its last, into lanes
// whose outputs they discard: the margins keep those reads inside the
// scratch.
const (
	sincLead   = 16
	sincStride = sincPlane + 64
)

// Planes is the scratch the sinc kernels convert a run's source into: a
// left and a right plane of floats, each with its margins. One Planes
// may serve every voice of a mixer in turn. It belongs to the goroutine
// that mixes; it is not safe for concurrent use.
type Planes struct{ buf []float32 }

// NewPlanes returns the scratch for the sinc kernels.
func NewPlanes() *Planes { return &Planes{buf: make([]float32, 2*sincStride)} }

// PlaneFrames is the most frames Window holds.
const PlaneFrames = sincPlane

// Window returns the first n frames (n <= PlaneFrames) of the left and
// the right plane, where Kernels.Filter expects them: it finds the right
// plane at a fixed distance from the left. The slices alias p's storage
// and are valid until the next call that uses p.
func (p *Planes) Window(n int) (l, r []float32) {
	return p.buf[sincLead : sincLead+n : sincLead+n], p.buf[sincStride+sincLead : sincStride+sincLead+n : sincStride+sincLead+n]
}

// Filter adds len(out) outputs of the filter t, from row seq on, times
// the gains gl and gr, into out. It filters source planes already
// converted by Planes.Window: 16-bit samples unscaled, their scale in
// the gains, and float samples clamped. r is unused unless stereo. l
// and r must be a Window of one Planes holding every frame the outputs
// read, from the first output's window start.
func (ks *Kernels) Filter(stereo bool, out []Frame, l, r []float32, t *SincTable, seq uint32, gl, gr float32) {
	ks.filter(stereo, out, l, r, t, seq, gl, gr)
}

// sincFilter filters n outputs from converted planes l and r (r unused
// for mono): a scalar loop, or a wrapper of an assembly kernel.
type sincFilter func(stereo bool, out []Frame, l, r []float32, t *SincTable, seq uint32, gl, gr float32)

// sincConverter fills the planes l and r (r unused for mono) with the
// source frames run of kind k, len(l) of them.
type sincConverter func(k Kind, l, r []float32, run []byte)

// Sinc adds len(out) device frames of a source of kind k, resampled by
// the band-limited filter t, times the steady gains gl and gr, into out
// (the whole contract is above). It converts the source a run of at
// most a plane of frames at a time into planes and filters each run.
func (ks *Kernels) Sinc(k Kind, out []Frame, src []byte, t *SincTable, seq uint32, gl, gr float32, planes *Planes) {
	fb := kindFrameBytes[k]
	if k == KindS16Mono || k == KindS16Stereo {
		gl, gr = gl*s16Scale, gr*s16Scale
	}
	stereo := k == KindS16Stereo || k == KindF32Stereo
	l, r := planes.Window(sincPlane)
	for len(out) > 0 {
		// The most outputs whose windows fit a plane: the last one
		// starts at most sincPlane-taps frames in.
		n := min(len(out), t.outputsUpTo(0, seq, sincPlane-t.taps))
		last, lastSeq := t.advance(0, seq, n-1)
		span := last + t.taps
		ks.convert(k, l[:span], r[:span], src[:span*fb:span*fb])
		ks.filter(stereo, out[:n], l[:span], r[:span], t, seq, gl, gr)
		adv, next := t.step1(last, lastSeq)
		src, seq, out = src[adv*fb:], next, out[n:]
	}
}

// convertScalar is the reference converter.
func convertScalar(k Kind, l, r []float32, run []byte) {
	switch k {
	case KindS16Mono:
		for j := range l {
			l[j] = float32(int16(binary.LittleEndian.Uint16(run[2*j:])))
		}
	case KindF32Mono:
		for j := range l {
			l[j] = clamp(math.Float32frombits(binary.LittleEndian.Uint32(run[4*j:])))
		}
	case KindS16Stereo:
		r = r[:len(l)]
		for j := range l {
			u := binary.LittleEndian.Uint32(run[4*j:])
			l[j], r[j] = float32(int16(u)), float32(int16(u>>16))
		}
	default:
		r = r[:len(l)]
		for j := range l {
			u := binary.LittleEndian.Uint64(run[8*j:])
			l[j], r[j] = clamp(math.Float32frombits(uint32(u))), clamp(math.Float32frombits(uint32(u>>32)))
		}
	}
}

// filterScalar is the reference filter.
func filterScalar(stereo bool, out []Frame, l, r []float32, t *SincTable, seq uint32, gl, gr float32) {
	K, g := t.taps, t.grp
	j := 0
	for i := range out {
		c := t.row(seq)
		var ml, mr float32
		if g != nil {
			// The row's lane offset in its group decides the order of
			// the partial sums.
			shift := int(g.lane[seq])
			ml = sincDotGroup(c, l[j:j+K], shift)
			mr = ml
			if stereo {
				mr = sincDotGroup(c, r[j:j+K], shift)
			}
		} else {
			ml = sincDotLanes(c, l[j:j+K])
			mr = ml
			if stereo {
				mr = sincDotLanes(c, r[j:j+K])
			}
		}
		out[i][0] += float32(ml * gl)
		out[i][1] += float32(mr * gr)
		j += int(t.adv[seq])
		if seq++; seq == t.phases {
			seq = 0
		}
	}
}

// sincDotGroup is the group kernels' order, for an output whose window
// starts shift frames after its group's first (sincGroups.lane): the
// kernels sum frame m of the group's span into the (m mod 8)-th of eight
// partial sums, so tap k goes into partial sum (k+shift) mod 8, in order
// of k; then ((a0+a1)+(a2+a3)) + ((a4+a5)+(a6+a7)). The kernels also
// add the frames outside the output's window times zero, which changes
// no value (a zero's sign aside).
func sincDotGroup(c, w []float32, shift int) float32 {
	var a [8]float32
	for k, ck := range c {
		a[(k+shift)&7] += float32(ck * w[k])
	}
	return ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]))
}

// sincDotLanes is the per-output kernels' order: lane l of their first
// accumulator holds taps l, l+16, l+32, ... (in that order) and of the
// second taps l+8, l+24, ...; summing one lane at a time in two registers
// gives the same bits as the vector order without keeping sixteen
// partial sums in memory. Then, as the vector kernels reduce: the two
// accumulators, the upper half of the lanes onto the lower, the upper
// pair onto the lower, and the last two.
func sincDotLanes(c, w []float32) float32 {
	K := len(c)
	var s [8]float32
	for l := range s {
		var a0, a1 float32
		k := l
		for ; k+8 < K; k += 16 {
			a0 += float32(c[k] * w[k])
			a1 += float32(c[k+8] * w[k+8])
		}
		if k < K {
			a0 += float32(c[k] * w[k])
		}
		s[l] = a0 + a1
	}
	var h [4]float32
	for l := range h {
		h[l] = s[l] + s[l+4]
	}
	return (h[0] + h[2]) + (h[1] + h[3])
}
