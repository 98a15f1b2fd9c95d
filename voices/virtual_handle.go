package voices

import "sync/atomic"

// Virtual reports whether h's sound was virtual at the mixer's last
// ranking: tracked in time but not mixed. ok is false for a handle that
// no longer plays, and for a sound not yet ranked (played within the last
// block). Without EngineDesc.Virtual every playing sound is real. Safe
// from any goroutine; it allocates nothing. A demo draws its emitters
// with it; a game rarely needs it.
func (e *Engine) Virtual(h Handle) (virtual, ok bool) {
	s, live := e.slots.liveHandle(h)
	if !live {
		return false, false
	}
	w := e.mix.virt
	if w == nil {
		return false, true
	}
	p := w.pub[s].Load()
	mode := uint8(p)
	if uint32(p>>8) != h.gen() || mode == virtNew {
		return false, false
	}
	return mode == virtOut || mode == virtOff, true
}

// virtPub is a slot's mode as the last ranking left it, published for
// Engine.Virtual: the voice's generation above its mode's 8 bits.
type virtPub = atomic.Uint64

// publish stores slot s's mode for Engine.Virtual (assign calls it).
func (m *mixer) publish(s uint32) {
	m.virt.pub[s].Store(uint64(m.voices[s].gen)<<8 | uint64(m.virt.vv[s].mode))
}
