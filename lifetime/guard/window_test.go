package guard

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestGuardWindowsTileArmedFrames: every armed frame is checked in
// exactly one span, and the open window is checked by Verdict.
func TestGuardWindowsTileArmedFrames(t *testing.T) {
	g, _ := newTestGuard(t, Desc{Settle: 3, Window: 8, MinFrames: 97, Sites: true})
	for i := 0; i < 100; i++ {
		g.BeginFrame()
		g.EndFrame()
	}
	r := g.Report()
	if r.Armed != 96 || r.Open != 1 {
		t.Fatalf("before Verdict: armed %d open %d, want 12 windows of 8 checked and 1 frame open", r.Armed, r.Open)
	}
	if err := g.Verdict(); err != nil {
		t.Fatalf("Verdict = %v, want a pass over 97 clean frames", err)
	}
	r = g.Report()
	if r.Armed != 97 || r.Open != 0 || r.InWindows != 97 || r.PerFrame != 0 || len(r.Narrowed) != 0 {
		t.Fatalf("after Verdict: %+v, want 97 frames checked in windows", r)
	}
	// A tolerated span (the runtime's own allocation) breaks the chain,
	// and the next frame reads afresh.
	if r.Cost.Frames != 97 || r.Cost.Timed < 13 || r.Cost.Timed > 13+r.Tolerated {
		t.Fatalf("cost %+v (%d tolerated), want 97 frames of which 13 read a count (the first, and each window's last)",
			r.Cost, r.Tolerated)
	}
}

// TestGuardWindowNarrowsToTheFrame: a flagged window names its range and
// site; the guard then counts frame by frame, so a recurring violation is
// named with its frame, and windows resume after Window clean frames.
//
// Count-only mode cannot tell the runtime's own allocations (an M for a
// new thread) from ours, and one would add a span; so it gets three
// sessions and must have one exact one.
func TestGuardWindowNarrowsToTheFrame(t *testing.T) {
	for _, sites := range []bool{true, false} {
		attempts := 1
		if !sites {
			attempts = 3
		}
		exactSession(t, attempts, func() error { return narrowSession(t, sites) })
	}
}

// exactSession runs session up to attempts times until it returns nil. A
// test whose spans depend on nothing else allocating gets more than one
// attempt where the runtime's own allocations can intervene; a real
// defect fails every attempt.
func exactSession(t *testing.T, attempts int, session func() error) {
	t.Helper()
	for try := 1; ; try++ {
		err := session()
		if err == nil {
			return
		}
		if try == attempts {
			t.Fatalf("%v (in each of %d sessions)", err, attempts)
		}
		t.Logf("session %d: %v; the runtime's own allocations may have intervened, retrying", try, err)
	}
}

func narrowSession(t *testing.T, sites bool) error {
	g, _ := newTestGuard(t, Desc{Settle: 1, Window: 8, Sites: sites})
	pokes := map[int]bool{5: true, 12: true, 30: true}
	r := run(g, 40, func(i int) {
		if pokes[i] {
			AllocPoke()
		}
	})
	// 2-9: window, flagged. 10-11 alone and clean, 12 alone and flagged,
	// 13-20 alone and clean, then windows 21-28, 29-36 (flagged) and
	// 37-40 alone.
	want := []Span{{2, 9}, {12, 12}, {29, 36}}
	if len(r.Log) != len(want) {
		return fmt.Errorf("violations %+v, want spans %v", r.Log, want)
	}
	for i, v := range r.Log {
		if v.Frame != want[i].First || v.Last != want[i].Last {
			return fmt.Errorf("violation %d spans %s, want %v", i, v.span(), want[i])
		}
		if sites && !hasSite(v.Sites, pokeFunc) {
			return fmt.Errorf("violation %s does not name the poke: %+v", v.span(), v.Sites)
		}
	}
	narrowed := []Span{{10, 20}, {37, 40}}
	if len(r.Narrowed) != 2 || r.Narrowed[0] != narrowed[0] || r.Narrowed[1] != narrowed[1] || r.NarrowedRuns != 2 {
		return fmt.Errorf("narrowed %v (%d runs), want %v", r.Narrowed, r.NarrowedRuns, narrowed)
	}
	if r.PerFrame != 15 || r.InWindows != 24 || r.Armed != 39 {
		return fmt.Errorf("per frame %d, in windows %d, armed %d; want 15, 24, 39", r.PerFrame, r.InWindows, r.Armed)
	}
	err := g.Err().Error()
	if !strings.Contains(err, "frames 2-9 made ") || sites && !strings.Contains(err, "AllocPoke") {
		return fmt.Errorf("Err() = %v, want the first window named", err)
	}
	return nil
}

// TestGuardWindowCountsBetweenFrames: with windows the time between
// frames is guarded too, inside a window, between two chained windows and
// between two chained frames counted alone; CloseWindow takes deliberate
// work out of it.
//
// A span holding the runtime's own allocation is tolerated, and reporting
// it breaks the chain, which moves a poke made between frames out of the
// expected span; so each part gets three sessions and must have one exact
// one.
func TestGuardWindowCountsBetweenFrames(t *testing.T) {
	exactSession(t, 3, func() error {
		g, _ := newTestGuard(t, Desc{Settle: 1, Window: 4, Sites: true})
		frame := func() { g.BeginFrame(); g.EndFrame() }
		frame() // settling
		for range 4 {
			frame() // 2-5: a clean window, chained to the next
		}
		AllocPoke() // between windows: window 6-9 counts it
		frame()
		AllocPoke() // between frames 6 and 7, inside window 6-9
		frame()
		frame()
		frame() // 9 closes 6-9, flagged; the guard narrows
		frame() // 10, alone and clean, chained to 11
		AllocPoke()
		frame() // 11 counts the poke before it
		g.CloseWindow()
		AllocPoke() // outside every span: reporting 11 broke the chain
		frame()
		r := g.Report()
		want := []struct {
			span  Span
			pokes int64
		}{{Span{6, 9}, 2}, {Span{11, 11}, 1}}
		if len(r.Log) != len(want) || r.Armed != 11 {
			return fmt.Errorf("armed %d, violations %+v; want 11 and %v", r.Armed, r.Log, want)
		}
		for i, v := range r.Log {
			s, _ := siteNamed(v.Sites, pokeFunc)
			if v.Frame != want[i].span.First || v.Last != want[i].span.Last || s.Allocs != want[i].pokes {
				return fmt.Errorf("violation %d: %+v, want %v naming %d pokes", i, v, want[i].span, want[i].pokes)
			}
		}
		return nil
	})

	// CloseWindow checks a partly filled window at once; what follows it
	// is outside every window.
	exactSession(t, 3, func() error {
		g, _ := newTestGuard(t, Desc{Settle: 1, Window: 4, Sites: true})
		frame := func() { g.BeginFrame(); g.EndFrame() }
		frame()
		frame()
		frame()
		g.CloseWindow()
		AllocPoke()
		frame()
		frame()
		g.CloseWindow()
		if r := g.Report(); r.Violations != 0 || r.Armed != 4 || r.InWindows != 4 {
			return fmt.Errorf("report %+v, want 4 clean frames in two windows", r)
		}
		return nil
	})
}

// TestGuardCloseWindowWithOneFrameAlone: with Window 1 the time between
// frames is never counted, as before windows existed.
func TestGuardCloseWindowWithOneFrameAlone(t *testing.T) {
	g, _ := newTestGuard(t, Desc{Settle: 1, Window: 1, Sites: true})
	frame := func() { g.BeginFrame(); g.EndFrame() }
	frame()
	frame()
	AllocPoke()
	frame()
	g.CloseWindow()
	if r := g.Report(); r.Violations != 0 || r.Armed != 2 || r.PerFrame != 2 {
		t.Fatalf("report %+v, want two clean frames: between frames is not guarded with Window 1", r)
	}
}

func TestGuardVerdictNeedsFrames(t *testing.T) {
	tests := []struct {
		name      string
		settle    int
		frames    int
		pace      time.Duration
		poke      int
		want      error
		mentioned []string
	}{
		{"no frames", 2, 0, 0, 0, ErrTooFewFrames, []string{"no frame ran", "10 checked frames required", "run too short"}},
		{"never armed", 20, 5, 0, 0, ErrTooFewFrames, []string{"never armed", "all 5 frames were settling (Settle 20)", "settle too long"}},
		{"run too short", 2, 5, 0, 0, ErrTooFewFrames, []string{"3 armed frames checked, 10 required", "5 frames in", "2 of them unarmed", "run too short"}},
		{"paced too slowly", 1, 3, 150 * time.Millisecond, 0, ErrTooFewFrames, []string{"2 armed frames checked, 10 required", "pacing too slow"}},
		{"enough", 2, 12, 0, 0, nil, nil},
		// A definite failure needs no frame count.
		{"violation first", 2, 4, 0, 3, ErrAllocation, []string{"AllocPoke"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, _ := newTestGuard(t, Desc{Settle: tt.settle, Window: 4, MinFrames: 10, Sites: true})
			for i := 1; i <= tt.frames; i++ {
				g.BeginFrame()
				if i == tt.poke {
					AllocPoke()
				}
				time.Sleep(tt.pace)
				g.EndFrame()
			}
			err := g.Verdict()
			t.Logf("Verdict: %v", err)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Verdict = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, tt.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("Verdict = %v, want one line wrapping %v", err, tt.want)
			}
			for _, m := range tt.mentioned {
				if !strings.Contains(err.Error(), m) {
					t.Fatalf("Verdict = %v, want it to mention %q", err, m)
				}
			}
			if tt.want == ErrTooFewFrames && g.Err() != nil {
				t.Fatalf("Err() = %v: too few frames is Verdict's alone, not a violation", g.Err())
			}
		})
	}
}

func TestCostHistogram(t *testing.T) {
	var h costHist
	// 98 frames that only counted, one at 10 µs, one at 3 ms.
	for range 98 {
		h.record(0, false)
	}
	h.record(10*time.Microsecond, true)
	h.record(3*time.Millisecond, true)
	c := h.report(time.Second)
	if c.Frames != 100 || c.Timed != 2 || c.Max != 3*time.Millisecond || c.Reporting != time.Second {
		t.Fatalf("cost %+v", c)
	}
	if want := (3*time.Millisecond + 10*time.Microsecond) / 100; c.Mean != want {
		t.Fatalf("mean %v, want %v", c.Mean, want)
	}
	if c.P50 != 0 || c.P99 < 10*time.Microsecond || c.P99 > 10*time.Microsecond*9/8 {
		t.Fatalf("p50 %v p99 %v, want 0 and within 12.5%% above 10µs", c.P50, c.P99)
	}
	// The bucket layout is frame.Histogram's, tested there (TestHistogramBuckets).
}
