package voices

import (
	"errors"
	"testing"
)

// setGen moves free slot s to generation g, as if it had served g voices:
// the hook that brings a slot to the end of its generations without 2^32
// Plays.
func (t *slotTable) setGen(s, g uint32) {
	if t.states[s].bank.Load() != nil {
		panic("setGen of a playing slot")
	}
	t.states[s].gen.Store(uint64(g))
}

func TestHandleString(t *testing.T) {
	for h, want := range map[Handle]string{
		0:                         "none",
		makeHandle(0, 0):          "slot 0 gen 0",
		makeHandle(3, 7):          "slot 3 gen 7",
		makeHandle(1023, lastGen): "slot 1023 gen 4294967295",
	} {
		if got := h.String(); got != want {
			t.Errorf("Handle(%#x).String() = %q, want %q", uint64(h), got, want)
		}
	}
}

// TestSlotRetiresAtLastGeneration drives a slot through the end of its
// generations: after 2^32 voices the slot is retired for good, so no
// stale handle of it can ever become valid again (before, the generation
// wrapped to 0 and the first handle the slot had issued came back to
// life), and the retirement shows in Stats instead of shrinking the pool
// silently.
func TestSlotRetiresAtLastGeneration(t *testing.T) {
	// MaxVoices 1 under PolicyRefuse: one slot per format.
	e, dev := offlineEngine(t, EngineDesc{MaxVoices: 1})
	_, c := clipOf(t, e, "blip", mono44, tone(mono44, 441, 440, 0.5), ClipDesc{})
	play := func() Handle {
		t.Helper()
		h, err := e.Play(c, PlayDesc{})
		if err != nil {
			t.Fatalf("Play: %v", err)
		}
		render(t, dev, 1024) // the 10 ms clip ends
		if e.Playing(h) {
			t.Fatalf("%v still playing after its clip ended", h)
		}
		return h
	}
	slot := e.slots.pools[mono44.index()].base
	first := play()
	if first != makeHandle(slot, 0) {
		t.Fatalf("first handle %v, want slot %d gen 0", first, slot)
	}
	e.slots.setGen(slot, lastGen-1) // 2^32 - 1 voices later
	penultimate := play()
	last := play()
	if penultimate != makeHandle(slot, lastGen-1) || last != makeHandle(slot, lastGen) {
		t.Fatalf("handles %v, %v; want the slot's last two generations", penultimate, last)
	}

	// The format has no slot left: Play is refused, visibly, rather than
	// handed the retired slot again under a generation already issued.
	h, err := e.Play(c, PlayDesc{})
	if h == first || e.Playing(first) {
		t.Fatalf("the first handle %v is valid again after 2^32 voices", first)
	}
	if err != ErrNoVoice {
		t.Fatalf("Play with the format's only slot retired: %v, %v; want ErrNoVoice", h, err)
	}
	s := e.Stats()
	fs := s.Formats[mono44.index()]
	if s.Retired != 1 || fs.Retired != 1 || fs.Slots != 0 {
		t.Fatalf("after the last generation: Retired %d, %v Retired %d Slots %d; want 1, 1, 0", s.Retired, mono44, fs.Retired, fs.Slots)
	}
	if r := e.Stats().LastRefusal; r.Reason != reasons[reasonBusy].text || r.Format != mono44 {
		t.Fatalf("last refusal %v, want the busy-or-retired reason for %v", r, mono44)
	}
	for _, h := range []Handle{first, penultimate, last} {
		if e.Playing(h) {
			t.Fatalf("stale %v is valid again", h)
		}
		if err := e.Stop(h); !errors.Is(err, ErrStaleHandle) {
			t.Fatalf("Stop(%v) of a retired slot: %v, want ErrStaleHandle", h, err)
		}
	}
	// Other formats keep their slots.
	_, other := clipOf(t, e, "other", st48f, tone(st48f, 480, 440, 0.5), ClipDesc{})
	if _, err := e.Play(other, PlayDesc{}); err != nil {
		t.Fatalf("Play of another format: %v", err)
	}
	if s := e.Stats(); s.Formats[st48f.index()].Slots != 1 || s.Retired != 1 {
		t.Fatalf("another format lost slots: %+v", s.Formats[st48f.index()])
	}
}

// TestSlotRetiresUnderSteal covers the steal reserve: with two slots per
// format, retiring one leaves the other in use, and Stats shows the pool
// one slot smaller.
func TestSlotRetiresUnderSteal(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{MaxVoices: 1, Policy: PolicySteal})
	_, c := clipOf(t, e, "blip", mono44, tone(mono44, 441, 440, 0.5), ClipDesc{})
	p := &e.slots.pools[mono44.index()]
	e.slots.setGen(p.base, lastGen)
	h, err := e.Play(c, PlayDesc{})
	if err != nil {
		t.Fatal(err)
	}
	render(t, dev, 1024)
	if fs := e.Stats().Formats[mono44.index()]; fs.Slots != 1 || fs.Retired != 1 || fs.Cap != 1 {
		t.Fatalf("after retiring one of two slots: %+v, want Slots 1 Retired 1 Cap 1", fs)
	}
	for i := 0; i < 3; i++ {
		h2, err := e.Play(c, PlayDesc{})
		if err != nil {
			t.Fatalf("Play %d on the remaining slot: %v", i, err)
		}
		if h2 == h || e.Playing(h) {
			t.Fatalf("the retired slot's handle %v came back", h)
		}
		render(t, dev, 1024)
	}
}
