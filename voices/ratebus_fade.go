package voices

// Timed fades of the voices on a rate bus (issue 18 item 3).
//
// A voice on a rate bus is summed at its source rate, ahead of the
// device frames it is heard at: a block sums the source frames its last
// output's window reaches, taps-half-1 past that output's position. The
// frames summed before stay summed in the bus's history, so a fade set at
// a block's start cannot reach them. Its curve is instead mapped onto the
// source frames the bus sums from then on, frame by frame, and delayed by
// the filter's look-ahead: fadeDelay source frames, a constant. So the
// fade keeps its length and its line, and ends that delay after the
// device frame asked for. A fade that starts with the voice (Play's
// fade-in, or Resume's, whose voice has summed nothing since its pause)
// starts on the voice's first frame instead, as its sound does.
//
// The envelopes then count ticks: a device frame is src ticks and a
// source frame dev ticks, so a fade of n device frames is n×src ticks
// exactly, and each source frame takes the curve's value at the device
// instant it plays at. renderTimed splits the block where a line bends,
// as it does a device-rate voice's. A frame that straddles a fade's end
// already takes what follows it: the target, a stop's fade-out, or a
// pause's gate, which starts at its exact tick.
//
// BenchmarkMix32's voices do not fade: they keep the steady path, one
// test and then voice.render at their gains.

// fadeDelay returns how many source frames after the block's first
// output position a fade set at the block's start begins: taps-half-1,
// the frames a window reads past its position. The frames before it are
// summed already; the first frame after it is not.
func (b *rateBus) fadeDelay() int { return b.taps - b.half - 1 }

// fadeAt returns where a fade set at this block's start stands, in
// ticks, before the first source frame the block sums for a voice
// already playing: below 0 while it waits for fadeDelay. render calls it
// before it sums, while have, seq and frac still describe the block's
// first output.
func (b *rateBus) fadeAt(dev int) int {
	var frac int // the first output's position past its frame, in ticks
	if t := b.table; t != nil {
		num, den := t.Fraction(b.seq)
		frac = int((uint64(num)*uint64(dev) + uint64(den)/2) / uint64(den))
	} else {
		frac = int((b.frac*uint64(dev) + 1<<31) >> 32)
	}
	// The first new frame, b.have, plays (have-half)×dev-frac ticks after
	// the first output; the fade begins fadeDelay×dev ticks after it, and
	// a frame takes the value one device frame (src ticks) on, as a
	// device-rate voice's frame does. On a live bus this is -frac of the
	// last output, in (-dev, 0].
	return (b.have-b.half-b.fadeDelay()-1)*dev - frac + b.src
}

// renderMember sums a rate bus's member voice into dst, its frames of
// the bus from its first new one. A voice whose volume and gate rest
// renders at its steady gains; one with a fade goes through renderTimed,
// which follows the fade frame by frame. joined says that the voice
// joins the bus in this block.
func (m *mixer) renderMember(b *rateBus, v *voice, e *voiceExt, dst []frame, joined bool) {
	if e.vol.total == 0 && e.gate.total == 0 && !e.pausing {
		tl, tr := m.gains(v)
		g := e.gate.cur
		v.render(dst, m.srcScratch, tl*g, tr*g) // the steady path for most members, most blocks
		return
	}
	at := b.src - m.dev.Rate // a fade from the voice's first frame
	if !joined {
		at = b.fadeAt(m.dev.Rate)
	}
	m.renderTimed(v, e, dst, at)
}

// onSource makes the envelopes of v set since it last mixed count its
// rate bus's ticks, standing at at ticks before its next frame. A gate
// that opens from shut (Resume) starts on the next frame: the paused
// voice has summed nothing since it shut.
func (m *mixer) onSource(v *voice, e *voiceExt, at int) {
	src, dev := v.bus.src, m.dev.Rate
	e.vol.toSource(src, dev, at)
	if e.gate.start == 0 {
		at = src - dev
	}
	e.gate.toSource(src, dev, at)
}

// toSource converts a moving envelope counted in device frames to ticks
// of a source rate src on a device rate dev, standing at at ticks before
// the next frame, where it stood at done device frames. One counted in
// ticks already, or at rest, is left as it is.
func (g *envelope) toSource(src, dev, at int) {
	if g.total == 0 || g.unit != 0 {
		return
	}
	g.total *= src
	g.done = min(g.done*src+at, g.total-1)
	g.inv, g.unit = 1/float64(g.total), dev
}

// toDevice converts an envelope counted in ticks of source rate src back
// to device frames: a virtual voice's fades move a block at a time,
// in device frames (advanceMember), and go back on the source frames
// when the voice is real again (onSource).
func (g *envelope) toDevice(src int) {
	if g.total == 0 || g.unit == 0 {
		return
	}
	g.total /= src // a whole number of device frames: toSource multiplied it
	g.done = min(max(g.done, 0)/src, g.total-1)
	g.inv, g.unit = 1/float64(g.total), 0
}
