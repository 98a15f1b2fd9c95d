package dsp

import "sync"

// pitchSteps are the ratios a PitchBank has a filter for, within each
// octave: 1, 1.25, 1.5 and 1.75 times a power of two. Each is exact in
// binary, so choosing a filter compares integers and is the same on
// every CPU.
var pitchSteps = [4]float64{1, 1.25, 1.5, 1.75}

// maxPitchOctaves bounds a PitchBank's ratios: 2^7 source frames per
// output frame, past the most any engine needs (192 kHz at pitch 4 on an
// 8 kHz device is 96).
const maxPitchOctaves = 7

// A PitchBank holds the filters of pitched voices: one Interp per ratio
// of pitchSteps up to the engine's largest, each with its cutoff lowered
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
	t  [4 * maxPitchOctaves]*Interp
}

// PitchBankUpTo returns the bank with filters up to the least ratio at or
// above maxStep (source frames per output frame, 32.32), building the
// ones no earlier engine built. From 96 kHz at pitch 4 on a 48 kHz
// device (ratio 8) that is 13 filters, 4.6 MB.
func PitchBankUpTo(maxStep uint64) *PitchBank {
	pitchTabs.mu.Lock()
	defer pitchTabs.mu.Unlock()
	b := &PitchBank{}
	for i := range pitchTabs.t {
		r := pitchSteps[i%4] * float64(uint64(1)<<(i/4))
		if pitchTabs.t[i] == nil {
			pitchTabs.t[i] = newInterp(r)
		}
		lim := uint64(r * FracOne)
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

// FilterSteps is Filter with a step per output: output i lies at p, and
// the position then moves on by steps[i]. out and steps have the same
// length. A mono source (l and r equal, as Decode writes it) sums one
// plane, to the same bits. It returns the position after the last
// output.
func (t *Interp) FilterSteps(out []Frame, l, r []float32, mono bool, p uint64, steps []uint64, gl, gr float32) uint64 {
	steps = steps[:len(out)]
	for i := range out {
		var sl, sr float32
		if mono {
			sl = t.dot4(l, p)
			sr = sl
		} else {
			sl, sr = t.dot4(l, p), t.dot4(r, p)
		}
		out[i][0] += float32(sl * gl)
		out[i][1] += float32(sr * gr)
		p += steps[i]
	}
	return p
}

// dot4 returns the filter's output from plane x at the 32.32 position p,
// counted from x[0]: Filter's sum, in four running sums (taps k, k+4,
// k+8... each), added pairwise at the end. Four chains keep the adder
// busy where one would wait on each sum; the order is fixed, so the bits
// are the same on every CPU (they differ from Filter's in the last
// place).
func (t *Interp) dot4(x []float32, p uint64) float32 {
	K := t.taps
	j := int(p >> 32)
	f := uint32(p)
	ph := int(f >> (32 - interpBits))
	w := float32(f<<interpBits) * (1.0 / (1 << 32)) // between rows ph and ph+1
	c0 := t.coef[ph*K : ph*K+K : ph*K+K]
	c1 := t.coef[(ph+1)*K : (ph+2)*K : (ph+2)*K]
	wx := x[j : j+K : j+K]
	c1, wx = c1[:len(c0)], wx[:len(c0)]
	var s0, s1, s2, s3 float32
	for k := 0; k+4 <= len(c0); k += 4 {
		a, b, c := c0[k:k+4:k+4], c1[k:k+4:k+4], wx[k:k+4:k+4]
		s0 += float32((a[0] + float32(w*float32(b[0]-a[0]))) * c[0])
		s1 += float32((a[1] + float32(w*float32(b[1]-a[1]))) * c[1])
		s2 += float32((a[2] + float32(w*float32(b[2]-a[2]))) * c[2])
		s3 += float32((a[3] + float32(w*float32(b[3]-a[3]))) * c[3])
	}
	return float32(s0+s1) + float32(s2+s3)
}
