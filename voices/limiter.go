package voices

import "math"

// limiterRelease is the time constant with which the limiter's gain
// returns to unity after an over: long enough that a sustained over is
// turned down smoothly rather than clipped on every peak, short enough
// that the mix recovers within a few beats.
const limiterRelease = 0.05 // seconds

// limiterSnap is how close to unity the recovering gain must come before
// it snaps to exactly 1, from where clean audio passes bit for bit.
const limiterSnap = 1.0 / (1 << 20)

// limiter is the output protection: a look-ahead-free peak limiter with a
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
// audio goroutine.
type limiter struct {
	// cut is the gain reduction now, 1 - gain: 0, or decaying after an
	// over. The recovery decays it rather than step the gain towards 1,
	// which in float32 would stall about 1e-4 short of unity, once a step
	// fell below half an ulp of 1.
	cut  float32
	keep float32 // the share of cut left after one frame
}

func newLimiter(rate int) limiter {
	return limiter{keep: float32(math.Exp(-1 / (limiterRelease * float64(rate))))}
}

func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

// apply returns the frame (l, r) limited. The common case, unity gain and
// no over, is a few compares that inline into the encoder.
func (lim *limiter) apply(l, r float32) (float32, float32) {
	if lim.cut == 0 && abs32(l) <= 1 && abs32(r) <= 1 {
		return l, r
	}
	return lim.slow(l, r)
}

func (lim *limiter) slow(l, r float32) (float32, float32) {
	g := 1 - lim.cut
	if p := max(abs32(l), abs32(r)) * g; p > 1 {
		g /= p
		lim.cut = 1 - g
	}
	// The mix is finite (every source is clamped), so only rounding can
	// leave the limited peak a hair past full scale.
	l, r = min(max(l*g, -1), 1), min(max(r*g, -1), 1)
	if lim.cut *= lim.keep; lim.cut < limiterSnap {
		lim.cut = 0
	}
	return l, r
}
