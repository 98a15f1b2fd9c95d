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
// The filter is the rates' SincTable, at exact rational phases, where
// one exists (dsp.Exact); the other rates (44101 Hz...) take a
// dsp.Interp, at 32.32 positions.
//
// A rateBus belongs to the mixer (the barrier holder), like its voices.
type rateBus struct {
	table  *dsp.SincTable // or nil, with interp set
	interp *dsp.Interp
	step   uint64 // with interp, source frames per device frame, 32.32
	kern   *dsp.Kernels
	planes *dsp.Planes // the history, from the next output's window start
	bus    []frame     // the block's new source frames, summed
	// members are the slots of the voices the bus mixes this block, in
	// mix order: the mixer's one pass over its voices sorts them by bus,
	// and render empties the list.
	members []uint32
	joins   bool // a member has not been summed yet: it joins this block
	taps    int
	half    int
	have    int    // frames of history in planes
	seq     uint32 // the next output's row of table
	frac    uint64 // with interp, the next output's position past its window start, 0.32
	silent  int    // source frames summed since the last voice left
	live    bool   // the history may hold sound: the bus must filter

	// group is the engine bus (EngineDesc.Buses) the rate bus mixes into;
	// ri is its index among one group's rate buses; ratio is source frames
	// per device frame, for placing a start inside the block.
	group uint8
	ri    int
	src   int
	ratio float64
}

// newRateBus returns the bus for sources of rate src on a device of rate
// dev rendering blocks of block frames.
func newRateBus(src, dev, block, voices int, kern *dsp.Kernels) *rateBus {
	b := &rateBus{kern: kern, planes: dsp.NewPlanes(), members: make([]uint32, 0, voices), src: src, ratio: float64(src) / float64(dev)}
	if dsp.Exact(src, dev) {
		b.table = dsp.TableFor(src, dev)
		b.taps, b.half = b.table.Taps(), b.table.Half()
	} else {
		b.interp = dsp.InterpFor(src, dev)
		b.step = uint64(src) << 32 / uint64(dev)
		b.taps, b.half = b.interp.Taps(), b.interp.Half()
	}
	// The most source frames one block sums: the span of the block's
	// windows, a window more than the block's frames at the source rate.
	b.bus = make([]frame, (block*src+dev-1)/dev+b.taps+2)
	return b
}

// render adds the bus's next len(mix) device frames into mix: it sums the
// frames its voices add to the history (a voice that joined this block
// from its start frame on, into history already summed), then filters
// the history a plane at a time.
func (b *rateBus) render(m *mixer, mix []frame) {
	voices, joining := len(b.members) > 0, b.joins
	b.joins = false
	if !voices && !b.live {
		return
	}
	if !b.live {
		// An idle bus has no history and no phase to keep: a voice
		// joining it starts exactly on the block.
		b.have, b.seq, b.frac, b.silent, b.live = 0, 0, 0, 0, true
	}
	// need: the frames the block's windows read, from the first one's
	// start; join: the first output's frame, or the next if nearer.
	var need, join int
	if t := b.table; t != nil {
		last, _ := t.Advance(0, b.seq, len(mix)-1)
		need, join = last+b.taps, b.half
		if num, den := t.Fraction(b.seq); 2*num > den {
			join++
		}
	} else {
		need, join = int((b.frac+uint64(len(mix)-1)*b.step)>>32)+b.taps, b.half
		if b.frac >= 1<<31 {
			join++
		}
	}
	lo := b.have
	if joining {
		lo = min(lo, join)
	}
	bus := b.bus[:need-lo]
	clear(bus)
	for _, s := range b.members {
		v := &m.voices[s]
		if m.steady.block { // steadylist.go
			m.sumSteady(b, v, s, bus[b.have-lo:])
			m.x.pos[s].Store(int64(v.pos >> 32))
			continue
		}
		from, joined := b.have, v.joining
		if v.joining {
			// A start inside the block (PlayDesc.At) lands on the source
			// frame nearest its device frame.
			from, v.joining = min(join+int(float64(float64(v.startOff)*b.ratio)+0.5), need), false
			v.startOff = 0
		}
		m.renderMember(b, v, &m.x.v[s], bus[from-lo:], joined) // ratebus_fade.go
		m.x.pos[s].Store(int64(v.pos >> 32))
	}
	b.members = b.members[:0]
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
	k := 0 // the plane's first frame, from the block's first window start
	for out := mix; len(out) > 0; {
		c, span := b.chunk(len(out))
		src := bus[k+b.have-lo : k+span-lo]
		b.kern.Deinterleave(l[b.have:span], r[b.have:span], src)
		adv := b.filter(out[:c], l[:span], r[:span])
		copy(l, l[adv:span])
		copy(r, r[adv:span])
		b.have, k, out = span-adv, k+adv, out[c:]
	}
	if b.silent >= b.taps {
		b.live = false // every frame of the history is silent
	}
}

// add puts slot s on the bus's members for this block; joining says its
// voice has not been summed yet.
func (b *rateBus) add(s uint32, joining bool) {
	b.members = append(b.members, s)
	b.joins = b.joins || joining
}

// chunk returns how many of the next n outputs a plane holds the windows
// of, and the frames those windows read, from the first one's start.
func (b *rateBus) chunk(n int) (c, span int) {
	lastStart := dsp.PlaneFrames - b.taps // the last window start a plane holds
	if t := b.table; t != nil {
		c = min(n, t.OutputsUpTo(0, b.seq, lastStart))
		last, _ := t.Advance(0, b.seq, c-1)
		return c, last + b.taps
	}
	c = min(n, int((uint64(lastStart)<<32|(1<<32-1)-b.frac)/b.step)+1)
	return c, int((b.frac+uint64(c-1)*b.step)>>32) + b.taps
}

// filter adds the outputs out, filtered from the planes' windows l and r,
// into out, moves the bus's position past them and returns the frames it
// advanced: the history before the next output's window start.
func (b *rateBus) filter(out []frame, l, r []float32) int {
	if t := b.table; t != nil {
		b.kern.Filter(true, out, l, r, t, b.seq, 1, 1)
		adv, next := t.Advance(0, b.seq, len(out))
		b.seq = next
		return adv
	}
	p := b.interp.Filter(out, l, r, b.frac, b.step, 1, 1)
	b.frac = p & (1<<32 - 1)
	return int(p >> 32)
}

// reset drops the bus's history: StopAll's fallback, which cuts every
// voice at once.
func (b *rateBus) reset() { b.live = false }
