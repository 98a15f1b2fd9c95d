package dsp

import "math"

// limiterRelease is the time constant with which the limiter's gain
// returns to unity after an over: long enough that a sustained over is
// turned down smoothly rather than clipped on every peak, short enough
// that the mix recovers within a few beats.
const limiterRelease = 0.05 // seconds

// limiterSnap is how close to unity the recovering gain must come before
// it snaps to exactly 1, from where clean audio passes bit for bit.
const limiterSnap = 1.0 / (1 << 20)

// Limiter is the output protection: a look-ahead-free peak limiter with a
// hard knee at 0 dBFS. It does nothing, bit for bit, while every sample
// of the mix lies within full scale; a frame that would pass full scale
// sets the gain (both channels alike) so that its larger sample lands on
// full scale exactly (an instant attack: with no look-ahead, the over
// never reaches the device), and the gain then recovers towards unity
// with the time constant limiterRelease, snapping to it at the end. So a
// single over is clipped to full scale without the distortion of a hard
// clip on the peaks that follow it, and music mastered to -0.1 dBFS plays
// untouched, where the former soft clip bent everything above -2.5 dBFS.
// It allocates nothing and keeps one float of state. It belongs to the
// goroutine that mixes (voices' audio goroutine); it is not safe for
// concurrent use.
type Limiter struct {
	// cut is the gain reduction now, 1 - gain: 0, or decaying after an
	// over. The recovery decays it rather than step the gain towards 1,
	// which in float32 would stall about 1e-4 short of unity, once a step
	// fell below half an ulp of 1.
	cut  float32
	keep float32 // the share of cut left after one frame
}

// NewLimiter returns a limiter for a stream of rate frames per second.
func NewLimiter(rate int) Limiter {
	return Limiter{keep: float32(math.Exp(-1 / (limiterRelease * float64(rate))))}
}

// Run applies the master gain, ramping from g by dg before each frame, and
// the limiter to mix, in place. The gain reduction stays in a register
// across the block: kept in the limiter's field, as when each frame
// called a limiting method, every frame of a recovering gain waited on a
// store and a load of it. Magnitudes are compared as bits (for floats of
// one sign the bits order as the values do), and clamps are plain
// compares rather than min and max, whose NaN and signed-zero rules cost
// a dozen instructions each: the mix is finite, every source being
// clamped. At unity gain with nothing to limit, the frames are only
// scanned.
func (lim *Limiter) Run(mix []Frame, g, dg float32) {
	i, cut, keep := 0, lim.cut, lim.keep
	if cut == 0 && g == 1 && dg == 0 {
		for i < len(mix) && mag(mix[i][0]) <= one && mag(mix[i][1]) <= one {
			i++
		}
	}
	for ; i < len(mix); i++ {
		g += dg
		l, r := mix[i][0]*g, mix[i][1]*g
		ml, mr := mag(l), mag(r)
		if cut == 0 && ml <= one && mr <= one {
			mix[i] = Frame{l, r}
			continue
		}
		gain := 1 - cut
		if p := math.Float32frombits(max(ml, mr)) * gain; p > 1 {
			gain /= p
			cut = 1 - gain
		}
		mix[i] = Frame{clamp1(l * gain), clamp1(r * gain)}
		if cut *= keep; cut < limiterSnap {
			cut = 0
		}
	}
	lim.cut = cut
}

// one is 1.0's bits, the largest magnitude the limiter lets through.
const one = 0x3f800000

// mag returns the bits of |x|.
func mag(x float32) uint32 { return math.Float32bits(x) &^ (1 << 31) }

// clamp1 limits a finite x to [-1, 1]: only rounding can leave a limited
// peak a hair past full scale.
func clamp1(x float32) float32 {
	if x > 1 {
		return 1
	}
	if x < -1 {
		return -1
	}
	return x
}
