package voices

// envelope is a gain that moves linearly, in amplitude, from where it
// was to a target over a number of device frames: the curve of every
// timed fade (Play's fade-in, Fade, FadeBus, StopBus, Pause and Resume).
// Each value is computed from the fade's start and its fraction done,
// not summed step by step, so a long fade does not drift off its line.
// It belongs to the mixer.
//
// A voice on a rate bus counts its envelopes in ticks of its source
// frames instead (ratebus_fade.go), and a done below 0 holds the start.
type envelope struct {
	cur    float32
	start  float32
	target float32
	done   int
	total  int // 0 while the envelope rests at cur
	inv    float64
	unit   int // ticks a frame advances done by; 0 counts device frames
}

// restAt returns an envelope resting at g.
func restAt(g float32) envelope { return envelope{cur: g, start: g, target: g} }

// set starts a move from the current value to target over frames frames
// (at once if frames <= 0).
func (g *envelope) set(target float32, frames int) {
	g.start, g.target, g.done, g.total, g.unit = g.cur, target, 0, 0, 0
	if frames <= 0 {
		g.cur = target
		return
	}
	g.total, g.inv = frames, 1/float64(frames)
}

// left returns the frames until the envelope reaches its target; 0 once
// it rests.
func (g *envelope) left() int {
	if g.unit != 0 {
		return (g.total - g.done + g.unit - 1) / g.unit
	}
	return g.total - g.done
}

// next returns how many frames from here lie on one straight piece of
// the envelope: up to its target, or to the end of its hold (done below
// 0). Counting ticks, a frame may straddle a bend. One past the hold's
// end is a piece of its own. One past the target is not the envelope's:
// next returns 0 before it, and advance(0) ends the envelope there, so
// that what follows the envelope (a stop, a pause's gate) starts inside
// that frame.
func (g *envelope) next() int {
	if g.unit == 0 {
		return g.total - g.done
	}
	if g.done < 0 {
		return max(-g.done/g.unit, 1)
	}
	return (g.total - g.done) / g.unit
}

// advance moves the envelope on by k frames (at most next()).
func (g *envelope) advance(k int) {
	if g.total == 0 {
		return
	}
	if g.unit != 0 {
		k *= g.unit
	}
	g.done += k
	if g.done >= g.total || (k == 0 && g.total-g.done < g.unit) { // advance(0): the next frame is past the target
		g.cur, g.done, g.total, g.unit = g.target, 0, 0, 0
		return
	}
	g.cur = g.line()
}

// line returns the envelope's value at done: its start while it holds.
func (g *envelope) line() float32 {
	if g.done <= 0 {
		return g.start
	}
	return g.start + float32((g.target-g.start)*float32(float64(g.done)*g.inv)) // unfused: the same bits on every CPU
}
