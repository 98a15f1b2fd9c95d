package voices

import (
	"testing"
	"time"
)

// TestBusAllocs proves issue 18's calls and the mixer's work for them
// allocate nothing once warm: Play with every new field, Pause, Resume,
// Fade, the bus calls, PollEvent, Position, Clock and Stats, with the
// mixer rendering buses, ducking, fades, scheduled starts, instance
// steals and events.
func TestBusAllocs(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{QueueSize: 4096, Policy: PolicySteal, Events: 256, Buses: []BusDesc{
		{Name: "world"}, {Name: "sfx", Parent: "world", MaxVoices: 8},
		{Name: "music", Duck: DuckDesc{By: "sfx", Depth: 9, Attack: 20 * time.Millisecond, Release: 100 * time.Millisecond}},
	}})
	sfx, _ := e.Bus("sfx")
	world, _ := e.Bus("world")
	music, _ := e.Bus("music")
	b, err := e.NewBank("b", tone(mono44, 4410, 440, 0.3))
	if err != nil {
		t.Fatal(err)
	}
	c, err := b.Clip(ClipDesc{Format: mono44, MaxInstances: 3, Instances: InstancesStealQuietest, Cooldown: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	// c2 steals on every Play past its three instances; c's cooldown of a
	// nanosecond (one frame) refuses Plays that start on its last start's
	// frame, so the steals do not rest on it.
	c2, err := b.Clip(ClipDesc{Format: mono44, MaxInstances: 3, Instances: InstancesStealOldest})
	if err != nil {
		t.Fatal(err)
	}
	_, bed := clipOf(t, e, "bed", mono44, tone(mono44, 4410, 220, 0.3), ClipDesc{})
	if _, err := e.Play(bed, PlayDesc{Loop: true, Bus: music, FadeIn: 10 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1024*8)
	i := 0
	wantNoAllocs(t, "Play with every field, Pause, Resume, Fade, bus calls, events, Stats, and the mixer", func() {
		i++
		h, err := e.Play(c, PlayDesc{Volume: 0.5, Bus: sfx, FadeIn: 5 * time.Millisecond, At: e.Clock() + 100, Offset: 10})
		if err != nil && err != ErrNoVoice && err != ErrCooldown {
			t.Fatal(err)
		}
		if _, err := e.Play(c2, PlayDesc{Volume: 0.4, Bus: sfx}); err != nil && err != ErrNoVoice {
			t.Fatal(err)
		}
		_ = e.Pause(h)
		_ = e.Resume(h)
		if i%4 == 0 {
			_ = e.Fade(h, 0.1, 20*time.Millisecond, AfterStop)
		}
		_, _ = e.Position(h)
		_ = e.FadeBus(world, float32(i%3)*0.5, 30*time.Millisecond, AfterNone)
		_ = e.MuteBus(music, i%7 == 0)
		if i%5 == 0 {
			_ = e.PauseBus(sfx)
		} else {
			_ = e.ResumeBus(sfx)
		}
		_, _ = dev.Render(buf)
		for {
			if _, ok := e.PollEvent(); !ok {
				break
			}
		}
		_ = e.Stats()
	})
	if s := e.Stats(); s.Steals == 0 {
		t.Errorf("no instance was stolen: steals %d", s.Steals)
	}
}
