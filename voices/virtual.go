package voices

import (
	"fmt"
	"math"
	"slices"
	"sync/atomic"
)

// MaxVirtual is the most logical sounds EngineDesc.Virtual may ask for:
// the most one format's slot pool can count.
const MaxVirtual = poolCountMask

// virtSlots bounds the voice slots virtual voices may ask for: each
// costs about 460 bytes, so 2^18 of them cost about 120 MB.
const virtSlots = 1 << 18

// virtHold is how much more audible a virtual sound must be than a real
// one to take its place: about 2 dB, so two sounds of nearly the same
// audibility do not swap back and forth every block.
const virtHold = 1.25

// A sound's mode under virtual voices.
const (
	virtNew  uint8 = iota // started this block, or waiting for its start: not yet ranked
	virtReal              // mixed
	virtOut               // mixed this block while it fades out; virtual from the next
	virtOff               // virtual: advanced in time, not mixed
)

// virtVoice is a logical sound's ranking state, one per slot, owned by
// the mixer like the voice.
type virtVoice struct {
	mode uint8
	// looped is set once a looping sound on a rate bus has wrapped, and
	// last is its position at the last ranking, which shows a wrap while
	// it is real: a swap in subtracts the bus's look-ahead from the
	// position, which may cross the loop's start backwards.
	looped bool
	last   uint32
}

// virtState is the mixer's virtual voices: nil in an engine without
// them, so that a plain engine pays one nil test a block and one per
// voice.
type virtState struct {
	maxReal int32
	realCap []int32   // the real voices' cap, by format index
	used    []int32   // the real voices ranked this block, by format index
	busStep []uint64  // source frames per device frame, 32.32, of a rate bus voice, by format index
	busAud  []float32 // each bus's gain through its parents, this block
	vv      []virtVoice
	keys    []uint64 // the ranking's sort keys, one per sound ranked
	capped  bool     // a format's real cap is under maxReal: the ranking must sort

	real, virtual atomic.Int32
	swaps         atomic.Uint64
	pub           []virtPub // each slot's mode, for Engine.Virtual (virtual_handle.go)
}

// virtualCaps checks EngineDesc.Virtual and turns the engine's caps into
// logical ones: it returns the real voices' caps by format (caps as
// NewEngine resolved them) and sets every format's logical cap to
// Virtual.
func virtualCaps(d *EngineDesc, caps []int, mult int) ([]int32, error) {
	if d.Virtual <= d.MaxVoices || d.Virtual > MaxVirtual {
		return nil, fmt.Errorf("%w: Virtual %d (want 0, or %d..%d: more than MaxVoices)", ErrInvalid, d.Virtual, d.MaxVoices+1, MaxVirtual)
	}
	if n := len(caps) * d.Virtual * mult; n > virtSlots {
		return nil, fmt.Errorf("%w: Virtual %d over %d formats needs %d voice slots (at most %d)", ErrInvalid, d.Virtual, len(caps), n, virtSlots)
	}
	real := make([]int32, len(caps))
	for i, c := range caps {
		real[i], caps[i] = int32(c), d.Virtual
	}
	return real, nil
}

// initVirtual gives the mixer its virtual voices: maxReal voices mixed at
// most (realCap by format), the rest tracked.
func (m *mixer) initVirtual(maxReal int, realCap []int32) {
	w := &virtState{
		maxReal: int32(maxReal), realCap: realCap,
		used:    make([]int32, len(realCap)),
		busStep: make([]uint64, len(realCap)),
		busAud:  make([]float32, len(m.x.buses)),
		vv:      make([]virtVoice, len(m.voices)),
		keys:    make([]uint64, 0, len(m.voices)),
		pub:     make([]virtPub, len(m.voices)),
	}
	for _, c := range realCap {
		w.capped = w.capped || int(c) < maxReal
	}
	for i := range m.slots.pools {
		w.busStep[i] = uint64(m.slots.pools[i].format.Rate) << 32 / uint64(m.dev.Rate)
	}
	m.virt = w
}

// The ranking's sort key packs, from the top: protected, the priority
// (offset to unsigned), the audibility (a non-negative float32's bits
// order as the float does; the lowest 4 dropped) and the sound's place
// in m.active, inverted so that the older of two equal sounds wins.
const (
	keyIdxBits  = 20
	keyIdxMask  = 1<<keyIdxBits - 1
	keyAudShift = keyIdxBits
	keyAudBits  = 27
	keyPrioShft = keyAudShift + keyAudBits
	keyProt     = uint64(1) << 63
)

// rank decides, at the start of a block, which sounds the mixer mixes:
// the protected ones, then by priority, then by audibility, up to the real
// voices' caps. It swaps in the winners that were virtual (from silence,
// over the block) and swaps out the losers that were real (to silence,
// over the block). A sound whose pause or fade is moving within the block
// keeps its mode until it rests, so that every swap ramps over a whole
// block. mixVoices calls it once the buses' pause chains are known.
func (m *mixer) rank() {
	w, x := m.virt, &m.x
	for i := range x.buses {
		b := &x.buses[i]
		g := b.gain.cur * b.gateTo * b.duck
		if b.chain {
			g = 0
		}
		if i > 0 {
			g *= w.busAud[b.cfg.parent]
		}
		w.busAud[i] = g
	}
	clear(w.used)
	var total, real, virtual int32
	nprot := 0
	keys := w.keys[:0]
	end := x.frame + int64(m.block)
	for i, s := range m.active {
		v, e, vv := &m.voices[s], &x.v[s], &w.vv[s]
		if v.bus != nil && v.loop && (vv.mode == virtReal || vv.mode == virtOut) {
			p := uint32(v.pos >> 32)
			vv.looped = vv.looped || p < vv.last
			vv.last = p
		}
		if vv.mode == virtOut {
			vv.mode, v.swapOut = virtOff, false
		}
		if v.ended {
			continue
		}
		if (e.at != 0 || e.later) && e.at >= end {
			continue // waits for its start
		}
		if vv.mode != virtNew && (v.fading || e.gate.total != 0 || e.pausing || (e.vol.total != 0 && e.vol.left() < m.block)) {
			if vv.mode == virtReal {
				total++
				w.used[v.pool.fi]++
				real++
			} else {
				virtual++
			}
			continue
		}
		vol := v.volume
		if e.vol.total != 0 {
			vol = max(vol, e.vol.target) // a fade-in ranks by where it goes
		}
		// The pan gains carry the voice's att3d, its 3D distance × cone
		// attenuation: spatialize folds it in each block, before the
		// ranking. Plain compares rather than max, whose NaN handling cost
		// the loop a fifth (BenchmarkVirtual).
		pan := v.panL
		if v.panR > pan {
			pan = v.panR
		}
		aud := vol * m.formatGain[v.pool.fi] * w.busAud[e.bus] * pan
		if e.paused || e.pausing || !(aud > 0) {
			aud = 0
		}
		if vv.mode == virtReal {
			aud *= virtHold
		}
		k := uint64(math.Float32bits(aud)>>4)<<keyAudShift | uint64(keyIdxMask-i)
		k |= uint64(uint16(v.priority)^0x8000) << keyPrioShft
		// A stream is decoded ahead into its ring, which it consumes as it
		// plays: it cannot skip in time without decoding, so it is always
		// real, as a protected sound is.
		if v.protected || v.clip.stream != nil {
			k |= keyProt
			nprot++
		}
		keys = append(keys, k)
	}
	// The common case needs no sort: when no format cap binds, the
	// places go to the top keys, in any order, and a quickselect finds
	// them in linear time. Only if one of those is silent (a silent sound
	// of high priority) or a format cap could bind is the order needed;
	// with room for every sound and no format cap, it is not either.
	places := int(w.maxReal - total)
	top := max(places, nprot)
	if top < len(keys) {
		selectTop(keys, top)
		if !w.capped && allAudible(keys[len(keys)-top:]) {
			for j, k := range keys {
				m.assign(m.active[keyIdxMask-int(k&keyIdxMask)], j >= len(keys)-top)
			}
			real += int32(top)
			virtual += int32(len(keys) - top)
			w.keys = keys
			w.real.Store(real)
			w.virtual.Store(virtual)
			return
		}
	}
	if top < len(keys) || w.capped {
		slices.Sort(keys)
	}
	for j := len(keys) - 1; j >= 0; j-- {
		k := keys[j]
		s := m.active[keyIdxMask-int(k&keyIdxMask)]
		fi := m.voices[s].pool.fi
		audible := k>>keyAudShift&(1<<keyAudBits-1) != 0
		want := k&keyProt != 0 || audible && total < w.maxReal && w.used[fi] < w.realCap[fi]
		if want {
			total++
			w.used[fi]++
			real++
		} else {
			virtual++
		}
		m.assign(s, want)
	}
	w.keys = keys
	w.real.Store(real)
	w.virtual.Store(virtual)
}

// assign moves the ranked sound in slot s to the mode the ranking wants
// for it.
func (m *mixer) assign(s uint32, real bool) {
	v, e, vv := &m.voices[s], &m.x.v[s], &m.virt.vv[s]
	switch {
	case vv.mode == virtNew && real:
		vv.mode = virtReal // starts as any voice does
	case vv.mode == virtNew:
		vv.mode = virtOff
		if v.bus != nil {
			// Counted as a rate bus member's position: ahead of the
			// block's first output by the bus's look-ahead.
			v.pos += uint64(float64(max(v.bus.lookahead(), 0) * (1 << 32)))
		}
	case vv.mode == virtReal && !real:
		if e.paused || m.x.buses[e.bus].chain {
			vv.mode = virtOff // silent already: nothing to fade
			break
		}
		vv.mode, v.swapOut = virtOut, true
		m.virt.swaps.Add(1)
	case vv.mode == virtOff && real:
		vv.mode = virtReal
		v.gainL, v.gainR = 0, 0 // the block ramps it in from silence
		if v.bus != nil {
			p := math.Round(float64(float64(v.pos)/(1<<32)) - v.bus.lookahead())
			if v.loop && vv.looped && p < float64(v.loopStart) {
				p += float64(v.end - v.loopStart) // back across the seam, into the loop's end
			}
			v.pos = uint64(max(p, 0)) << 32
			v.joining, v.startOff = true, 0
		}
		m.virt.swaps.Add(1)
	}
	m.publish(s)
}

// allAudible reports whether every key in keys is of a protected or an
// audible sound.
func allAudible(keys []uint64) bool {
	for _, k := range keys {
		if k&keyProt == 0 && k>>keyAudShift&(1<<keyAudBits-1) == 0 {
			return false
		}
	}
	return true
}

// selectTop reorders keys so that its last n are its n largest, in no
// particular order (Hoare's quickselect, median of three): linear time,
// in place.
func selectTop(keys []uint64, n int) {
	lo, hi, want := 0, len(keys)-1, len(keys)-n
	for lo < hi {
		mid := lo + (hi-lo)/2
		if keys[mid] < keys[lo] {
			keys[mid], keys[lo] = keys[lo], keys[mid]
		}
		if keys[hi] < keys[lo] {
			keys[hi], keys[lo] = keys[lo], keys[hi]
		}
		if keys[hi] < keys[mid] {
			keys[hi], keys[mid] = keys[mid], keys[hi]
		}
		p := keys[mid]
		i, j := lo, hi
		for i <= j {
			for keys[i] < p {
				i++
			}
			for keys[j] > p {
				j--
			}
			if i <= j {
				keys[i], keys[j] = keys[j], keys[i]
				i++
				j--
			}
		}
		switch {
		case want <= j:
			hi = j
		case want >= i:
			lo = i
		default:
			return
		}
	}
}

// lookahead returns how far a member of b has summed past the source
// position of the block's first output, in source frames: the history
// the bus holds, less the window's half and the output's fraction. On
// an idle bus, which has no phase, it is the live bus's typical value.
func (b *rateBus) lookahead() float64 {
	if !b.live {
		return float64(b.taps - b.half - 1)
	}
	var frac float64
	if t := b.table; t != nil {
		num, den := t.Fraction(b.seq)
		frac = float64(num) / float64(den)
	} else {
		frac = float64(b.frac) / (1 << 32)
	}
	return float64(b.have-b.half) - frac
}

// advanceVirtual moves a virtual sound on by the block, less its start
// offset off, as mixing it would: its fades and pause, its position
// through loops, its pitch's ramp, and its end. A stopped or stolen
// virtual sound ends at once: it has nothing to fade.
func (m *mixer) advanceVirtual(v *voice, e *voiceExt, s uint32, off int) {
	if !v.fading {
		m.advanceMember(v, e)
	}
	if v.fading {
		v.ended = true
		return
	}
	n := m.block - off
	switch {
	case v.pitched:
		m.advancePitched(v, n)
	case v.bus != nil:
		v.pos += uint64(n) * m.virt.busStep[v.pool.fi]
		p := v.pos
		v.wrap(v.stop())
		if v.pos != p {
			m.virt.vv[s].looped = true
		}
	default:
		v.pos += uint64(n) * v.step
		v.wrap(v.stop())
	}
	m.x.pos[s].Store(int64(v.pos >> 32))
}

// wrap brings a looping voice's position back inside its loop region
// once it reaches the loop's end, keeping its fraction, or ends a
// one-shot voice at frame stop.
func (v *voice) wrap(stop int) {
	k := int(v.pos >> 32)
	if !v.loop {
		if k >= stop {
			v.ended = true
		}
		return
	}
	if k >= v.end {
		L := v.end - v.loopStart
		v.pos -= uint64((k-v.loopStart)/L*L) << 32
	}
}

// advancePitched is advanceVirtual's step for a pitched voice: n outputs
// whose steps move from v.step to v.stepTo as renderPitched's do, with
// its loop and end.
func (m *mixer) advancePitched(v *voice, n int) {
	half := v.ps.bank.For(max(v.step, v.stepTo)).Half()
	if d := int64(v.stepTo - v.step); d == 0 {
		v.pos += uint64(n) * v.step
	} else {
		for i := range n {
			v.pos += v.step + uint64(d*int64(i+1)/int64(n))
		}
	}
	v.step = v.stepTo
	k := int(v.pos>>32) - half
	if !v.loop {
		if k >= v.end {
			v.ended = true
		}
		return
	}
	if L := v.end - v.loopStart; k-L >= v.loopStart {
		v.pos -= uint64((k-v.loopStart)/L*L) << 32
	}
}

// endVirtual resets slot s's ranking state as its voice ends.
func (m *mixer) endVirtual(s uint32) {
	if m.virt != nil {
		m.virt.vv[s] = virtVoice{}
	}
}

// virtStats fills in Stats' virtual voice figures.
func (e *Engine) virtStats(s *Stats) {
	if w := e.mix.virt; w != nil {
		s.Real, s.Virtual, s.RealMax = int(w.real.Load()), int(w.virtual.Load()), int(w.maxReal)
		s.Swaps = w.swaps.Load()
	}
}
