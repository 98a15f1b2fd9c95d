package voices

import "testing"

// TestPlayArgsDoNotLeak plays a voice with a start time, an offset and a
// pitch, ends it, then plays its slot again plainly: the plain voice
// must start at frame 0 of the clip, at the next block, unpitched, not
// with the slot's earlier playArgs.
func TestPlayArgsDoNotLeak(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{MaxVoices: 1, Formats: []Format{mono48f}})
	_, c := clipOf(t, e, "dc", mono48f, dcPCM(mono48f, 4800, 0.1), ClipDesc{})
	h, err := e.Play(c, PlayDesc{At: e.Clock() + 10, Offset: 100, Pitch: 1.5})
	if err != nil {
		t.Fatal(err)
	}
	render(t, dev, 256)
	if err := e.Stop(h); err != nil {
		t.Fatal(err)
	}
	render(t, dev, 512)
	if e.Playing(h) {
		t.Fatal("the first voice still plays")
	}
	h2, err := e.Play(c, PlayDesc{})
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := h.slot(); s != func() uint32 { s2, _ := h2.slot(); return s2 }() {
		t.Fatalf("the plain Play took another slot (%v, then %v)", h, h2)
	}
	if err := e.SetPitch(h2, 1.2); err != ErrNotPitched {
		t.Errorf("SetPitch of the plain voice: %v, want ErrNotPitched", err)
	}
	// The same plain Play on a fresh engine, after as many frames, is
	// the reference: its position counts the limiter's look-ahead.
	ref, refDev := offlineEngine(t, EngineDesc{MaxVoices: 1, Formats: []Format{mono48f}})
	_, rc := clipOf(t, ref, "dc", mono48f, dcPCM(mono48f, 4800, 0.1), ClipDesc{})
	render(t, refDev, 256+512) // the same history of blocks as e's
	rh, err := ref.Play(rc, PlayDesc{})
	if err != nil {
		t.Fatal(err)
	}
	render(t, dev, 256)
	render(t, refDev, 256)
	p, ok := e.Position(h2)
	want, _ := ref.Position(rh)
	if !ok || p != want || want == 0 {
		t.Errorf("plain voice at source frame %d (%v) after one block, want %d: started on time, from frame 0, at pitch 1", p, ok, want)
	}
}

// TestRateBusDoesNotLeak plays a resampled voice on a bus (on that bus's
// rate bus), ends it, then plays its slot again on Master: the second
// voice must mix into Master, leaving the bus silent.
func TestRateBusDoesNotLeak(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{MaxVoices: 1, Formats: []Format{mono44}, Buses: []BusDesc{{Name: "sfx"}}})
	sfx, _ := e.Bus("sfx")
	_, c := clipOf(t, e, "t", mono44, tone(mono44, 44100, 440, 0.5), ClipDesc{})
	h, err := e.Play(c, PlayDesc{Bus: sfx})
	if err != nil {
		t.Fatal(err)
	}
	render(t, dev, 1024)
	if l := e.Stats().Buses[sfx].Level; l == 0 {
		t.Fatal("the bus is silent while its voice plays")
	}
	if err := e.Stop(h); err != nil {
		t.Fatal(err)
	}
	render(t, dev, 1024)
	h2, err := e.Play(c, PlayDesc{})
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := h.slot(); a != func() uint32 { b, _ := h2.slot(); return b }() {
		t.Fatalf("the second Play took another slot (%v, then %v)", h, h2)
	}
	render(t, dev, 2048)
	s := e.Stats()
	if s.Buses[sfx].Level != 0 || s.Buses[Master].Level == 0 {
		t.Errorf("a Master voice after a bus's: bus level %v, Master level %v; want 0 and above 0", s.Buses[sfx].Level, s.Buses[Master].Level)
	}
}
