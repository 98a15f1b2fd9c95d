package voices

// envelope is a gain that moves linearly, in amplitude, from where it
// was to a target over a number of device frames: the curve of every
// timed fade (Play's fade-in, Fade, FadeBus, StopBus, Pause and Resume).
// Each value is computed from the fade's start and its fraction done,
// not summed step by step, so a long fade does not drift off its line.
// It belongs to the mixer.
type envelope struct {
	cur    float32
	start  float32
	target float32
	done   int
	total  int // 0 while the envelope rests at cur
	inv    float64
}

// restAt returns an envelope resting at g.
func restAt(g float32) envelope { return envelope{cur: g, start: g, target: g} }

// set starts a move from the current value to target over frames frames
// (at once if frames <= 0).
func (g *envelope) set(target float32, frames int) {
	g.start, g.target, g.done, g.total = g.cur, target, 0, 0
	if frames <= 0 {
		g.cur = target
		return
	}
	g.total, g.inv = frames, 1/float64(frames)
}

// left returns the frames until the envelope reaches its target; 0 once
// it rests.
func (g *envelope) left() int { return g.total - g.done }

// advance moves the envelope on by k frames (at most left()).
func (g *envelope) advance(k int) {
	if g.total == 0 {
		return
	}
	g.done += k
	if g.done >= g.total {
		g.cur, g.done, g.total = g.target, 0, 0
		return
	}
	g.cur = g.start + float32((g.target-g.start)*float32(float64(g.done)*g.inv)) // unfused: the same bits on every CPU
}
