package voices

// The steady list: a block in which nothing changes is mixed from a flat
// list of the voices, built by the block before it (docs/mixer.md,
// "The steady list").
//
// mixVoices builds the list as it mixes a block in full. The list holds
// only when every active voice took the steady path (renderSteady, or a
// rate bus's member at rest) and nothing can move by itself: no fade,
// pause, scheduled start, stream, pitch, 3D or virtual voice, and no bus
// pausing or with a fade's after-action pending. Then the next block can
// change only by a command, a StopAll or a voice ending. Each of those
// drops the list, as does a voice leaving its steady path, so the block
// after them is mixed in full again.

// steadyEntry is one active voice of the steady list, in mix order.
type steadyEntry struct {
	v      *voice
	s      uint32
	bus    uint8   // its engine bus
	tl, tr float32 // its gains at unity rate; unused on a rate bus
}

// steadyList is the mixer's steady list, owned by the barrier holder.
type steadyList struct {
	ok      bool // the list describes the next block
	block   bool // this block is mixed from the list: its rate buses' members are steady
	simple  bool // while building: every voice so far took the steady path
	entries []steadyEntry
	voices  []int32 // each engine bus's voice count
}

func (l *steadyList) init(voices, buses int) {
	l.entries = make([]steadyEntry, 0, voices)
	l.voices = make([]int32, buses)
}

// drop makes the next block be mixed in full.
func (l *steadyList) drop() { l.ok = false }

// steadyBegin starts building the list in a block mixed in full. No
// list holds with 3D or virtual voices.
func (m *mixer) steadyBegin() {
	l := &m.steady
	l.entries, l.block = l.entries[:0], false
	l.simple = m.virt == nil && m.sp.n == 0
}

// steadyAdd records a voice that took the steady path at gains tl, tr.
func (m *mixer) steadyAdd(v *voice, s uint32, bus uint8, tl, tr float32) {
	l := &m.steady
	l.simple = l.simple && v.clip.stream == nil
	l.entries = append(l.entries, steadyEntry{v: v, s: s, bus: bus, tl: tl, tr: tr})
}

// steadyEnd finishes the list of a block mixed in full: it holds if every
// active voice is on it and no bus can move its voices by itself.
func (m *mixer) steadyEnd() {
	l := &m.steady
	l.ok = false
	if !l.simple || len(l.entries) != len(m.active) {
		return
	}
	x := &m.x
	for i := range x.buses {
		b := &x.buses[i]
		if b.pausing || b.gainAfter != AfterNone || b.chain {
			return
		}
		l.voices[i] = b.voices
	}
	l.ok = true
}

// steadyMember reports whether a rate bus's member is at rest: it adds
// to the bus without a join or a fade.
func steadyMember(v *voice, e *voiceExt, off int) bool {
	return !v.joining && off == 0 && e.vol.total == 0 && e.gate.total == 0 && !e.pausing && !v.fading
}

// mixSteady mixes the block's voices from the steady list, as the full
// loop of mixVoices would, and returns how many it mixed. A voice that
// leaves its steady path (its clip's end, a loop's seam) is rendered in
// full, and drops the list.
func (m *mixer) mixSteady() int32 {
	x := &m.x
	l := &m.steady
	l.block = true
	for i := range x.buses {
		x.buses[i].voices = l.voices[i]
	}
	for i := range l.entries {
		en := &l.entries[i]
		v := en.v
		if v.bus != nil {
			v.bus.add(en.s, false)
			continue
		}
		b := &x.buses[en.bus]
		if !b.touched {
			x.touch(en.bus)
		}
		// renderSteady's kernel call without its checks, which the list
		// has made: written out, since a shared helper does not inline.
		if k := int(v.pos >> 32); k+m.block < v.end {
			fb := v.kind.FrameBytes()
			v.kern.Mix(v.kind, b.buf, v.data[k*fb:v.end*fb], en.tl, en.tr)
			v.pos += uint64(m.block) << 32
		} else {
			v.render(b.buf, m.scratch, en.tl, en.tr)
			l.ok = false
		}
		x.pos[en.s].Store(int64(v.pos >> 32))
	}
	return int32(len(l.entries))
}

// sumSteady sums a steady member of rate bus b into dst, its frames of
// the bus from the first new one, at the gains of its last block, as
// renderMember would. A member that reaches its clip's end goes through
// renderMember, and drops the list.
func (m *mixer) sumSteady(b *rateBus, v *voice, s uint32, dst []frame) {
	if k := int(v.pos >> 32); k+len(dst) < v.end {
		fb := v.kind.FrameBytes()
		v.kern.Mix(v.kind, dst, v.data[k*fb:v.end*fb], v.gainL, v.gainR)
		v.pos += uint64(len(dst)) << 32
		return
	}
	m.renderMember(b, v, &m.x.v[s], dst, false)
	m.steady.drop()
}
