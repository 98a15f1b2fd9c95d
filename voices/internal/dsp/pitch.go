package dsp

import (
	"fmt"
	"sync"
)

// pitchRungs are the ratios a PitchBank has a filter for, as fractions:
// 1, 7/6, 5/4, 3/2 and 7/4 in the first octave, then 1, 5/4, 3/2 and 7/4
// times a power of two. 7/6 is the 48-tap filter stretched to 56 taps:
// a pitch a little above 1 is the commonest, and the next rung costs 64.
// A rung's limit is its ratio in 32.32, floored: choosing a filter
// compares integers, the same on every CPU.
var pitchRungs = func() (rs [][2]uint64) {
	rs = append(rs, [2]uint64{1, 1}, [2]uint64{7, 6})
	for o := range uint64(maxPitchOctaves) {
		for _, q := range [][2]uint64{{5, 4}, {3, 2}, {7, 4}, {2, 1}} {
			rs = append(rs, [2]uint64{q[0] << o, q[1]})
		}
	}
	return rs
}()

// maxPitchOctaves bounds a PitchBank's ratios: 2^7 source frames per
// output frame, past the most any engine needs (192 kHz at pitch 4 on an
// 8 kHz device is 96).
const maxPitchOctaves = 7

// A PitchBank holds the filters of pitched voices: one Interp per ratio
// of pitchRungs up to the engine's largest, each with its cutoff lowered
// by that ratio. A voice filters with the least ratio at or above its
// own, so its cutoff is at most 20% below the output's Nyquist frequency
// and never above it: nothing aliases. Below ratio 1 (upsampling) the
// ratio-1 filter serves. A PitchBank is immutable, its Interps shared by
// every engine of the process; it is read by the audio goroutine.
type PitchBank struct {
	limits []uint64 // each filter's ratio, 32.32
	tabs   []*Interp
}

var pitchTabs struct {
	mu sync.Mutex
	t  [2 + 4*maxPitchOctaves]*Interp
}

// PitchBankUpTo returns the bank with filters up to the least ratio at or
// above maxStep (source frames per output frame, 32.32), building the
// ones no earlier engine built. From 96 kHz at pitch 4 on a 48 kHz
// device (ratio 8) that is 14 filters, 4.7 MB.
func PitchBankUpTo(maxStep uint64) *PitchBank {
	pitchTabs.mu.Lock()
	defer pitchTabs.mu.Unlock()
	b := &PitchBank{}
	for i, q := range pitchRungs {
		if pitchTabs.t[i] == nil {
			// The taps in integers: sincTaps·q rounded up to a multiple of 8.
			K := int((sincTaps*q[0] + 8*q[1] - 1) / (8 * q[1]) * 8)
			pitchTabs.t[i] = newInterpTaps(float64(q[0])/float64(q[1]), K)
		}
		lim := q[0] << 32 / q[1]
		b.limits = append(b.limits, lim)
		b.tabs = append(b.tabs, pitchTabs.t[i])
		if lim >= maxStep {
			break
		}
	}
	return b
}

// For returns the filter for a step of step source frames per output
// frame (32.32): the least ratio at or above it, or the bank's largest.
func (b *PitchBank) For(step uint64) *Interp {
	for i, lim := range b.limits {
		if step <= lim {
			return b.tabs[i]
		}
	}
	return b.tabs[len(b.tabs)-1]
}

// MaxTaps returns the longest filter's length in source frames.
func (b *PitchBank) MaxTaps() int { return b.tabs[len(b.tabs)-1].taps }

// FilterSteps adds len(out) outputs of the pitched filter t, from the
// planes l and r, times the gains gl and gr, into out. Output i lies at
// the 32.32 position p, counted from l[0]; the position then moves on by
// steps[i]. out and steps have the same length. A mono source reads l
// alone. l and r must hold every frame the windows read. It returns the
// position after the last output. Every kernel set gives the bits of the
// scalar one.
func (ks *Kernels) FilterSteps(t *Interp, out []Frame, l, r []float32, mono bool, p uint64, steps []uint64, gl, gr float32) uint64 {
	return ks.pitch(t, out, l, r, mono, p, steps, gl, gr)
}

// S16Scale is what Split leaves to the gains of a 16-bit source: its
// samples are converted unscaled, and scaling by a power of two is exact.
const S16Scale = s16Scale

// Split converts len(l) frames of the source run of kind k into the
// planes l and r, which must not overlap; r is unused for mono. 16-bit
// samples stay unscaled (S16Scale is their scale). Floats are clamped to
// [-1, 1] with NaN read as 0, as Decode reads them.
func (ks *Kernels) Split(k Kind, l, r []float32, run []byte) { ks.split(k, l, r, run) }

// pitchFilter is Kernels.FilterSteps: a scalar loop, or a wrapper of an
// assembly kernel.
type pitchFilter func(t *Interp, out []Frame, l, r []float32, mono bool, p uint64, steps []uint64, gl, gr float32) uint64

// pitchOverrun panics for a vector FilterSteps whose kernel stopped at
// a window past the planes l and r: the caller's broken invariant.
func pitchOverrun(t *Interp, l, r []float32) {
	panic(fmt.Sprintf("dsp: FilterSteps: a window of %d taps starts past the planes' %d frames", t.taps, min(len(l), len(r))))
}

// filterStepsScalar is the reference pitched filter.
func filterStepsScalar(t *Interp, out []Frame, l, r []float32, mono bool, p uint64, steps []uint64, gl, gr float32) uint64 {
	steps = steps[:len(out)]
	for i := range out {
		c0, c1, w, j := t.rows(p)
		K := len(c0)
		sl := pitchDot(c0, c1, w, l[j:j+K:j+K])
		sr := sl
		if !mono {
			sr = pitchDot(c0, c1, w, r[j:j+K:j+K])
		}
		out[i][0] += float32(sl * gl)
		out[i][1] += float32(sr * gr)
		p += steps[i]
	}
	return p
}

// rows returns the two rows of coefficients around the 32.32 position
// p, the weight w of the second, and the window's first frame: p's
// whole part.
func (t *Interp) rows(p uint64) (c0, c1 []float32, w float32, j int) {
	K := t.taps
	f := uint32(p)
	i := int(f>>(32-interpBits)) * K
	w = float32(f<<interpBits) * (1.0 / (1 << 32)) // between rows ph and ph+1
	return t.coef[i : i+K : i+K], t.coef[i+K : i+2*K : i+2*K], w, int(p >> 32)
}

// pitchDot returns the filter's output from the window x, its
// coefficients interpolated between rows a and b by w: the sum of
// (a + w·(b-a))·x over the taps, tap k added into the (k mod 16)-th of
// sixteen running sums, in order of k. Then lanes l and l+8 are added,
// l and l+4, l and l+2, and the last two: the vector kernels' order
// (asmgen's pitch.go), so their bits are these on every CPU. Sixteen
// chains also keep the adder busy where one would wait on each sum.
func pitchDot(a, b []float32, w float32, x []float32) float32 {
	b, x = b[:len(a)], x[:len(a)]
	// Sixteen locals, not an array: Go keeps an array of more than four
	// in memory, a load and a store around every add.
	var s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15 float32
	k := 0
	for ; k+16 <= len(a); k += 16 {
		a, b, v := a[k:k+16:k+16], b[k:k+16:k+16], x[k:k+16:k+16]
		s0 += float32((a[0] + float32(w*float32(b[0]-a[0]))) * v[0])
		s1 += float32((a[1] + float32(w*float32(b[1]-a[1]))) * v[1])
		s2 += float32((a[2] + float32(w*float32(b[2]-a[2]))) * v[2])
		s3 += float32((a[3] + float32(w*float32(b[3]-a[3]))) * v[3])
		s4 += float32((a[4] + float32(w*float32(b[4]-a[4]))) * v[4])
		s5 += float32((a[5] + float32(w*float32(b[5]-a[5]))) * v[5])
		s6 += float32((a[6] + float32(w*float32(b[6]-a[6]))) * v[6])
		s7 += float32((a[7] + float32(w*float32(b[7]-a[7]))) * v[7])
		s8 += float32((a[8] + float32(w*float32(b[8]-a[8]))) * v[8])
		s9 += float32((a[9] + float32(w*float32(b[9]-a[9]))) * v[9])
		s10 += float32((a[10] + float32(w*float32(b[10]-a[10]))) * v[10])
		s11 += float32((a[11] + float32(w*float32(b[11]-a[11]))) * v[11])
		s12 += float32((a[12] + float32(w*float32(b[12]-a[12]))) * v[12])
		s13 += float32((a[13] + float32(w*float32(b[13]-a[13]))) * v[13])
		s14 += float32((a[14] + float32(w*float32(b[14]-a[14]))) * v[14])
		s15 += float32((a[15] + float32(w*float32(b[15]-a[15]))) * v[15])
	}
	if k < len(a) { // the last eight taps, into lanes 0-7
		a, b, v := a[k:k+8:k+8], b[k:k+8:k+8], x[k:k+8:k+8]
		s0 += float32((a[0] + float32(w*float32(b[0]-a[0]))) * v[0])
		s1 += float32((a[1] + float32(w*float32(b[1]-a[1]))) * v[1])
		s2 += float32((a[2] + float32(w*float32(b[2]-a[2]))) * v[2])
		s3 += float32((a[3] + float32(w*float32(b[3]-a[3]))) * v[3])
		s4 += float32((a[4] + float32(w*float32(b[4]-a[4]))) * v[4])
		s5 += float32((a[5] + float32(w*float32(b[5]-a[5]))) * v[5])
		s6 += float32((a[6] + float32(w*float32(b[6]-a[6]))) * v[6])
		s7 += float32((a[7] + float32(w*float32(b[7]-a[7]))) * v[7])
	}
	h0, h1, h2, h3 := s0+s8, s1+s9, s2+s10, s3+s11
	h4, h5, h6, h7 := s4+s12, s5+s13, s6+s14, s7+s15
	return ((h0 + h4) + (h2 + h6)) + ((h1 + h5) + (h3 + h7))
}
