package voices

import "github.com/steadyframe/steadyframe/voices/internal/dsp"

// Pitch sharing: pitched voices that play in step share one filter.
//
// Two pitched voices are in step when they use the same filter, have the
// same steady step and the same position fraction: a sound's layers
// started in one block at one pitch, or notes of one rate at one pitch.
// Their windows then start whole source frames apart, and each output
// reads the same row of coefficients in every one of them. So the
// mixer scales and pans each voice at its source rate, as a rate bus
// does, sums them, and filters the sum once, in stereo. The filter is
// linear, so the result is the sum of the voices filtered alone, within
// the rounding of the other order of sums (TestPitchShareMatchesAlone).
//
// Nothing is kept between blocks: each block re-sums its members from
// their clips, so a voice that leaves (its pitch or gain moves, it
// fades, it starts inside the block) renders alone from its own
// position the next block, with nothing of it left in a shared history.
// A voice in step with none renders alone, as before.
//
// BenchmarkMix32's pitched variant plays 32 voices at 7 pitches from 3
// rates, all started in one block: 20 filters a block instead of 32.
// Voices with their own pitch each (doppler, a random detune) share
// nothing.

// pitchShare is the mixer's sorting of one block's steady pitched
// voices into groups in step. It belongs to the mixer (the barrier
// holder). Its slices are allocated once, for every voice slot.
type pitchShare struct {
	off     bool // set by tests: every voice renders alone
	groups  []shareGroup
	members []shareMember
	// index is an open-addressed hash of the groups by key: group+1, or
	// 0 for an empty entry. Its length is a power of two, at least twice
	// the voice slots, so a probe always ends.
	index []int32
	sum   []frame // a group's summed source, interleaved
	// filters counts the filters run for shared groups, for tests.
	filters int
}

// shareKey is what voices in step have in common.
type shareKey struct {
	t    *dsp.Interp
	step uint64
	frac uint32
	bus  uint8 // the engine bus (EngineDesc.Buses) the voices mix into
}

type shareGroup struct {
	key         shareKey
	first, last int32 // indices into members; a list linked by next
	n           int
	at          int // the group's entry in index
}

type shareMember struct {
	slot   uint32
	gl, gr float32
	next   int32 // the next member of the group, or -1
}

func newPitchShare(slots int) *pitchShare {
	size := 1
	for size < 2*slots {
		size *= 2
	}
	return &pitchShare{
		groups:  make([]shareGroup, 0, slots),
		members: make([]shareMember, 0, slots),
		index:   make([]int32, size),
		sum:     make([]frame, pitchSpan),
	}
}

// share takes the pitched voice v of slot s, mixing into engine bus bus
// at the steady gains (gl, gr), into this block's groups, and reports
// whether it did: false for a voice that must render now, alone (its
// step or gain moves this block, it fades, or its block's windows do not
// fit one span).
func (m *mixer) share(v *voice, s uint32, bus uint8, gl, gr float32) bool {
	ps := v.ps
	sh := ps.share
	if sh.off || v.fading || v.step != v.stepTo || gl != v.gainL || gr != v.gainR || v.clip.stream != nil {
		return false
	}
	t := ps.bank.For(v.step)
	if int((uint64(uint32(v.pos))+uint64(m.block-1)*v.step)>>32)+t.Taps() > pitchSpan {
		return false
	}
	key := shareKey{t: t, step: v.step, frac: uint32(v.pos), bus: bus}
	mask := len(sh.index) - 1
	h := int((uint64(key.frac)*0x9E3779B97F4A7C15 ^ key.step*0xC2B2AE3D27D4EB4F ^ uint64(bus)) >> 20)
	for h &= mask; ; h = (h + 1) & mask {
		gi := sh.index[h]
		if gi == 0 {
			sh.groups = append(sh.groups, shareGroup{key: key, first: -1, last: -1, at: h})
			gi = int32(len(sh.groups))
			sh.index[h] = gi
		}
		g := &sh.groups[gi-1]
		if g.key != key {
			continue
		}
		mi := int32(len(sh.members))
		sh.members = append(sh.members, shareMember{slot: s, gl: gl, gr: gr, next: -1})
		if g.last >= 0 {
			sh.members[g.last].next = mi
		} else {
			g.first = mi
		}
		g.last = mi
		g.n++
		return true
	}
}

// renderShared renders this block's groups into their buses, in the
// order their first voices came: a group of one voice alone, as
// mixVoices would have, the others summed and filtered once. It empties
// the groups.
func (m *mixer) renderShared() {
	sh := m.ps.share
	for gi := range sh.groups {
		g := &sh.groups[gi]
		dst := m.x.buses[g.key.bus].buf
		if g.n == 1 {
			mb := &sh.members[g.first]
			v := &m.voices[mb.slot]
			v.render(dst, m.scratch, mb.gl, mb.gr)
			m.x.pos[mb.slot].Store(int64(v.pos >> 32))
		} else {
			m.renderGroup(g, dst)
		}
		sh.index[g.at] = 0
	}
	sh.groups, sh.members = sh.groups[:0], sh.members[:0]
}

// renderGroup sums the members of g, each from its own window start, at
// its gains, and filters the sum once into dst. A member's position and
// end follow renderPitched's, for a block whose windows fit one span.
func (m *mixer) renderGroup(g *shareGroup, dst []frame) {
	ps, sh := m.ps, m.ps.share
	n := len(dst)
	t, step := g.key.t, g.key.step
	K, half := t.Taps(), t.Half()
	p := uint64(g.key.frac) // the first output's position past its window start
	adv := uint64(n) * step // each member's position moves on by the block's steps
	span := int((p+uint64(n-1)*step)>>32) + K
	sum := sh.sum[:span]
	clear(sum)
	var kern *dsp.Kernels
	for mi := g.first; mi >= 0; mi = sh.members[mi].next {
		mb := &sh.members[mi]
		v := &m.voices[mb.slot]
		kern = v.kern
		if L := v.end - v.loopStart; v.loop {
			for int(v.pos>>32)-half-L >= v.loopStart {
				v.pos -= uint64(L) << 32
			}
		}
		if base := int(v.pos>>32) - half; !v.loop && base >= v.end {
			v.ended = true
		} else {
			v.sumStream(sum, base, mb.gl, mb.gr)
			v.pos += adv
		}
		m.x.pos[mb.slot].Store(int64(v.pos >> 32))
	}
	l, r := ps.l[:span], ps.r[:span]
	for j, f := range sum {
		l[j], r[j] = f[0], f[1]
	}
	steps := ps.steps[:n]
	rampSteps(steps, step, step)
	kern.FilterSteps(t, dst, l, r, false, p, steps, 1, 1)
	sh.filters++
}

// sumStream adds len(dst) frames of v's stream from frame base, times the
// gains (gl, gr), into dst: decodeStream's frames, through the unity
// kernels (Kernels.Mix), which scale 16-bit samples themselves.
func (v *voice) sumStream(dst []frame, base int, gl, gr float32) {
	n := len(dst)
	fb := v.kind.FrameBytes()
	for j := 0; j < n; {
		s := base + j
		if s >= v.end && v.loop {
			s = v.loopStart + (s-v.end)%(v.end-v.loopStart)
		}
		switch {
		case s < 0:
			j += min(n-j, -s)
		case s >= v.end:
			j = n
		default:
			run := min(n-j, v.end-s)
			v.kern.Mix(v.kind, dst[j:j+run], v.data[fb*s:fb*(s+run)], gl, gr)
			j += run
		}
	}
}
