package voices

import (
	"math"
	"sync/atomic"
	"unsafe"

	"github.com/steadyframe/steadyframe/lifetime/syncs"
	"github.com/steadyframe/steadyframe/voices/internal/dsp"
)

// voiceExt is the part of a voice that buses, pauses, timed fades,
// scheduled starts and events add (issue 18), kept beside the voice
// rather than in it: one per slot, owned by the mixer like the voice.
type voiceExt struct {
	vol       envelope // drives the voice's volume while a Fade runs
	volAfter  After
	gate      envelope // Pause and Resume: 1 playing, 0 paused
	pausing   bool     // the gate is closing; the voice pauses when it shuts
	paused    bool
	at        int64 // the clock frame a scheduled voice starts at; 0 once started
	later     bool  // placed by its issue time: counts against the caps when it starts
	bus       uint8
	busCount  bool // counted against its bus's MaxVoices
	clipCount bool // counted against its clip's MaxInstances
	why       EventKind
	gen       uint32
	clip      *clipState
}

// busRun is a bus's mixing state, owned by the mixer.
type busRun struct {
	cfg       *busConfig
	sh        *busShared
	buf       []frame // the bus's sub-mix; Master's is the mixer's bus itself
	gain      envelope
	gainAfter After
	gate      float32 // mute and pause, ramped over one block to gateTo
	gateTo    float32
	muted     bool
	pausing   bool
	paused    bool
	chain     bool // this bus or a parent is paused: its voices are not mixed
	duck      float32
	touched   bool // a voice or child wrote buf this block
	voices    int32
	level     float32
}

// mixExt is the mixer's issue-18 state.
type mixExt struct {
	v      []voiceExt
	buses  []busRun
	frame  int64 // the engine clock at this block's start, in device frames
	clock  atomic.Int64
	pos    []atomic.Int64 // each slot's playback position, in source frames, at the last block's end
	args   []playArgs     // each slot's Play's rare fields (playargs.go)
	events *syncs.Queue[Event]

	latency int64 // StartLatency in frames (latency.go)
	policy  Policy

	// rates holds each bus's rate buses, indexed by rateBus.ri: a voice
	// resampled on a rate bus mixes into its own engine bus, so each
	// engine bus has its own (rates[0] is the mixer's, Master's). All are
	// made here, when the engine is.
	rates [][]*rateBus
}

func (x *mixExt) init(m *mixer, cfg []busConfig, sh []busShared, events *syncs.Queue[Event]) {
	x.v = make([]voiceExt, len(m.voices))
	x.pos = make([]atomic.Int64, len(m.voices))
	x.args = make([]playArgs, len(m.voices))
	x.events = events
	x.buses = make([]busRun, len(cfg))
	for i := range x.buses {
		b := &x.buses[i]
		b.cfg, b.sh = &cfg[i], &sh[i]
		b.gain, b.gate, b.gateTo, b.duck = restAt(1), 1, 1, 1
		b.buf = m.mix
		if i > 0 {
			b.buf = make([]frame, m.block)
		}
	}
	m.steady.init(len(m.voices), len(cfg))
	x.rates = make([][]*rateBus, len(cfg))
	x.rates[0] = m.buses[:len(m.buses):len(m.buses)]
	for i := 1; i < len(cfg); i++ {
		for _, r0 := range x.rates[0] {
			r := newRateBus(r0.src, m.dev.Rate, m.block, len(m.voices), r0.kern)
			r.group, r.ri = uint8(i), r0.ri
			x.rates[i] = append(x.rates[i], r)
			m.buses = append(m.buses, r)
		}
	}
}

// mixVoices renders every voice of the block into its bus and the buses
// into the mixer's bus, and returns how many voices it rendered. It is
// renderBlock's voice loop.
func (m *mixer) mixVoices() int32 {
	x := &m.x
	for i := range x.buses {
		b := &x.buses[i]
		b.chain = b.paused || (i > 0 && x.buses[b.cfg.parent].chain)
		b.touched, b.voices = i == 0, 0
	}
	if m.virt != nil {
		m.rank()
	}
	var mixed int32
	end := x.frame + int64(m.block)
	if m.steady.ok { // nothing changed since the last block (steadylist.go)
		mixed = m.mixSteady()
		goto rates
	}
	m.steadyBegin()
	for _, s := range m.active {
		v := &m.voices[s]
		if v.ended {
			continue // stolen in this block before it was ever heard
		}
		e := &x.v[s]
		b := &x.buses[e.bus]
		b.voices++
		if !v.fading && (e.paused || b.chain) {
			continue // keeps its position; costs nothing
		}
		off := 0
		if e.at != 0 || e.later {
			if v.fading {
				v.ended = true // stopped before its start: never heard
				continue
			}
			if e.at >= end {
				continue
			}
			off, e.at = int(max(e.at-x.frame, 0)), 0
			if e.later && !m.startLater(v, e) {
				continue
			}
		}
		if m.virt != nil && m.virt.vv[s].mode == virtOff {
			m.advanceVirtual(v, e, s, off)
			continue
		}
		if v.clip.stream != nil && !m.streamGate(v) {
			continue // starved: silent for the block (stream_mix.go)
		}
		mixed++
		if v.bus != nil {
			// Resampled on its source rate's bus: summed below, fades
			// and all (renderMember).
			if steadyMember(v, e, off) {
				m.steadyAdd(v, s, e.bus, 0, 0)
			}
			v.startOff = off
			v.bus.add(s, v.joining)
			continue
		}
		if !b.touched {
			x.touch(e.bus)
		}
		if e.vol.total == 0 && e.gate.total == 0 && off == 0 && !e.pausing {
			tl, tr := m.gains(v)
			g := e.gate.cur
			if v.pitched && m.share(v, s, e.bus, tl*g, tr*g) {
				continue // rendered with the voices in step with it (pitchshare.go)
			}
			if v.render(b.buf, m.scratch, tl*g, tr*g) { // the steady path: most voices, most blocks
				m.steadyAdd(v, s, e.bus, tl*g, tr*g)
			}
		} else {
			m.renderTimed(v, e, b.buf[off:], 0)
		}
		x.pos[s].Store(int64(v.pos >> 32))
	}
	m.steadyEnd()
rates:
	m.renderShared()
	for _, r := range m.buses {
		if len(r.members) == 0 && !r.live {
			continue
		}
		if !x.buses[r.group].touched {
			x.touch(r.group)
		}
		r.render(m, x.buses[r.group].buf)
	}
	m.streamsAdvance()
	m.mixBuses()
	x.frame = end
	x.clock.Store(end)
	return mixed
}

// touch marks bus i written this block, clearing its sub-mix first, and
// its parents with it.
func (x *mixExt) touch(i uint8) {
	for b := &x.buses[i]; !b.touched; b = &x.buses[b.cfg.parent] {
		b.touched = true
		clear(b.buf)
	}
}

// renderTimed renders a voice whose volume or gate is moving, or whose
// start lies inside the block, splitting the block where a fade ends, so
// that every fade follows its line to the frame and acts (stop, pause)
// on the frame it ends. A rate bus's voice renders its source frames
// (renderMember): its new fades start at at ticks (ratebus_fade.go).
func (m *mixer) renderTimed(v *voice, e *voiceExt, dst []frame, at int) {
	scratch := m.scratch
	if v.bus != nil {
		scratch = m.srcScratch
	}
	for i := 0; i < len(dst) && !v.ended; {
		if v.bus != nil {
			m.onSource(v, e, at)
		}
		k := len(dst) - i
		volMoving, gateMoving := e.vol.total != 0, e.gate.total != 0
		if volMoving {
			k = min(k, e.vol.next())
		}
		if gateMoving {
			k = min(k, e.gate.next())
		}
		// Where a volume fade ending here leaves the next frame, in ticks
		// (at most 0): an AfterPause's gate starts there.
		at = e.vol.done + k*e.vol.unit - e.vol.total
		e.vol.advance(k)
		e.gate.advance(k)
		if volMoving {
			v.volume = e.vol.cur
		}
		tl, tr := m.gains(v)
		g := e.gate.cur
		if k > 0 { // 0: a rate bus's fade ends inside the next frame
			v.render(dst[i:i+k], scratch, tl*g, tr*g)
		}
		i += k
		if m.fadesEnded(v, e, volMoving, gateMoving) {
			return
		}
	}
}

// fadesEnded acts on the fades that have just reached their targets: a
// volume fade's after-action (stop or pause), and a closing gate, which
// pauses the voice. It reports whether the voice paused. renderTimed and
// advanceMember share it, so a fade ends the same way on either path.
func (m *mixer) fadesEnded(v *voice, e *voiceExt, volMoving, gateMoving bool) bool {
	if volMoving && e.vol.total == 0 {
		switch e.volAfter {
		case AfterStop:
			m.startFade(v)
			e.why = EventStopped
		case AfterPause:
			m.pauseVoice(e, true)
		}
		e.volAfter = AfterNone
	}
	if gateMoving && e.gate.total == 0 && e.pausing {
		e.pausing, e.paused = false, true
		return true
	}
	return false
}

// advanceMember moves the fades of a voice that is not mixed (a virtual
// one) on by a block, in device frames, and acts on those that end.
func (m *mixer) advanceMember(v *voice, e *voiceExt) {
	volMoving, gateMoving := e.vol.total != 0, e.gate.total != 0
	if !volMoving && !gateMoving {
		return
	}
	if v.bus != nil {
		e.vol.toDevice(v.bus.src)
		e.gate.toDevice(v.bus.src)
	}
	e.vol.advance(m.block)
	e.gate.advance(m.block)
	if volMoving {
		v.volume = e.vol.cur
	}
	m.fadesEnded(v, e, volMoving, gateMoving)
}

// pauseVoice closes (pause) or opens (resume) a voice's gate over the
// fade length.
func (m *mixer) pauseVoice(e *voiceExt, pause bool) {
	if pause {
		if !e.paused {
			e.pausing = true
			e.gate.set(0, m.fade)
		}
		return
	}
	if e.paused || e.pausing {
		e.paused, e.pausing = false, false
		e.gate.set(1, m.fade)
	}
}

// mixBuses applies each bus's gain, gate and ducking to its sub-mix,
// measures its level and adds it into its parent, children first (a
// child is declared after its parent), Master last, in place on the
// mixer's bus. A bus at rest at unity is left bit for bit as it is.
func (m *mixer) mixBuses() {
	x := &m.x
	for i := len(x.buses) - 1; i >= 0; i-- {
		b := &x.buses[i]
		duckTo := float32(1)
		if c := b.cfg; c.duckBy >= 0 && x.buses[c.duckBy].level > c.duckThr {
			duckTo = c.duckDepth
		}
		rest := b.gain.total == 0 && b.gate == b.gateTo && b.duck == duckTo
		if !b.touched { // never Master's case
			if rest {
				b.level = 0
				m.publishBus(b)
				continue
			}
			x.touch(uint8(i)) // its gains move on all the same
		}
		if rest && b.gain.cur == 1 && b.gate == 1 && b.duck == 1 {
			b.level = dsp.Peak(b.buf)
		} else {
			b.level = b.apply(duckTo)
		}
		if i > 0 {
			p := x.buses[b.cfg.parent].buf
			for j, f := range b.buf {
				p[j][0] += f[0]
				p[j][1] += f[1]
			}
		}
		m.publishBus(b)
	}
}

// apply runs bus b's gains over its sub-mix, frame by frame, and returns
// its peak.
func (b *busRun) apply(duckTo float32) float32 {
	n := len(b.buf)
	gate, dgate := b.gate, (b.gateTo-b.gate)/float32(n)
	d, att, rel := b.duck, b.cfg.duckAtt, b.cfg.duckRel
	var pk uint32 // the peak's bits, as dsp.Peak keeps them
	for j := range b.buf {
		gate += dgate
		b.gain.advance(1)
		if d > duckTo {
			d = max(d*att, duckTo)
		} else if d < duckTo {
			d = min(d*rel, duckTo)
		}
		g := b.gain.cur * gate * d
		l, r := b.buf[j][0]*g, b.buf[j][1]*g
		b.buf[j] = frame{l, r}
		pk = max(pk, dsp.Mag(l), dsp.Mag(r))
	}
	b.gate, b.duck = b.gateTo, d
	if b.pausing && b.gate == 0 {
		b.pausing, b.paused = false, true
	}
	return math.Float32frombits(pk)
}

// publishBus stores bus b's figures for Stats, and runs the action of a
// gain fade that has ended.
func (m *mixer) publishBus(b *busRun) {
	if b.gain.total == 0 && b.gainAfter != AfterNone {
		switch b.gainAfter {
		case AfterStop:
			m.stopBus(b, 0)
		case AfterPause:
			m.pauseBus(b, true)
		}
		b.gainAfter = AfterNone
	}
	b.sh.level.Store(math.Float32bits(b.level))
	b.sh.gain.Store(math.Float32bits(b.gain.cur * b.gate * b.duck))
	b.sh.voices.Store(b.voices)
	b.sh.paused.Store(b.paused)
	b.sh.muted.Store(b.muted)
}

func (m *mixer) pauseBus(b *busRun, pause bool) {
	if pause {
		if !b.paused {
			b.pausing, b.gateTo = true, 0
		}
		return
	}
	b.pausing, b.paused = false, false
	if !b.muted {
		b.gateTo = 1
	}
}

// under reports whether a voice on bus i plays through bus anc.
func (x *mixExt) under(i uint8, anc *busRun) bool {
	for j := int(i); j >= 0; j = x.buses[j].cfg.parent {
		if &x.buses[j] == anc {
			return true
		}
	}
	return false
}

// stopBus ends every voice on bus b and its children, fading each out
// over frames (at least the engine's fade).
func (m *mixer) stopBus(b *busRun, frames int) {
	x := &m.x
	for _, s := range m.active {
		v, e := &m.voices[s], &x.v[s]
		if v.ended || v.fading || !x.under(e.bus, b) {
			continue
		}
		e.why = EventStopped
		if frames <= m.fade || e.paused {
			m.startFade(v)
			continue
		}
		e.vol = restAt(v.volume)
		e.vol.set(0, frames)
		e.volAfter = AfterStop
	}
}

// extCmd applies a bus, fade or pause command (drain's default case).
func (m *mixer) extCmd(c *command) {
	x := &m.x
	switch c.kind {
	case cmdBusFade:
		b := &x.buses[c.bus]
		b.gain.set(c.value, max(int(c.fade), m.block))
		b.gainAfter = After(c.op)
	case cmdBusMute:
		b := &x.buses[c.bus]
		b.muted = c.op != 0
		switch {
		case b.muted:
			b.gateTo = 0
		case !b.paused && !b.pausing:
			b.gateTo = 1
		}
	case cmdBusPause:
		m.pauseBus(&x.buses[c.bus], c.op != 0)
	case cmdBusStop:
		m.stopBus(&x.buses[c.bus], int(c.fade))
	case cmdFade:
		if v := m.voiceFor(c); v != nil {
			e := &x.v[c.slot]
			e.vol = restAt(v.volume)
			e.vol.set(c.value, max(int(c.fade), 1))
			e.volAfter = After(c.op)
		}
	case cmdPause:
		if v := m.voiceFor(c); v != nil {
			m.pauseVoice(&x.v[c.slot], c.op != 0)
		}
	}
}

// claim records who a Play command's slot belongs to, before the mixer
// starts or refuses it, so that either way its end is reported and its
// bus place given back.
func (x *mixExt) claim(c *command) {
	x.v[c.slot] = voiceExt{gate: restAt(1), bus: c.bus, busCount: c.flags&cmdFlagBusCount != 0, clipCount: c.flags&cmdFlagClipCount != 0, gen: c.gen, clip: c.clip}
	x.pos[c.slot].Store(x.argsOf(c).offset)
}

// start applies a Play's offset, scheduled start and fade-in to the
// voice the mixer has just started.
func (m *mixer) startExt(v *voice, c *command) {
	e := &m.x.v[c.slot]
	if v.bus != nil && e.bus != 0 {
		v.bus = m.x.rates[e.bus][v.bus.ri]
	}
	a := m.x.argsOf(c)
	if a.offset > 0 {
		v.pos = uint64(a.offset) << 32
	}
	if a.at > m.x.frame {
		e.at = a.at
	}
	if c.flags&cmdFlagLater != 0 {
		m.placeLater(v, e, c)
	}
	if c.fade > 0 {
		e.vol = restAt(0)
		e.vol.set(v.volume, int(c.fade))
		v.volume = 0
		v.gainL, v.gainR = 0, 0
	}
}

// release ends a slot's claim: it reports the event and gives back the
// voice's place under its bus's MaxVoices. endVoice and refuse call it.
func (m *mixer) release(s uint32, k EventKind) {
	e := &m.x.v[s]
	if e.clip == nil {
		return // released already
	}
	if e.busCount {
		m.slots.dropBus(Bus(e.bus), m.x.buses[e.bus].sh)
	}
	if e.clipCount {
		e.clip.lim.release()
	}
	if k == EventEnded && e.why != EventNone {
		k = e.why
	}
	pushEvent(m.x.events, k, makeHandle(s, e.gen), e.clip)
	e.clip = nil
}

// slotOf returns the slot of one of m.voices.
func (m *mixer) slotOf(v *voice) uint32 {
	return uint32((uintptr(unsafe.Pointer(v)) - uintptr(unsafe.Pointer(&m.voices[0]))) / unsafe.Sizeof(*v))
}

// markStopped records that slot s's voice is ending by a stop, for its
// event.
func (m *mixer) markStopped(s uint32, why EventKind) {
	if e := &m.x.v[s]; e.why == EventNone {
		e.why = why
	}
}
