package voices

import (
	"fmt"
	"sync/atomic"
)

// streamMix is the mixer's side of streaming: which stream voices mix
// this block, and the underrun counters. The barrier holder owns it; the
// counters are read by Stats.
type streamMix struct {
	gated          int // stream voices gated in this block
	underruns      atomic.Uint64
	underrunFrames atomic.Uint64
}

// streamGate decides whether stream voice v mixes this block: only if
// the ring holds every frame the block may read. Otherwise the voice
// plays silence for the block, keeps its position, and the block is
// counted as an underrun (a run of starved blocks as one event). A voice
// waiting for its stream to rewind waits silently, uncounted. A fading
// voice that cannot mix ends at once: it would be silent anyway.
func (m *mixer) streamGate(v *voice) bool {
	st := v.clip.stream
	if st.rewinding.Load() {
		if v.fading {
			v.ended = true
		}
		return false
	}
	if !st.eof.Load() && st.written.Load()-st.consumed.Load() < st.need {
		m.st.underrunFrames.Add(uint64(m.block))
		if !st.starved {
			st.starved = true
			m.st.underruns.Add(1)
		}
		if v.fading {
			v.ended = true
		}
		return false
	}
	st.starved, st.gated, st.v = false, true, v
	st.lastPos = (v.pos >> 32) % st.n
	m.st.gated++
	return true
}

// streamsAdvance publishes how far each stream voice mixed this block,
// and ends one that has played its stream's last frame. mixVoices calls it once every voice is rendered.
func (m *mixer) streamsAdvance() {
	if m.st.gated == 0 {
		return
	}
	m.st.gated = 0
	for _, s := range m.active {
		st := m.voices[s].clip.stream
		if st == nil || !st.gated {
			continue
		}
		st.gated = false
		v := st.v
		p := (v.pos >> 32) % st.n
		c := st.consumed.Load() + (p+st.n-st.lastPos)%st.n
		st.consumed.Store(c)
		if st.eof.Load() && c >= st.final.Load() {
			v.ended = true
		}
	}
}

// voiceEnded is endVoice's hook: the stream rewinds for its next voice.
func (st *streamState) voiceEnded() { st.rewinding.Store(true) }

// checkPlay is Play's check of a stream clip's settings. The voice always
// loops the ring; the stream's own loop is the decoder's.
func (st *streamState) checkPlay(d *PlayDesc) error {
	if d.Offset != 0 {
		return fmt.Errorf("%w: stream %q cannot start at Offset %d (it is decoded from its start)", ErrInvalid, st.s.name, d.Offset)
	}
	if d.Loop != st.loop {
		return fmt.Errorf("%w: stream %q is decoded with Loop %v; Play asked for Loop %v", ErrInvalid, st.s.name, st.loop, d.Loop)
	}
	d.Loop = true
	return nil
}

// streamStats fills Stats' streaming fields.
func (e *Engine) streamStats(s *Stats) {
	s.StreamUnderruns = e.mix.st.underruns.Load()
	s.StreamUnderrunFrames = e.mix.st.underrunFrames.Load()
}
