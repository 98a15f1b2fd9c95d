package voices

import (
	"github.com/steadyframe/steadyframe/internal/testenv"
	"sync"
	"testing"
	"time"
)

// pacedPull plays plays Plays, one every 5 ms (200 a second), into an
// engine on a Pull that a sink reads the way Ebitengine's player does
// with its default buffer: half a second at once, every half second of
// wall time, as a sound card consumes it. It returns the engine's stats
// once every voice has had time to play.
func pacedPull(t *testing.T, latency time.Duration, plays int) Stats {
	pull := NewPull(48000)
	e, err := NewEngine(EngineDesc{Device: pull, StartLatency: latency})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	// A 100 ms tone: at 200 a second, 20 overlap, under the 32 voices.
	_, c := clipOf(t, e, "shot", mono48f, tone(mono48f, 4800, 440, 0.05), ClipDesc{})
	const pullFrames = 24000
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		buf := make([]byte, pullFrames*8)
		next := time.Now()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := pull.Read(buf); err != nil {
				return
			}
			next = next.Add(500 * time.Millisecond)
			time.Sleep(time.Until(next))
		}
	}()
	start := time.Now()
	for i := range plays {
		time.Sleep(time.Until(start.Add(time.Duration(i) * 5 * time.Millisecond)))
		if _, err := e.Play(c, PlayDesc{}); err != nil && err != ErrNoVoice {
			t.Fatal(err)
		}
	}
	time.Sleep(1200 * time.Millisecond) // the last pull plays the last starts
	close(stop)
	wg.Wait()
	return e.Stats()
}

// TestPacedPullStartLatency is issue 18's Ebitengine case: 200 Plays a
// second through a Pull read half a second at a time. Placed by their
// issue time (StartLatency 0.5 s), the starts spread as they were
// called, and at most 2% may be refused; started at the next block, as
// without StartLatency, every Play of a pull starts in its first block
// and the voices fill at once.
func TestPacedPullStartLatency(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 6 s of real time")
	}
	if testenv.Race {
		// The race detector slows the mixer and the playing goroutine
		// several times over: the plays' timing, which this test is
		// about, no longer resembles a game's.
		t.Skip("a real-time pacing test; the race detector distorts its timing")
	}
	s := pacedPull(t, 500*time.Millisecond, 800)
	t.Logf("StartLatency 0.5 s: %d of 800 refused, at most %d voices at once", s.Refusals, s.Peak)
	if s.Refusals > 800*2/100 {
		t.Errorf("%d of 800 Plays refused, want at most 2%%", s.Refusals)
	}
	s = pacedPull(t, 0, 400)
	t.Logf("no StartLatency: %d of 400 refused, %d voices at once", s.Refusals, s.Peak)
	if s.Refusals < 400/5 {
		t.Errorf("only %d of 400 refused without StartLatency: the test's sink does not stack the starts", s.Refusals)
	}
}
