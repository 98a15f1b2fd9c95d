package dsp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The limiter's loud path as it was written before runLoud held its
// state in locals: Run's loop over step, a frame a call. It is the
// reference runLoud's bits are checked against.

// runRef is Run with the loud path of stepRef.
func (lim *Limiter) runRef(mix []Frame, g, dg float32) {
	if lim.hold == 1 && lim.busy == 0 && g == 1 && dg == 0 && quiet(mix) {
		lim.Run(mix, g, dg) // the quiet path, unchanged
		return
	}
	for i := range mix {
		g += dg
		in := Frame{mix[i][0] * g, mix[i][1] * g}
		mix[i] = lim.stepRef(in)
	}
}

// stepRef takes one input frame and returns the frame Delay frames earlier,
// limited.
func (lim *Limiter) stepRef(in Frame) Frame {
	w := len(lim.cuts)
	// The gain this frame needs, into the window's minimum.
	if lim.qlen > 0 && lim.qat[lim.qhead] <= lim.now-w {
		lim.qlen-- // left the window
		if lim.qhead++; lim.qhead == w {
			lim.qhead = 0
		}
	}
	if a := max(Mag(in[0]), Mag(in[1])); a > one {
		n := limiterCeiling / math.Float32frombits(a)
		i := lim.qhead + lim.qlen // the slot after the tail
		if i >= w {
			i -= w
		}
		for lim.qlen > 0 {
			if i--; i < 0 {
				i = w - 1
			}
			if lim.qgain[i] < n {
				if i++; i == w {
					i = 0
				}
				break
			}
			lim.qlen-- // never the least again while n is in the window
		}
		lim.qgain[i], lim.qat[i] = n, lim.now
		lim.qlen++
	}
	lim.now++
	lim.hold = 1
	if lim.qlen > 0 {
		lim.hold = lim.qgain[lim.qhead]
	}
	wi := lim.wpos
	if lim.wpos++; lim.wpos == w {
		lim.wpos = 0
	}
	// The envelope: the held minimum, or the release from the last frame.
	if c := 1 - lim.hold; c > lim.cut*lim.keep {
		lim.cut = c
	} else if lim.cut *= lim.keep; lim.cut < limiterSnap {
		lim.cut = 0
	}
	old := lim.cuts[wi]
	if old != 0 {
		lim.busy--
	}
	if lim.cut != 0 {
		lim.busy++
	}
	lim.cuts[wi] = lim.cut
	gain := float32(1)
	if lim.busy == 0 {
		lim.sum = 0 // exactly: clean audio passes bit for bit
	} else {
		lim.sum += float64(lim.cut) - float64(old)
		gain = float32(1 - float64(lim.sum*lim.invW)) // unfused: the same bits on every CPU
	}
	out := lim.delay[lim.dpos]
	lim.delay[lim.dpos] = in
	if lim.dpos++; lim.dpos == len(lim.delay) {
		lim.dpos = 0
	}
	if gain == 1 {
		return out
	}
	return Frame{clamp1(out[0] * gain), clamp1(out[1] * gain)}
}

// TestLimiterMatchesStep runs two limiters over the same bursts of noise,
// quiet to 40 dB over, in blocks of random lengths under random gain
// ramps, one through Run and one through runRef: every output frame,
// and the state after each block, must be the same bits.
func TestLimiterMatchesStep(t *testing.T) {
	for _, rate := range []int{8000, 44100, 48000, 192000} {
		a, b := NewLimiter(rate), NewLimiter(rate)
		rng := rand.New(rand.NewPCG(uint64(rate), 3))
		level := float32(0.5)
		for blk := range 3000 {
			n := 1 + rng.IntN(300)
			x := make([]Frame, n)
			for i := range x {
				if rng.IntN(60) == 0 {
					level = float32(math.Pow(10, rng.Float64()*2.3-0.6)) // 0.25 to 50
				}
				x[i] = Frame{level * float32(rng.NormFloat64()), level * float32(rng.NormFloat64())}
			}
			g, dg := float32(1), float32(0)
			if rng.IntN(4) == 0 {
				g, dg = float32(rng.Float64()*2), float32(rng.Float64()-0.5)/float32(n)
			}
			y := append([]Frame(nil), x...)
			a.Run(x, g, dg)
			b.runRef(y, g, dg)
			for i := range x {
				if math.Float32bits(x[i][0]) != math.Float32bits(y[i][0]) || math.Float32bits(x[i][1]) != math.Float32bits(y[i][1]) {
					t.Fatalf("%d Hz, block %d, frame %d: Run %v, the per-frame step %v", rate, blk, i, x[i], y[i])
				}
			}
			if a.qhead != b.qhead || a.qlen != b.qlen || a.now != b.now || a.hold != b.hold || a.cut != b.cut || a.sum != b.sum || a.busy != b.busy || a.wpos != b.wpos || a.dpos != b.dpos {
				t.Fatalf("%d Hz, block %d: state differs after the block", rate, blk)
			}
		}
	}
}
