package voices

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestRefusalAllocs proves that refusing allocates nothing: running out of
// voices, a full queue and a stale handle happen in steady frames of a
// real game, so their errors must be built before, not per call.
func TestRefusalAllocs(t *testing.T) {
	t.Run("no voice", func(t *testing.T) {
		e, _ := offlineEngine(t, EngineDesc{MaxVoices: 2})
		_, c := clipOf(t, e, "t", mono44, tone(mono44, 441, 440, 0.5), ClipDesc{})
		for i := 0; i < 2; i++ {
			if _, err := e.Play(c, PlayDesc{}); err != nil {
				t.Fatal(err)
			}
		}
		refused := 0
		wantNoAllocs(t, "Play refused with ErrNoVoice", func() {
			if _, err := e.Play(c, PlayDesc{}); errors.Is(err, ErrNoVoice) {
				refused++
			}
		})
		if s := e.Stats(); refused == 0 || s.Refusals != uint64(refused) {
			t.Fatalf("%d refusals seen, %d counted", refused, s.Refusals)
		}
		_, err := e.Play(c, PlayDesc{})
		r := e.Stats().LastRefusal
		if err != ErrNoVoice || r.Err != ErrNoVoice || r.Call != "Play" || r.Format != mono44 ||
			!strings.Contains(r.String(), mono44.String()) {
			t.Fatalf("refused Play: %v (last refusal %v), want ErrNoVoice with the refusal naming Play of %v", err, r, mono44)
		}
	})
	t.Run("format cap", func(t *testing.T) {
		e, _ := offlineEngine(t, EngineDesc{FormatCaps: map[Format]int{mono44: 0}})
		_, c := clipOf(t, e, "t", mono44, tone(mono44, 441, 440, 0.5), ClipDesc{})
		wantNoAllocs(t, "Play refused by a format cap", func() {
			if _, err := e.Play(c, PlayDesc{}); !errors.Is(err, ErrNoVoice) {
				t.Fatalf("Play over a format cap of 0: %v", err)
			}
		})
	})
	t.Run("queue full", func(t *testing.T) {
		e, _ := offlineEngine(t, EngineDesc{QueueSize: 2})
		_, c := clipOf(t, e, "t", mono44, tone(mono44, 441, 440, 0.5), ClipDesc{})
		h, err := e.Play(c, PlayDesc{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Play(c, PlayDesc{}); err != nil {
			t.Fatal(err)
		}
		// The manual device is never rendered, so the queue stays full.
		calls := map[string]func() error{
			"Play":          func() error { _, err := e.Play(c, PlayDesc{}); return err },
			"Stop":          func() error { return e.Stop(h) },
			"SetVolume":     func() error { return e.SetVolume(h, 0.5) },
			"SetPan":        func() error { return e.SetPan(h, 0.5) },
			"SetMasterGain": func() error { return e.SetMasterGain(0.5) },
			"SetFormatGain": func() error { return e.SetFormatGain(mono44, 0.5) },
		}
		for name, call := range calls {
			wantNoAllocs(t, name+" refused with ErrQueueFull", func() {
				if err := call(); !errors.Is(err, ErrQueueFull) {
					t.Fatalf("%s on a full queue: %v", name, err)
				}
			})
			if err := call(); err != ErrQueueFull || e.Stats().LastRefusal.Call != name {
				t.Errorf("%s: %v, last refusal %v: want the bare ErrQueueFull and the call named", name, err, e.Stats().LastRefusal)
			}
		}
		if s := e.Stats(); s.Counted != 2 {
			t.Fatalf("refused Plays left %d voices counted, want the 2 queued", s.Counted)
		}
	})
	t.Run("stale handle", func(t *testing.T) {
		e, dev := offlineEngine(t, EngineDesc{})
		_, c := clipOf(t, e, "t", mono44, tone(mono44, 441, 440, 0.5), ClipDesc{})
		h, err := e.Play(c, PlayDesc{})
		if err != nil {
			t.Fatal(err)
		}
		render(t, dev, 1024) // the 10 ms clip ends
		for _, h := range []Handle{h, 0} {
			calls := map[string]func() error{
				"Stop":      func() error { return e.Stop(h) },
				"SetVolume": func() error { return e.SetVolume(h, 0.5) },
				"SetPan":    func() error { return e.SetPan(h, 0.5) },
			}
			for name, call := range calls {
				wantNoAllocs(t, name+" refused with ErrStaleHandle", func() {
					if err := call(); !errors.Is(err, ErrStaleHandle) {
						t.Fatalf("%s of %v: %v", name, h, err)
					}
				})
			}
		}
	})
}

// BenchmarkPlayRefused measures a Play refused for want of a voice: the
// cost a game pays, per sound, while the pool is exhausted, tested the two
// documented ways (errors.Is against its sentinel, a switch on the value).
// Side by side: the same refusal plus an error built per call (fmt.Errorf
// naming the format and the counts), for the ratio.
func BenchmarkPlayRefused(b *testing.B) {
	e, _ := offlineEngine(b, EngineDesc{MaxVoices: 1})
	_, c := clipOf(b, e, "t", mono44, tone(mono44, 441, 440, 0.5), ClipDesc{})
	if _, err := e.Play(c, PlayDesc{}); err != nil {
		b.Fatal(err)
	}
	b.Run("impl=ours", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := e.Play(c, PlayDesc{}); !errors.Is(err, ErrNoVoice) {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=ours-switch", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			switch _, err := e.Play(c, PlayDesc{}); err {
			case ErrNoVoice, ErrQueueFull:
			default:
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=fmt.Errorf", func(b *testing.B) {
		b.ReportAllocs()
		p := &e.slots.pools[mono44.index()]
		for b.Loop() {
			if _, err := e.Play(c, PlayDesc{}); !errors.Is(err, ErrNoVoice) {
				b.Fatal(err)
			}
			err := fmt.Errorf("%w: %v voices %d of %d, all voices %d of %d", ErrNoVoice,
				mono44, p.count(), p.cap, e.slots.counted(), e.slots.cap)
			if err == nil {
				b.Fatal("no error")
			}
		}
	})
}

// TestPeakWithinCapsAfterStall queues a burst of stealing Plays while the
// device is stalled, then renders the block that applies them all at once.
// Every new voice steals a place (some steal the ones started just before
// them in the same block), so for one block far more voices exist than
// the cap; still no voice count may pass its cap.
func TestPeakWithinCapsAfterStall(t *testing.T) {
	const maxVoices = 4
	e, dev := offlineEngine(t, EngineDesc{MaxVoices: maxVoices, Policy: PolicySteal, QueueSize: 256,
		FormatCaps: map[Format]int{st48f: 2}})
	_, a := clipOf(t, e, "a", mono44, tone(mono44, 4410, 440, 0.1), ClipDesc{})
	_, b := clipOf(t, e, "b", st48f, tone(st48f, 4800, 440, 0.1), ClipDesc{})
	for i := 0; i < maxVoices; i++ {
		if _, err := e.Play(a, PlayDesc{Loop: true}); err != nil {
			t.Fatal(err)
		}
	}
	render(t, dev, DefaultBlockFrames)
	queued := 0
	for i := 0; i < 40; i++ {
		c := a
		if i%3 == 0 {
			c = b
		}
		if _, err := e.Play(c, PlayDesc{Loop: true}); err == nil {
			queued++
		}
	}
	if queued <= maxVoices {
		t.Fatalf("only %d stealing Plays queued; the test needs more than the cap", queued)
	}
	render(t, dev, 4*DefaultBlockFrames)
	s := e.Stats()
	checkPeaks(t, s)
	if s.Steals == 0 || s.Active != maxVoices || s.Peak != maxVoices {
		t.Errorf("steals %d active %d peak %d, want steals and %d voices playing at the peak", s.Steals, s.Active, s.Peak, maxVoices)
	}
	if s.MixPeak < s.Peak || s.MixPeak > 2*maxVoices {
		t.Errorf("MixPeak %d, want %d..%d (fading stolen voices included)", s.MixPeak, s.Peak, 2*maxVoices)
	}
}

// TestRefusedPlayLeavesPeaks checks that refused Plays do not count
// towards any peak: a format whose every Play was refused (the total cap
// was full) peaks at 0, and the total at what actually played.
func TestRefusedPlayLeavesPeaks(t *testing.T) {
	for _, policy := range []Policy{PolicyRefuse, PolicySteal} {
		e, dev := offlineEngine(t, EngineDesc{MaxVoices: 2, Policy: policy})
		_, a := clipOf(t, e, "a", mono44, tone(mono44, 4410, 440, 0.1), ClipDesc{})
		_, b := clipOf(t, e, "b", st48f, tone(st48f, 4800, 440, 0.1), ClipDesc{})
		for i := 0; i < 2; i++ {
			if _, err := e.Play(b, PlayDesc{Loop: true, Protected: true}); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < 50; i++ {
			_, _ = e.Play(a, PlayDesc{})
			if i%10 == 0 {
				render(t, dev, DefaultBlockFrames)
			}
		}
		render(t, dev, DefaultBlockFrames)
		s := e.Stats()
		if fa := s.Formats[mono44.index()]; fa.Peak != 0 || s.Peak != 2 || s.Refusals != 50 {
			t.Errorf("policy %d: %v peak %d, total peak %d, %d refusals; want 0, 2, 50", policy, mono44, fa.Peak, s.Peak, s.Refusals)
		}
	}
}

// checkPeaks fails, and returns false, if any voice count or peak in s
// passes its cap.
func checkPeaks(t *testing.T, s Stats) bool {
	t.Helper()
	ok := true
	if s.Peak > s.MaxVoices || s.Counted > s.MaxVoices || s.Active > s.MaxVoices {
		t.Errorf("peak %d counted %d active %d above the cap of %d", s.Peak, s.Counted, s.Active, s.MaxVoices)
		ok = false
	}
	for _, f := range s.Formats {
		if f.Peak > f.Cap || f.Active > f.Cap {
			t.Errorf("%v: peak %d active %d above its cap of %d", f.Format, f.Peak, f.Active, f.Cap)
			ok = false
		}
	}
	return ok
}

// TestPeakConcurrent hammers Play from many goroutines, far beyond the
// caps, while the audio goroutine renders and steals, and checks that no
// count or peak ever passes its cap (run it under -race too).
func TestPeakConcurrent(t *testing.T) {
	for _, policy := range []Policy{PolicyRefuse, PolicySteal} {
		t.Run([]string{"refuse", "steal"}[policy], func(t *testing.T) { hammerPlay(t, policy) })
	}
}

// hammerPlay is TestPeakConcurrent for one policy.
func hammerPlay(t *testing.T, policy Policy) {
	const maxVoices = 8
	e, dev := offlineEngine(t, EngineDesc{MaxVoices: maxVoices, Policy: policy, QueueSize: 64,
		FormatCaps: map[Format]int{mono44: 3, st48f: 5}})
	var clips []Clip
	for _, f := range []Format{mono44, st48f, {Rate: 22050, Channels: 2, Encoding: EncodingInt16LE}} {
		_, c := clipOf(t, e, f.String(), f, tone(f, f.Rate/100, 440, 0.1), ClipDesc{})
		clips = append(clips, c)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	var played atomic.Int64
	defer func() {
		stop.Store(true)
		wg.Wait()
	}()
	for g := 0; g < 6; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !stop.Load(); i++ {
				h, err := e.Play(clips[(g+i)%len(clips)], PlayDesc{Priority: int16(i % 4)})
				switch {
				case err == nil:
					played.Add(1)
					if i%5 == 0 {
						_ = e.Stop(h)
					}
				case !errors.Is(err, ErrNoVoice) && !errors.Is(err, ErrQueueFull):
					t.Errorf("Play: %v", err)
					return
				}
			}
		}()
	}
	// Render until the producers have played and been refused plenty,
	// checking the counts as they move. The targets are counts, not a
	// rate: under -race on two cores this reaches about 800 plays a
	// second, so the deadline only catches a hang.
	buf := make([]byte, 64*8)
	deadline := time.Now().Add(2 * time.Minute)
	for i := 0; played.Load() < 3000 || e.Stats().Refusals < 1000; i++ {
		if time.Now().After(deadline) {
			t.Fatalf("%d played, %d refused in 2 minutes: producers or mixer stuck", played.Load(), e.Stats().Refusals)
		}
		if _, err := dev.Render(buf); err != nil {
			t.Fatal(err)
		}
		if i%16 == 0 && !checkPeaks(t, e.Stats()) {
			return
		}
	}
	stop.Store(true)
	wg.Wait()
	s := e.Stats()
	checkPeaks(t, s)
	if policy == PolicySteal && (s.Steals == 0 || s.MixPeak > 2*maxVoices) {
		t.Errorf("%d steals, MixPeak %d: want steals, and at most twice the cap mixed at once", s.Steals, s.MixPeak)
	}
}
