package dsp

import "math"

// limiterLookahead is how far ahead the limiter looks, and so its
// latency: 1.5 ms, 72 frames at 48 kHz. The gain ramps down over this
// window before an over instead of jumping on it.
const limiterLookahead = 0.0015 // seconds

// limiterRelease is the time constant with which the limiter's gain
// returns to unity after an over: long enough that a sustained over is
// turned down smoothly rather than modulated on every peak, short enough
// that the mix recovers within a few beats.
const limiterRelease = 0.05 // seconds

// limiterSnap is how close to unity the recovering gain must come before
// it snaps to exactly 1, from where clean audio passes bit for bit.
const limiterSnap = 1.0 / (1 << 20)

// limiterCeiling is the peak a limited frame is brought to: just under
// full scale (-0.0085 dB), so that no limited sample sits on it.
const limiterCeiling = 1 - 1.0/1024

// Limiter is the output protection: a look-ahead peak limiter. It
// delays the mix by Delay frames (1.5 ms). Where a frame of the mix
// would pass full scale, it brings the gain (both channels alike)
// smoothly down over the look-ahead window before it. So the over
// leaves at limiterCeiling, just under full scale: no sample is clipped
// or pinned at full scale. The gain then holds for the window and
// recovers towards unity with the time constant limiterRelease,
// snapping to it at the end. While every sample lies within full scale
// it does nothing but delay the mix: the samples pass bit for bit, so
// music mastered to -0.1 dBFS plays untouched.
//
// The gain is the mean, over the window, of an envelope. At every frame
// the envelope is at most the gain each frame in the window needs:
// their minimum, held, then released. So at an over's frame every term
// of the mean is at most its gain. It allocates nothing after
// NewLimiter. It belongs to the goroutine that mixes (voices' audio
// goroutine); it is not safe for concurrent use.
type Limiter struct {
	delay []Frame   // the last Delay input frames, a ring: the oldest at dpos
	spare []Frame   // as long as delay: the quiet path's next delay line
	cuts  []float32 // the envelope's reduction, 1 - gain, over the window (Delay+1 frames), a ring: the oldest at wpos
	dpos  int
	wpos  int
	// The gains the window's frames need, as a monotonic queue: a ring
	// of (gain, frame) from qhead, qlen long, the gains rising, so its
	// head is the window's least (hold) and each frame is pushed and
	// popped once. A gain of 1 is never queued.
	qgain []float32
	qat   []int
	qhead int
	qlen  int
	now   int     // frames taken
	hold  float32 // the least gain the window's frames need
	cut   float32 // the envelope's reduction now
	sum   float64 // the sum of cuts
	busy  int     // how many cuts are not 0
	keep  float32 // the share of cut left after one frame of release
	invW  float64 // 1 / the window's frames: a multiply where a divide cost a fifth of a frame
}

// NewLimiter returns a limiter for a stream of rate frames per second.
func NewLimiter(rate int) Limiter {
	d := int(math.Round(limiterLookahead * float64(rate)))
	lim := Limiter{
		delay: make([]Frame, d), spare: make([]Frame, d), cuts: make([]float32, d+1), qgain: make([]float32, d+1), qat: make([]int, d+1),
		hold: 1, keep: float32(math.Exp(-1 / (limiterRelease * float64(rate)))), invW: 1 / float64(d+1),
	}
	return lim
}

// Delay returns the limiter's latency in frames: the look-ahead.
func (lim *Limiter) Delay() int { return len(lim.delay) }

// Run applies the master gain, ramping from g by dg before each frame, and
// the limiter to mix, in place: mix comes out Delay frames late. At unity
// gain with nothing to limit in the block or the window, the frames only
// pass through the delay line. Magnitudes are compared as bits (for
// floats of one sign the bits order as the values do): the mix is
// finite, every source being clamped.
func (lim *Limiter) Run(mix []Frame, g, dg float32) {
	if lim.hold == 1 && lim.busy == 0 && g == 1 && dg == 0 && quiet(mix) {
		// The window needs no gain (the queue is empty, cuts all zeros,
		// and stay so): the block only passes the delay.
		d, pos := len(lim.delay), lim.dpos
		if n := len(mix); n >= d {
			// Three moves rather than a swap a frame: the block's last d
			// frames become the delay line, the rest move d later, and
			// the delay line (oldest first) fills the gap.
			copy(lim.spare, mix[n-d:])
			copy(mix[d:], mix[:n-d])
			k := copy(mix, lim.delay[pos:])
			copy(mix[k:d], lim.delay[:pos])
			lim.delay, lim.spare = lim.spare, lim.delay
			lim.dpos = 0
			return
		}
		for i := range mix {
			mix[i], lim.delay[pos] = lim.delay[pos], mix[i]
			if pos++; pos == d {
				pos = 0
			}
		}
		lim.dpos = pos
		return
	}
	lim.runLoud(mix, g, dg)
}

// runLoud is Run's frame-by-frame path: each frame's gain, then its
// step through the window (the queue of the gains the window's frames
// need, the envelope, the mean of its cuts) and the delay line. The
// limiter's state is held in locals for the block and stored back at its
// end: read and written through lim on every frame, it cost the step
// twice its arithmetic. limiter_ref_test.go keeps the step as it was
// written before, one frame a call, and TestLimiterMatchesStep checks
// these bits against it.
func (lim *Limiter) runLoud(mix []Frame, g, dg float32) {
	w := len(lim.cuts)
	cuts, qgain, qat := lim.cuts[:w], lim.qgain[:w], lim.qat[:w]
	delay := lim.delay
	qhead, qlen, now := lim.qhead, lim.qlen, lim.now
	hold, cut, sum, busy := lim.hold, lim.cut, lim.sum, lim.busy
	wpos, dpos := lim.wpos, lim.dpos
	keep, invW := lim.keep, lim.invW
	for i := range mix {
		// Channels as scalars, never a Frame local: the compiler builds
		// one on the stack from two 4-byte stores and reads it back as 8
		// bytes, which the store buffer cannot forward, a stall per frame
		// that was half of this loop's time.
		g += dg
		in0, in1 := mix[i][0]*g, mix[i][1]*g
		// The gain this frame needs, into the window's minimum.
		if qlen > 0 && qat[qhead] <= now-w {
			qlen-- // left the window
			if qhead++; qhead == w {
				qhead = 0
			}
		}
		if a := max(Mag(in0), Mag(in1)); a > one {
			n := limiterCeiling / math.Float32frombits(a)
			j := qhead + qlen // the slot after the tail
			if j >= w {
				j -= w
			}
			for qlen > 0 {
				if j--; j < 0 {
					j = w - 1
				}
				if qgain[j] < n {
					if j++; j == w {
						j = 0
					}
					break
				}
				qlen-- // never the least again while n is in the window
			}
			qgain[j], qat[j] = n, now
			qlen++
		}
		now++
		hold = 1
		if qlen > 0 {
			hold = qgain[qhead]
		}
		wi := wpos
		if wpos++; wpos == w {
			wpos = 0
		}
		// The envelope: the held minimum, or the release from the last frame.
		if c := 1 - hold; c > cut*keep {
			cut = c
		} else if cut *= keep; cut < limiterSnap {
			cut = 0
		}
		old := cuts[wi]
		if old != 0 {
			busy--
		}
		if cut != 0 {
			busy++
		}
		cuts[wi] = cut
		gain := float32(1)
		if busy == 0 {
			sum = 0 // exactly: clean audio passes bit for bit
		} else {
			sum += float64(cut) - float64(old)
			gain = float32(1 - float64(sum*invW)) // unfused: the same bits on every CPU
		}
		dl := &delay[dpos]
		out0, out1 := dl[0], dl[1]
		dl[0], dl[1] = in0, in1
		if dpos++; dpos == len(delay) {
			dpos = 0
		}
		if gain != 1 {
			out0, out1 = clamp1(out0*gain), clamp1(out1*gain)
		}
		mix[i][0], mix[i][1] = out0, out1
	}
	lim.qhead, lim.qlen, lim.now = qhead, qlen, now
	lim.hold, lim.cut, lim.sum, lim.busy = hold, cut, sum, busy
	lim.wpos, lim.dpos = wpos, dpos
}

// quiet reports whether every sample of mix lies within full scale.
func quiet(mix []Frame) bool {
	for _, f := range mix {
		if Mag(f[0]) > one || Mag(f[1]) > one {
			return false
		}
	}
	return true
}

// one is 1.0's bits, the largest magnitude the limiter lets through.
const one = 0x3f800000

// Mag returns the bits of |x|. For floats of one sign the bits order as
// the values do, and a NaN's lie above every number's: unsigned
// compares of magnitudes, without the branches of Go's float max.
func Mag(x float32) uint32 { return math.Float32bits(x) &^ (1 << 31) }

// Peak returns the largest magnitude in buf, or a NaN if it holds one:
// the maximum Go's float max gives, from four chains of unsigned maxima
// of the magnitudes' bits (Mag). voices meters every bus with it each
// block, where the float max cost a fifth of the default mix.
func Peak(buf []Frame) float32 {
	var a, b, c, d uint32
	i := 0
	for ; i+2 <= len(buf); i += 2 {
		// Indexed in place, not copied: a Frame copy goes through the
		// stack.
		f := buf[i : i+2 : i+2]
		a = max(a, Mag(f[0][0]))
		b = max(b, Mag(f[0][1]))
		c = max(c, Mag(f[1][0]))
		d = max(d, Mag(f[1][1]))
	}
	if i < len(buf) {
		a = max(a, Mag(buf[i][0]))
		b = max(b, Mag(buf[i][1]))
	}
	return math.Float32frombits(max(a, b, c, d))
}

// clamp1 limits a finite x to [-1, 1]: only rounding can leave a limited
// peak a hair past the ceiling.
func clamp1(x float32) float32 {
	if x > 1 {
		return 1
	}
	if x < -1 {
		return -1
	}
	return x
}
