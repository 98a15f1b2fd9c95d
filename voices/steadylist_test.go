package voices

import (
	"fmt"
	"testing"
	"time"
)

// TestSteadyListFollowsChanges plays one script of commands on two
// engines, one mixing from the steady list where it holds and one that
// drops it before every block, and wants the same bits from both. Each
// command comes while the list holds, so a stale entry (a gain, pause,
// fade, stop or bus change that reached the list a block late, or never)
// shows as a difference, in the bits or in the voices left active. It also wants the list to hold on the blocks
// before each command (but where a voice or bus is paused), so that the
// test cannot pass by never using it.
func TestSteadyListFollowsChanges(t *testing.T) {
	type step struct {
		name string
		do   func(e *Engine, h []Handle, fx Bus) error
		off  bool // a paused voice or bus before it: no list holds
	}
	steps := []step{
		{"volume", func(e *Engine, h []Handle, _ Bus) error { return e.SetVolume(h[0], 0.5) }, false},
		{"pan", func(e *Engine, h []Handle, _ Bus) error { return e.SetPan(h[1], 0.7) }, false},
		{"member volume", func(e *Engine, h []Handle, _ Bus) error { return e.SetVolume(h[2], 0.3) }, false},
		{"pause", func(e *Engine, h []Handle, _ Bus) error { return e.Pause(h[0]) }, false},
		{"resume", func(e *Engine, h []Handle, _ Bus) error { return e.Resume(h[0]) }, true},
		{"fade", func(e *Engine, h []Handle, _ Bus) error { return e.Fade(h[1], 0.2, 3*time.Millisecond, AfterNone) }, false},
		{"member fade", func(e *Engine, h []Handle, _ Bus) error { return e.Fade(h[2], 0.1, 3*time.Millisecond, AfterNone) }, false},
		{"bus pause", func(e *Engine, _ []Handle, fx Bus) error { return e.PauseBus(fx) }, false},
		{"bus resume", func(e *Engine, _ []Handle, fx Bus) error { return e.ResumeBus(fx) }, true},
		{"bus fade stop", func(e *Engine, _ []Handle, fx Bus) error { return e.FadeBus(fx, 0.5, 4*time.Millisecond, AfterStop) }, false},
		{"format gain", func(e *Engine, _ []Handle, _ Bus) error { return e.SetFormatGain(st48f, 0.6) }, false},
		{"stop", func(e *Engine, h []Handle, _ Bus) error { return e.Stop(h[0]) }, false},
		{"member stop", func(e *Engine, h []Handle, _ Bus) error { return e.Stop(h[2]) }, false},
	}
	const block, settle = 64, 6 // blocks between commands: fades end, the list holds again
	run := func(useList bool) (out []float32, held []bool, active []int) {
		e, dev := offlineEngine(t, EngineDesc{BlockFrames: block, Buses: []BusDesc{{Name: "fx"}}})
		fx, _ := e.Bus("fx")
		pcm := tone(st48f, 4800, 440, 0.3)
		_, c48 := clipOf(t, e, "c48", st48f, pcm, ClipDesc{})
		_, c44 := clipOf(t, e, "c44", mono44, tone(mono44, 4410, 330, 0.3), ClipDesc{})
		var h []Handle
		for _, p := range []struct {
			c   Clip
			bus Bus
		}{{c48, Master}, {c48, fx}, {c44, Master}, {c44, fx}, {c48, Master}} {
			hv, err := e.Play(p.c, PlayDesc{Loop: true, Bus: p.bus})
			if err != nil {
				t.Fatal(err)
			}
			h = append(h, hv)
		}
		blocks := func(n int) {
			for range n {
				if !useList {
					e.mix.steady.drop()
				}
				l, _ := render(t, dev, block)
				out = append(out, l...)
			}
		}
		blocks(settle)
		for _, s := range steps {
			held = append(held, e.mix.steady.ok)
			if err := s.do(e, h, fx); err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			blocks(settle)
			active = append(active, e.Stats().Active)
		}
		return out, held, active
	}
	want, _, wantActive := run(false)
	got, held, gotActive := run(true)
	for i, s := range steps {
		if held[i] == s.off {
			t.Errorf("before %q: the steady list held %v, want %v", s.name, held[i], !s.off)
		}
	}
	for i, s := range steps {
		if gotActive[i] != wantActive[i] {
			t.Errorf("after %q: %d voices active with the steady list, %d without", s.name, gotActive[i], wantActive[i])
		}
	}
	for i := range want {
		if got[i] != want[i] {
			b := i/block - settle
			at := "before the first command"
			if b >= 0 {
				at = fmt.Sprintf("block %d after %q", b%settle, steps[b/settle].name)
			}
			t.Fatalf("frame %d (%s): %v with the steady list, %v without", i, at, got[i], want[i])
		}
	}
}
