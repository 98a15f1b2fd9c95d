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
			sl = t.atMono(l, p)
			sr = sl
		} else {
			sl, sr = t.at(l, r, p)
		}
		out[i][0] += float32(sl * gl)
		out[i][1] += float32(sr * gr)
		p += steps[i]
	}
	return p
}
