package voices

import (
	"sync"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

// The paced sink of TestPacedPullStartLatency: Ebitengine's default
// player buffer, read at once every half second of wall time.
const (
	pacedPullFrames = 24000
	pacedPullEvery  = 500 * time.Millisecond
	pacedPlayEvery  = 5 * time.Millisecond // 200 Plays a second
	pacedClipFrames = 4800                 // 100 ms: at 200 a second, 20 overlap
)

// pacedRun is what pacedPull measured: the engine's stats and, on the
// engine clock (Engine.now), when each pull began and each Play was
// called, with the Plays Play itself refused.
type pacedRun struct {
	stats      Stats
	pulls      []int64
	calls      []int64
	refusedNow int
}

// pacedPull plays plays Plays, one every 5 ms (200 a second), into an
// engine on a Pull that a sink reads the way Ebitengine's player does
// with its default buffer: half a second at once, every half second of
// wall time, as a sound card consumes it. It returns the engine's stats
// once every voice has had time to play, and the timeline it ran.
func pacedPull(t *testing.T, latency time.Duration, plays int) pacedRun {
	pull := NewPull(48000)
	e, err := NewEngine(EngineDesc{Device: pull, StartLatency: latency})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	_, c := clipOf(t, e, "shot", mono48f, tone(mono48f, pacedClipFrames, 440, 0.05), ClipDesc{})
	run := pacedRun{pulls: make([]int64, 0, 64), calls: make([]int64, 0, plays)}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		buf := make([]byte, pacedPullFrames*8)
		next := time.Now()
		for {
			select {
			case <-stop:
				return
			default:
			}
			run.pulls = append(run.pulls, e.now())
			if _, err := pull.Read(buf); err != nil {
				return
			}
			next = next.Add(pacedPullEvery)
			time.Sleep(time.Until(next))
		}
	}()
	start := time.Now()
	for i := range plays {
		time.Sleep(time.Until(start.Add(time.Duration(i) * pacedPlayEvery)))
		run.calls = append(run.calls, e.now())
		if _, err := e.Play(c, PlayDesc{}); err == ErrNoVoice {
			run.refusedNow++
		} else if err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(1200 * time.Millisecond) // the last pull plays the last starts
	close(stop)
	wg.Wait()
	run.stats = e.Stats()
	return run
}

// TestPacedPullStartLatency is issue 18's Ebitengine case: 200 Plays a
// second through a Pull read half a second at a time. Placed by their
// issue time (StartLatency 0.5 s), the starts spread as they were
// called, and at most 2% may be refused beyond what the voices really
// overlap (pacedOverlap); started at the next block, as without
// StartLatency, every Play of a pull starts in its first block and the
// voices fill at once.
//
// On a loaded machine the sink or the Plays run late: a pull half a
// second and 60 ms after the last leaves 12 Plays no frame of their own,
// and they start together; a producer 100 ms late calls 20 at once.
// Those overlaps are real (a game that hitches plays its sounds together
// too), so the model counts them from the measured timeline. The test
// logs how late the sink and the Plays ran. A run whose timeline alone
// forces past 2% runs again, twice at most.
func TestPacedPullStartLatency(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 9 s of real time, up to 27 s on a loaded machine")
	}
	if testenv.Race {
		// The race detector slows the mixer and the playing goroutine
		// several times over: the plays' timing, which this test is
		// about, no longer resembles a game's.
		t.Skip("a real-time pacing test; the race detector distorts its timing")
	}
	const plays, allowed = 800, 800 * 2 / 100
	for try := 1; ; try++ {
		r := pacedPull(t, 500*time.Millisecond, plays)
		forced := pacedOverlap(r, DefaultBlockFrames, DefaultMaxVoices)
		sink, player := r.lateness()
		t.Logf("StartLatency 0.5 s, run %d: %d of %d refused (%d by Play), %d forced by the timeline, at most %d voices at once; sink up to %v late, Plays up to %v",
			try, r.stats.Refusals, plays, r.refusedNow, forced, r.stats.Peak, sink, player)
		if extra := int(r.stats.Refusals) - forced; extra > allowed {
			t.Fatalf("%d of %d Plays refused, %d beyond the %d the voices' overlap forces, want at most 2%%", r.stats.Refusals, plays, extra, forced)
		}
		// A timeline that alone forces past 2% did not play 200 a second
		// evenly: run again, twice at most, to see the target itself.
		if forced <= allowed || try == 3 {
			break
		}
		t.Logf("the sink or the Plays ran late enough to force %d refusals: running again", forced)
	}
	r := pacedPull(t, 0, 400)
	t.Logf("no StartLatency: %d of 400 refused, %d voices at once", r.stats.Refusals, r.stats.Peak)
	if r.stats.Refusals < 400/5 {
		t.Errorf("only %d of 400 refused without StartLatency: the test's sink does not stack the starts", r.stats.Refusals)
	}
}
