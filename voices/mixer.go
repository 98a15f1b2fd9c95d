package voices

import (
	"encoding/binary"
	"math"
	"sync/atomic"
	"unsafe"

	"github.com/steadyframe/steadyframe/lifetime/syncs"
	"github.com/steadyframe/steadyframe/voices/internal/dsp"
)

// mixer renders the device stream. It is the io.Reader the device pulls:
// each block it applies a new StopAll, drains the command queue, mixes every
// active voice, applies the master gain and the limiter, and encodes the
// device format. Read belongs to the audio goroutine; everything between
// Barrier.Enter and Exit may instead be done by a requester that seized
// the barrier (StopAll's fallback). Nothing in Read allocates.
type mixer struct {
	dev     Format
	block   int
	fade    int // fade-out length in frames
	q       *syncs.Queue[command]
	slots   *slotTable
	barrier *syncs.Barrier
	clock   func() int64
	monoOut bool

	// Owned by the barrier holder.
	nowNs      int64 // the engine clock at the start of this block
	voices     []voice
	active     []uint32 // playing slots in start order: the mix order
	mix        []frame
	scratch    []frame // a ramping voice's block at unity gain
	srcScratch []frame // the same at a rate bus's source rate
	buses      []*rateBus
	formatGain []float32 // by format index
	master     float32
	masterCur  float32
	order      uint64
	blockOrder uint64 // order at the start of the block: later voices have not been heard yet
	stopSeen   uint64 // the last stopMark acted on

	// Owned by the audio goroutine (outside the barrier).
	out    []byte
	outPos int
	lim    dsp.Limiter

	limDelay int // the limiter's latency in frames, fixed: read by Stats
	// fixed holds each pool's voice as built: what a voice of it is
	// between plays. A pitched voice and one on a bus's rate bus change
	// their step, filter and rate bus, so an ended voice is reset from
	// here, not from its own fields.
	fixed []voice
	// tap, set only by tests, sees each block's mix before the limiter
	// delays it: frames aligned with the engine clock.
	tap func([]frame)

	// blockNs is the engine clock at the start of the latest block: Play
	// stamps its command with it instead of reading the clock itself, and
	// the Play-to-mix delay is the time from that block's start to the
	// start of the block that plays the voice. One clock read per block
	// instead of one per Play, which cost a third of Play.
	blockNs atomic.Int64

	// stopMark is the queue position claimed when the latest StopAll
	// began: voices playing when the mixer sees a new mark fade out, and
	// Plays queued below the mark never start, even one whose producer
	// was still writing it (which holds back the commands behind it).
	stopMark atomic.Uint64

	mixPeak    atomic.Int32 // most voices rendered in one block, fading ones included
	activeNow  atomic.Int32 // voices left in the mix at the end of the last block
	steals     atomic.Uint64
	refusals   atomic.Uint64
	mixLastNs  atomic.Int64
	mixMaxNs   atomic.Int64
	mixTotalNs atomic.Int64
	playLastNs atomic.Int64
	playMaxNs  atomic.Int64

	x mixExt // buses, pauses, timed fades, scheduled starts, events: busmix.go

	// pitchable is set by Play for a voice played with a pitch and
	// cleared by the mixer before its slot is free again: SetPitch reads
	// it to refuse an unpitched voice.
	pitchable []atomic.Bool

	sp mixSpatial // 3D sound: spatial.go

	st streamMix // streaming (issue 19 item 3): stream_mix.go

	virt *virtState // virtual voices (virtual.go); nil without them

	// Pitch sharing: the pitched voices' filters and scratch, and the
	// groups of voices in step (pitchshare.go).
	ps *pitchState

	steady steadyList // the steady list: steadylist.go
}

func newMixer(dev Format, block, fadeFrames int, rs Resampler, q *syncs.Queue[command], slots *slotTable, b *syncs.Barrier, clock func() int64) *mixer {
	m := &mixer{
		dev: dev, block: block, fade: fadeFrames,
		q: q, slots: slots, barrier: b, clock: clock,
		monoOut: dev.Channels == 1,
		voices:  make([]voice, len(slots.states)),
		active:  make([]uint32, 0, len(slots.states)),
		mix:     make([]frame, block),
		scratch: make([]frame, block),
		out:     make([]byte, block*dev.FrameBytes()),
		master:  1, masterCur: 1,
		formatGain: make([]float32, len(slots.pools)),
		lim:        dsp.NewLimiter(dev.Rate),
		pitchable:  make([]atomic.Bool, len(slots.states)),
	}
	m.outPos = len(m.out) // nothing rendered yet
	m.limDelay = m.lim.Delay()
	m.blockNs.Store(clock())
	for i := range m.formatGain {
		m.formatGain[i] = 1
	}
	// Every voice runs the same kernels and shares one scratch for the
	// sinc kernels' converted source, used by each voice in turn.
	// Voices resampled by the sinc share their source rate's bus instead
	// (ratebus.go): they mix at the source rate, as unity-rate voices.
	kern, planes := dsp.BestKernels(), dsp.NewPlanes()
	ps := newPitchState(slots, dev.Rate, block)
	m.ps = ps
	m.fixed = make([]voice, len(slots.pools))
	busOf := map[int]*rateBus{}
	for pi := range slots.pools {
		p := &slots.pools[pi]
		rate := p.format.Rate
		fixed := voice{pool: p, kind: kindOf(p.format), step: uint64(rate) << 32 / uint64(dev.Rate), fade: fadeFrames, kern: kern, planes: planes, mono: p.format.Channels == 1, ps: ps}
		if rs == ResamplerSinc && rate != dev.Rate && p.size > 0 {
			b := busOf[rate]
			if b == nil {
				b = newRateBus(rate, dev.Rate, block, len(m.voices), kern)
				b.ri = len(m.buses)
				busOf[rate] = b
				m.buses = append(m.buses, b)
				m.srcScratch = make([]frame, max(len(m.srcScratch), len(b.bus)))
			}
			// The fade keeps its length in time. A block sums at least
			// block×rate/dev-1 new frames, so a fade of at most a block
			// still ends within the block StopAll waits for.
			fixed.bus, fixed.step, fixed.fade = b, dsp.FracOne, max(1, fadeFrames*rate/dev.Rate)
		}
		m.fixed[pi] = fixed
		for s := p.base; s < p.base+p.size; s++ {
			m.voices[s] = fixed
		}
	}
	return m
}

// Read fills p with rendered device frames, rendering whole blocks as
// needed and keeping any remainder for the next call. It never fails and
// never allocates. Blocks rendered back to back in one call share clock
// reads: one block's end is the next one's start.
func (m *mixer) Read(p []byte) (int, error) {
	n := 0
	var now int64 // the clock at the last block's end; 0 before the first
	for len(p) > 0 {
		if m.outPos == len(m.out) {
			now = m.renderBlock(now)
			m.outPos = 0
		}
		c := copy(p, m.out[m.outPos:])
		m.outPos += c
		p = p[c:]
		n += c
	}
	return n, nil
}

// renderBlock renders one block into m.out: one barrier pass. start is
// the clock at the block's start, or 0 to read it; renderBlock returns
// the clock at its end, or 0 for a skipped pass.
func (m *mixer) renderBlock(start int64) int64 {
	if !m.barrier.Enter() {
		// A StopAll holds the voices; play silence rather than wait (the
		// barrier counts the skipped pass: Stats.Skipped).
		clear(m.out)
		return 0
	}
	if start == 0 {
		start = m.clock()
	}
	m.nowNs = start
	m.blockNs.Store(start)
	if mark := m.stopMark.Load(); mark != m.stopSeen {
		m.stopSeen = mark
		m.steady.drop()
		for _, s := range m.active {
			m.startFade(&m.voices[s])
			m.markStopped(s, EventStopped)
		}
	}
	m.blockOrder = m.order
	m.latestListener()
	m.drain()
	if m.sp.n > 0 {
		m.spatialize()
	}
	clear(m.mix)
	mixed := m.mixVoices()
	if mixed > m.mixPeak.Load() {
		m.mixPeak.Store(mixed)
	}
	m.encode()
	m.reap()
	m.barrier.Exit() // counts the block: Stats.Blocks
	end := m.clock()
	d := end - start
	m.mixTotalNs.Add(d)
	recordNs(&m.mixLastNs, &m.mixMaxNs, d)
	return end
}

// gains returns the left and right gains v should reach this block: its
// pan, its volume and its source format's gain.
func (m *mixer) gains(v *voice) (float32, float32) {
	if v.swapOut {
		return 0, 0 // a virtual voice's swap out (virtual.go)
	}
	g := v.volume * m.formatGain[v.pool.fi]
	return v.panL * g, v.panR * g
}

func (m *mixer) startFade(v *voice) {
	if !v.fading {
		v.fading, v.fadeLeft = true, v.fade
	}
}

// encode applies the master gain (ramped across the block), the limiter
// and the device format. At a steady master gain of 1 and with no sample
// past full scale, the mix reaches the device bit for bit.
func (m *mixer) encode() {
	g, dg := m.masterCur, (m.master-m.masterCur)/float32(m.block)
	m.masterCur = m.master
	if m.tap != nil {
		m.tap(m.mix)
	}
	m.lim.Run(m.mix, g, dg)
	if m.dev.Channels == 2 && m.dev.Encoding == EncodingFloat32LE {
		// The default device format is the bus's own layout on a
		// little-endian CPU: a copy.
		out := m.out[:8*len(m.mix)]
		if littleEndian {
			copy(out, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(m.mix))), 8*len(m.mix)))
			return
		}
		for i, f := range m.mix {
			binary.LittleEndian.PutUint64(out[8*i:], uint64(math.Float32bits(f[0]))|uint64(math.Float32bits(f[1]))<<32)
		}
		return
	}
	fb := m.dev.FrameBytes()
	for i, f := range m.mix {
		o := m.out[i*fb:]
		if m.dev.Channels == 1 {
			putSample(o, m.dev.Encoding, (f[0]+f[1])*0.5)
			continue
		}
		putSample(o, m.dev.Encoding, f[0])
		putSample(o[m.dev.Encoding.SampleBytes():], m.dev.Encoding, f[1])
	}
}

// littleEndian reports whether the CPU stores a float32 as the little-endian
// bytes of the default device format.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

func putSample(o []byte, e Encoding, s float32) {
	if e == EncodingFloat32LE {
		dsp.PutF32(o, s)
		return
	}
	dsp.PutS16(o, s)
}

// drain applies every queued command in order.
func (m *mixer) drain() {
	for {
		pos := m.q.Head()
		c, ok := m.q.Pop()
		if !ok {
			return
		}
		m.steady.drop() // any command may change a voice
		switch c.kind {
		case cmdPlay:
			m.x.claim(&c)
			if pos < m.stopSeen {
				// Queued before a StopAll: its memory may be gone.
				m.refuse(&m.voices[c.slot], c.slot, c.flags&cmdFlagSteal == 0)
				continue
			}
			m.play(&c)
		case cmdStop:
			if v := m.voiceFor(&c); v != nil {
				m.startFade(v)
				m.markStopped(c.slot, EventStopped)
			}
		case cmdVolume:
			if v := m.voiceFor(&c); v != nil {
				v.volume = c.value
				m.x.v[c.slot].vol.total = 0 // cancels a Fade
			}
		case cmdPan:
			if v := m.voiceFor(&c); v != nil {
				v.panL, v.panR = panGains(c.pan, v.mono, m.monoOut)
			}
		case cmdPitch:
			if v := m.voiceFor(&c); v != nil && v.pitched {
				v.stepTo = pitchStep(v.pool.format.Rate, m.dev.Rate, c.value)
				m.sp.v[c.slot].pitch = c.value // doppler multiplies it
			}
		case cmdDirection:
			m.cmd3D(&c)
		case cmdMaster:
			m.master = c.value
		case cmdFormatGain:
			m.formatGain[c.slot] = c.value
		default:
			m.extCmd(&c)
		}
	}
}

// voiceFor returns the playing voice a command names, or nil if it has
// ended since (the command is then moot).
func (m *mixer) voiceFor(c *command) *voice {
	v := &m.voices[c.slot]
	if v.clip == nil || v.gen != c.gen || v.ended {
		return nil
	}
	return v
}

// play starts the voice a producer reserved, or refuses it: a bank being
// released, or a steal with no victim.
func (m *mixer) play(c *command) {
	v := &m.voices[c.slot]
	if d := m.nowNs - c.enqueueNs; d >= 0 {
		recordNs(&m.playLastNs, &m.playMaxNs, d)
	}
	bank := c.clip.bank
	steal := c.flags&cmdFlagSteal != 0
	if bank.closing.Load() {
		m.refuse(v, c.slot, !steal)
		return
	}
	if steal && c.flags&cmdFlagLater == 0 && !m.take(v.pool, c.priority) {
		m.refuse(v, c.slot, false)
		return
	}
	cs := c.clip
	if cs.lim != nil && cs.lim.max > 0 && cs.lim.mode != InstancesRefuse {
		m.stealInstance(cs)
	}
	*v = m.fixed[v.pool.fi]
	v.gen, v.clip, v.data, v.end, v.loopStart = c.gen, cs, cs.data, cs.frames, cs.loopStart
	v.loop, v.volume = c.flags&cmdFlagLoop != 0, c.value
	v.priority, v.protected = c.priority, c.flags&cmdFlagProtected != 0
	if p := m.x.argsOf(c).pitch; p != 0 {
		m.startPitched(v, p)
	}
	v.order, v.counted, v.joining = m.order, true, v.bus != nil
	if v.loop {
		v.end = cs.loopEnd
	}
	v.panL, v.panR = panGains(c.pan, v.mono, m.monoOut)
	v.gainL, v.gainR = m.gains(v) // the first block starts at its gains: no ramp
	v.att3d = 1
	if c.flags&cmdFlag3D != 0 {
		m.start3D(v, c)
	}
	m.order++
	bank.readers.Add(1)
	m.slots.states[c.slot].bank.Store(bank)
	m.active = append(m.active, c.slot)
	m.startExt(v, c)
}

// refuse hands a reserved slot back and counts the refusal.
func (m *mixer) refuse(v *voice, slot uint32, counted bool) {
	m.refusals.Add(1)
	m.unpitch(slot)
	m.end3D(slot)
	m.release(slot, EventRefused)
	m.slots.retire(v.pool, slot, counted)
}

// take finds a place under the caps for a new voice of pool p with
// priority prio, whose Play found none: a place freed since, or one
// stolen. It reports false if no voice may be stolen.
//
// Every count that rises is checked against its cap, so a steal can never
// push a count (or a peak) past one, even while producers reserve places
// concurrently: with a place under p's own cap, the victim (of any
// format) gives up its format place and hands its place in the total to
// the new voice; without one, the victim must be of p's format and hands
// over both.
func (m *mixer) take(p *formatPool, prio int16) bool {
	if m.slots.reserve(p) {
		return true // a voice ended after Play was refused a place
	}
	mine, own := p.reserveFormat()
	victim := m.victim(p, prio, !own)
	if victim == nil {
		if own {
			p.addCount(-1)
		}
		return false
	}
	if own {
		syncs.StoreMaxInt32(&p.peak, mine)
		victim.pool.addCount(-1)
	}
	victim.counted = false
	m.markStopped(m.slotOf(victim), EventStolen)
	if victim.order >= m.blockOrder {
		// Started in this block's drain and never rendered: nothing to
		// fade, and nothing to mix.
		victim.ended = true
	} else {
		m.startFade(victim)
	}
	m.steals.Add(1)
	return true
}

// victim picks the voice to steal for a new voice of pool p with priority
// prio: never a protected or already fading voice, never one of higher
// priority; the lowest priority first, then the oldest. With sameFormat
// (p is at its own cap) the victim must share p's format, since only that
// frees a place.
func (m *mixer) victim(p *formatPool, prio int16, sameFormat bool) *voice {
	var best *voice
	for _, s := range m.active {
		v := &m.voices[s]
		if v.protected || v.fading || !v.counted || v.priority > prio || (sameFormat && v.pool != p) {
			continue
		}
		if best == nil || v.priority < best.priority || (v.priority == best.priority && v.order < best.order) {
			best = v
		}
	}
	return best
}

// reap retires every ended voice, keeping the others in start order. From
// here on nothing references the voice's clip memory.
func (m *mixer) reap() {
	i := 0 // most blocks end no voice: the list then stays as it is
	for i < len(m.active) && !m.voices[m.active[i]].ended {
		i++
	}
	kept := m.active[:i]
	for _, s := range m.active[i:] {
		v := &m.voices[s]
		if !v.ended {
			kept = append(kept, s)
			continue
		}
		m.endVoice(v, s)
		m.steady.drop()
	}
	m.active = kept
	m.activeNow.Store(int32(len(m.active)))
}

func (m *mixer) endVoice(v *voice, s uint32) {
	if st := v.clip.stream; st != nil {
		st.voiceEnded()
	}
	m.unpitch(s)
	m.end3D(s)
	m.endVirtual(s)
	m.release(s, EventEnded)
	v.clip.bank.readers.Add(-1)
	counted := v.counted
	*v = m.fixed[v.pool.fi]
	m.slots.retire(v.pool, s, counted)
}

// stopNow is StopAll's fallback, run by a requester holding the seized
// barrier: it adopts the new stop mark (so no Play queued before it can
// start later, on memory the caller is about to free), applies the queued
// commands, then ends every voice at once. No fade: a seized mixer is not
// producing sound anyway.
func (m *mixer) stopNow() {
	m.nowNs = m.clock()
	m.stopSeen = m.stopMark.Load()
	m.drain()
	for _, s := range m.active {
		m.voices[s].ended = true
		m.markStopped(s, EventStopped)
	}
	for _, b := range m.buses {
		b.reset()
	}
	m.reap()
}
