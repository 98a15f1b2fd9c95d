package voices

import "github.com/steadyframe/steadyframe/voices/internal/dsp"

// A rateBus resamples the voices of one source rate together. Voices at
// pitch 1 with the band-limited resampler share it: each is scaled,
// panned and summed at the source rate, as a unity-rate voice is on the
// device bus, and the sum is filtered once. So the sinc costs one
// stereo filter per source rate, not one per voice: 2 rather than 21 in
// BenchmarkMix32's load.
//
// The bus keeps the frames its filter still needs as history, in its
// planes, from the next output's window start. A voice joins the bus at
// the whole source frame nearest the block's first output (that
// output's exact position lies between two source frames): its start is
// quantised to the source rate's grid, at most half a source frame early
// or late (11.3 µs at 44.1 kHz, 22.7 µs at 22.05 kHz, 62.5 µs at 8 kHz).
// A voice joining an idle bus starts exactly on the block, as it does
// alone. Summed frames hold no reference to the clip: a one-shot voice
// ends, and its memory is free, as soon as its last frame is summed, and
// the bus plays the filter's tail from its history.
//
// A rateBus belongs to the mixer (the barrier holder), like its voices.
type rateBus struct {
	table  *dsp.SincTable
	kern   *dsp.Kernels
	planes *dsp.Planes // the history, from the next output's window start
	bus    []frame     // the block's new source frames, summed
	have   int         // frames of history in planes
	seq    uint32      // the next output's row of table
	silent int         // source frames summed since the last voice left
	live   bool        // the history may hold sound: the bus must filter
}

// newRateBus returns the bus for sources of rate src on a device of rate
// dev rendering blocks of block frames.
func newRateBus(src, dev, block int, kern *dsp.Kernels) *rateBus {
	t := dsp.TableFor(src, dev)
	return &rateBus{table: t, kern: kern, planes: dsp.NewPlanes(), bus: make([]frame, rateBusFrames(src, dev, block, t))}
}

// rateBusFrames is the most source frames one block of a bus sums: the
// span of the block's windows, a window more than the block's frames at
// the source rate.
func rateBusFrames(src, dev, block int, t *dsp.SincTable) int {
	return (block*src+dev-1)/dev + t.Taps() + 2
}

// render adds the bus's next len(mix) device frames into mix: it sums the
// frames its voices add to the history (a voice that joined this block
// from its start frame on, into history already summed), then filters
// the history a plane at a time.
func (b *rateBus) render(m *mixer, mix []frame) {
	t := b.table
	voices, joining := false, false
	for _, s := range m.active {
		if v := &m.voices[s]; v.bus == b && !v.ended {
			voices, joining = true, joining || v.joining
		}
	}
	if !voices && !b.live {
		return
	}
	if !b.live {
		// An idle bus has no history and no phase to keep: a voice
		// joining it starts exactly on the block.
		b.have, b.seq, b.silent, b.live = 0, 0, 0, true
	}
	last, _ := t.Advance(0, b.seq, len(mix)-1)
	need := last + t.Taps() // frames the block's windows read, from the first one's start
	join := t.Half()        // the first output's frame
	if num, den := t.Fraction(b.seq); 2*num > den {
		join++
	}
	lo := b.have
	if joining {
		lo = min(lo, join)
	}
	bus := b.bus[:need-lo]
	clear(bus)
	for _, s := range m.active {
		v := &m.voices[s]
		if v.bus != b || v.ended {
			continue
		}
		from := b.have
		if v.joining {
			from, v.joining = join, false
		}
		tl, tr := m.gains(v)
		v.render(bus[from-lo:], m.srcScratch, tl, tr)
	}
	if voices {
		b.silent = 0
	} else {
		b.silent += need - b.have
	}
	l, r := b.planes.Window(dsp.PlaneFrames)
	for j := lo; j < b.have; j++ {
		l[j] += bus[j-lo][0]
		r[j] += bus[j-lo][1]
	}
	k, seq, have := 0, b.seq, b.have // k: the plane's first frame, from the block's first window start
	for out := mix; len(out) > 0; {
		c := min(len(out), t.OutputsUpTo(0, seq, dsp.PlaneFrames-t.Taps()))
		lc, lseq := t.Advance(0, seq, c-1)
		span := lc + t.Taps()
		src := bus[k+have-lo : k+span-lo]
		dl, dr := l[have:span], r[have:span]
		dr = dr[:len(dl)]
		for j, f := range src[:len(dl)] {
			dl[j], dr[j] = f[0], f[1]
		}
		b.kern.Filter(true, out[:c], l[:span], r[:span], t, seq, 1, 1)
		adv, next := t.Step1(lc, lseq)
		copy(l, l[adv:span])
		copy(r, r[adv:span])
		have, k, seq, out = span-adv, k+adv, next, out[c:]
	}
	b.have, b.seq = have, seq
	if b.silent >= t.Taps() {
		b.live = false // every frame of the history is silent
	}
}

// reset drops the bus's history: StopAll's fallback, which cuts every
// voice at once.
func (b *rateBus) reset() { b.live = false }
