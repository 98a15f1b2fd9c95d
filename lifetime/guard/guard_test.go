package guard

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/lifetime/frame"
)

const pokeFunc = "github.com/steadyframe/steadyframe/lifetime/guard.AllocPoke"

// allocSink keeps test allocations on the heap.
var allocSink []byte

// thirdPartyAlloc stands in for a dependency's callback that allocates.
//
//go:noinline
func thirdPartyAlloc() { allocSink = make([]byte, 48) }

// modes are the two ways a guard counts: every frame alone (Window 1, the
// old per-frame mode) and the default windows.
var modes = []struct {
	name   string
	window int
}{{"window=1", 1}, {"window=default", 0}}

// enableSites turns on site profiling for one test, as a program does first
// thing in main, and restores the default rate afterwards so that
// benchmarks in the same binary measure ordinary allocation cost.
func enableSites(t testing.TB) {
	t.Helper()
	rate := runtime.MemProfileRate
	EnableSiteProfiling()
	t.Cleanup(func() { runtime.MemProfileRate = rate })
}

func newTestGuard(t testing.TB, d Desc) (*Guard, *bytes.Buffer) {
	t.Helper()
	if d.Sites {
		enableSites(t)
	}
	var buf bytes.Buffer
	d.Logger = slog.New(slog.NewTextHandler(&buf, nil))
	g, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	return g, &buf
}

// run runs frames 1..n, calling body(i) inside frame i, then counts the
// open window so the report covers every frame.
func run(g *Guard, n int, body func(i int)) Report {
	for i := 1; i <= n; i++ {
		g.BeginFrame()
		if body != nil {
			body(i)
		}
		g.EndFrame()
	}
	g.CloseWindow()
	return g.Report()
}

func hasSite(sites []Site, fn string) bool {
	_, ok := siteNamed(sites, fn)
	return ok
}

// within reports whether the violation's span holds frame.
func within(v Violation, frame uint64) bool { return v.Frame <= frame && frame <= v.Last }

func TestGuardCatchesPokeAndNamesSite(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			g, logs := newTestGuard(t, Desc{Settle: 5, Window: m.window, Sites: true})
			r := run(g, 20, func(i int) {
				if i == 13 {
					AllocPoke()
				}
			})
			if r.Frames != 20 || r.Armed != 15 {
				t.Fatalf("frames %d armed %d, want 20 and 15", r.Frames, r.Armed)
			}
			if r.Violations != 1 || len(r.Log) != 1 {
				t.Fatalf("violations %d (log %d), want exactly the poke: %+v", r.Violations, len(r.Log), r.Log)
			}
			v := r.Log[0]
			span := "frame 13"
			if m.window == 1 {
				if v.Frame != 13 || v.Last != 13 || v.Allocs < 1 {
					t.Fatalf("violation %+v, want frame 13 with at least 1 allocation", v)
				}
			} else {
				// 15 armed frames fit one default window, which Verdict
				// or CloseWindow closes: the poke is named with its window.
				if v.Frame != 6 || v.Last != 20 || v.Allocs < 1 {
					t.Fatalf("violation %+v, want frames 6-20 with at least 1 allocation", v)
				}
				span = "frames 6-20"
			}
			if !hasSite(v.Sites, pokeFunc) {
				t.Fatalf("violation sites %v, want %s named", v.Sites, pokeFunc)
			}
			for _, s := range v.Sites {
				// Only the runtime's own allocations (tolerated, with a
				// reason) may share the span with the poke.
				if s.Function != pokeFunc && s.Allowed == "" {
					t.Fatalf("violation names %v besides the poke", s)
				}
			}
			err := g.Err()
			if !errors.Is(err, ErrAllocation) || !strings.Contains(err.Error(), "AllocPoke") ||
				!strings.Contains(err.Error(), span+" ") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("Err() = %v, want one line naming %s and AllocPoke", err, span)
			}
			if !strings.Contains(logs.String(), "AllocPoke") {
				t.Fatalf("log does not name the site:\n%s", logs)
			}
		})
	}
}

// TestGuardReportIsACopy: the report's slices belong to the caller;
// writing to them must not rewrite what the guard recorded.
func TestGuardReportIsACopy(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			g, _ := newTestGuard(t, Desc{Settle: 1, Window: m.window, Sites: true})
			r := run(g, 2, func(i int) {
				if i == 2 {
					AllocPoke()
				}
			})
			if len(r.Log) != 1 || len(r.Log[0].Sites) == 0 || len(r.Sites) == 0 {
				t.Fatalf("report %+v, want one violation with sites", r)
			}
			r.Log[0].Frame = 99
			r.Log[0].Sites[0].Function = "scribbled"
			r.Sites[0].Function = "scribbled"
			again := g.Report()
			if again.Log[0].Frame == 99 || again.Log[0].Sites[0].Function == "scribbled" || again.Sites[0].Function == "scribbled" {
				t.Fatalf("writing to a report changed the guard's record: %+v", again)
			}
		})
	}
}

// checkPokeCounts checks that every logged violation of a session that
// poked once per frame holds its pokes and about nothing else.
func checkPokeCounts(t *testing.T, r Report, perFrame func(v Violation) int64) {
	t.Helper()
	for _, v := range r.Log {
		var poked, runtimeOwn int64
		for _, s := range v.Sites {
			switch {
			case s.Function == pokeFunc:
				poked += s.Allocs
			case s.Allowed != "":
				runtimeOwn += s.Allocs
			default:
				t.Fatalf("%s names %v besides the poke; the guard's own reporting leaked", v.span(), s)
			}
		}
		// The guard's reporting (slog formatting, profile reads) makes
		// dozens of allocations; had it leaked into the next span's count,
		// Allocs would be far above the pokes. The runtime's own
		// allocations (tolerated, with their reason) are set aside: the
		// odd span gets an M for a new OS thread, several objects.
		want := perFrame(v)
		if poked != want || int64(v.Allocs)-runtimeOwn > want+3 {
			t.Fatalf("%s: poke site counted %d, span %d allocations (%d the runtime's own); want %d and about %d",
				v.span(), poked, v.Allocs, runtimeOwn, want, want)
		}
	}
}

func TestGuardLogsEachSiteOnce(t *testing.T) {
	t.Run("window=1", func(t *testing.T) {
		g, logs := newTestGuard(t, Desc{Settle: 1, Window: 1, Sites: true})
		r := run(g, 6, func(int) { AllocPoke() })
		if r.Violations != 5 {
			t.Fatalf("violations %d, want 5 (every armed frame poked)", r.Violations)
		}
		checkPokeCounts(t, r, func(Violation) int64 { return 1 })
		checkLoggedOnce(t, r, logs)
	})
	t.Run("window=4", func(t *testing.T) {
		// The first window holds four pokes; after it the guard counts
		// frame by frame, so each later violation is one poked frame.
		g, logs := newTestGuard(t, Desc{Settle: 1, Window: 4, Sites: true})
		r := run(g, 12, func(int) { AllocPoke() })
		if r.Violations != 8 || r.Log[0].Frame != 2 || r.Log[0].Last != 5 {
			t.Fatalf("violations %d, first %+v; want 8, the first frames 2-5", r.Violations, r.Log[0])
		}
		for i, v := range r.Log[1:] {
			if want := uint64(6 + i); v.Frame != want || v.Last != want {
				t.Fatalf("violation %d spans %s, want frame %d alone", i+1, v.span(), want)
			}
		}
		checkPokeCounts(t, r, func(v Violation) int64 { return int64(v.Last - v.Frame + 1) })
		checkLoggedOnce(t, r, logs)
	})
}

func checkLoggedOnce(t *testing.T, r Report, logs *bytes.Buffer) {
	t.Helper()
	if n := strings.Count(logs.String(), "AllocPoke"); n != 1 {
		t.Fatalf("site logged %d times, want once per session:\n%s", n, logs)
	}
	var named []Site
	for _, s := range r.Sites {
		if s.Allowed == "" {
			named = append(named, s)
		}
	}
	if len(named) != 1 || named[0].Function != pokeFunc {
		t.Fatalf("unique unallowed sites %v, want only the poke", named)
	}
}

// quietSession runs the default settle plus 300 armed frames of the steady
// path (a frame clock and a deferred release per frame) under a fresh
// guard and returns what it saw and its verdict.
func quietSession(t *testing.T, sites bool, window int) (Report, error) {
	t.Helper()
	g, _ := newTestGuard(t, Desc{Sites: sites, Window: window})
	fr, err := frame.NewClock(frame.ClockDesc{})
	if err != nil {
		t.Fatal(err)
	}
	dq, err := frame.NewDeferred(fr, 8)
	if err != nil {
		t.Fatal(err)
	}
	var rel countReleaser
	const frames = DefaultSettleFrames + DefaultMinFrames
	for i := 0; i < frames; i++ {
		g.BeginFrame()
		s, err := fr.BeginFrame()
		if err != nil {
			t.Fatal(err)
		}
		if err := dq.Schedule(&rel, s); err != nil {
			t.Fatal(err)
		}
		if err := fr.EndFrame(); err != nil {
			t.Fatal(err)
		}
		g.EndFrame()
	}
	err = g.Verdict()
	return g.Report(), err
}

// TestGuardQuietFramesHaveNoViolations is the other half of the poke
// self-test: frames that allocate nothing must see zero violations, and
// the default settle plus DefaultMinFrames armed frames earn a pass.
//
// Site mode must be clean at once: it tells the runtime's own allocations
// apart (RuntimeExemptions). Count-only mode cannot, and the guard's own
// ReadMemStats restarts the world, which can make the runtime allocate for
// itself (an M for a new OS thread) inside a span: seen once as an
// unattributed frame of 6 allocations while the shared 2-core machine was
// loaded. So count-only mode gets three sessions and must have one clean
// one: a real allocation on the steady path would flag every session.
func TestGuardQuietFramesHaveNoViolations(t *testing.T) {
	for _, m := range modes {
		for _, sites := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/sites=%v", m.name, sites), func(t *testing.T) {
				attempts := 1
				if !sites {
					attempts = 3
				}
				for try := 1; ; try++ {
					r, err := quietSession(t, sites, m.window)
					if r.Armed != DefaultMinFrames || r.Open != 0 || r.PerFrame+r.InWindows != r.Armed {
						t.Fatalf("armed %d (open %d, per frame %d, in windows %d), want %d after the default settle of %d",
							r.Armed, r.Open, r.PerFrame, r.InWindows, DefaultMinFrames, DefaultSettleFrames)
					}
					if r.Cost.Frames != r.Armed || r.Cost.Timed == 0 || r.Cost.Mean <= 0 {
						t.Fatalf("cost %+v, want a measured cost over %d frames", r.Cost, r.Armed)
					}
					if r.Violations == 0 && err == nil {
						t.Logf("session %d: %d clean frames, guard cost mean %v p99 %v max %v",
							try, r.Armed, r.Cost.Mean, r.Cost.P99, r.Cost.Max)
						return
					}
					if try == attempts {
						t.Fatalf("violations %d verdict %v log %+v in each of %d sessions, want %d clean frames",
							r.Violations, err, r.Log, attempts, DefaultMinFrames)
					}
					t.Logf("session %d saw %d violations %+v; count-only mode cannot tell the runtime's own, retrying",
						try, r.Violations, r.Log)
				}
			})
		}
	}
}

func TestGuardCountsWorkerGoroutines(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			// The worker runs before the guard arms, as a game's workers
			// do; only its allocation happens inside a frame.
			work, done := make(chan struct{}), make(chan struct{})
			go func() {
				for range work {
					thirdPartyAlloc()
					done <- struct{}{}
				}
			}()
			defer close(work)
			g, _ := newTestGuard(t, Desc{Settle: 1, Window: m.window, Sites: true})
			r := run(g, 3, func(i int) {
				if i == 3 {
					work <- struct{}{}
					<-done
				}
			})
			if r.Violations != 1 || !hasSite(r.Log[0].Sites, "github.com/steadyframe/steadyframe/lifetime/guard.thirdPartyAlloc") {
				t.Fatalf("worker allocation not caught: %+v", r.Log)
			}
		})
	}
}

func TestGuardAllowlist(t *testing.T) {
	allow := []Allow{{Site: "github.com/steadyframe/steadyframe/lifetime/guard.thirdPartyAlloc", Reason: "stands in for a dependency's audio callback"}}
	for _, window := range []int{1, 2} {
		t.Run(fmt.Sprintf("window=%d", window), func(t *testing.T) {
			// Frame numbers scale with the window, so each window holds
			// the same work: allowlisted only, then allowlisted and poke.
			g, logs := newTestGuard(t, Desc{Settle: 1, Window: window, Sites: true, Allow: allow})
			tolerated, poked := 2, 2+window
			r := run(g, 1+3*window, func(i int) {
				switch i {
				case tolerated:
					thirdPartyAlloc()
				case poked:
					thirdPartyAlloc()
					AllocPoke()
				}
			})
			if r.Tolerated != 1 || r.Violations != 1 {
				t.Fatalf("tolerated %d violations %d, want 1 and 1: %+v", r.Tolerated, r.Violations, r.Log)
			}
			v := r.Log[0]
			if v.Frame != uint64(poked) || !hasSite(v.Sites, pokeFunc) {
				t.Fatalf("violation %+v, want frame %d naming the poke despite the allowlisted site", v, poked)
			}
			if !strings.Contains(g.Err().Error(), "AllocPoke") {
				t.Fatalf("Err() = %v names an allowlisted site instead of the poke", g.Err())
			}
			if !strings.Contains(logs.String(), "dependency's audio callback") {
				t.Fatalf("tolerated site not logged with its reason:\n%s", logs)
			}
		})
	}
}

func TestGuardWithoutSitesStillCounts(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			g, logs := newTestGuard(t, Desc{Settle: 2, Window: m.window})
			r := run(g, 5, func(i int) {
				if i == 4 {
					AllocPoke()
				}
			})
			if r.Violations != 1 || !within(r.Log[0], 4) || len(r.Log[0].Sites) != 0 {
				t.Fatalf("report %+v, want one unattributed violation at frame 4", r)
			}
			if m.window == 1 && r.Log[0].Frame != 4 {
				t.Fatalf("violation %+v, want frame 4 alone", r.Log[0])
			}
			if !errors.Is(g.Err(), ErrAllocation) || !strings.Contains(logs.String(), fmt.Sprintf("frame=%d", r.Log[0].Frame)) {
				t.Fatalf("Err %v, log %q", g.Err(), logs)
			}
		})
	}
}

func TestGuardResettle(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			g, _ := newTestGuard(t, Desc{Settle: 2, Window: m.window, Sites: true})
			frame := func(poke bool) {
				g.BeginFrame()
				if poke {
					AllocPoke()
				}
				g.EndFrame()
			}
			frame(false)
			frame(false)
			frame(false) // armed
			g.Resettle()
			frame(true) // settling again: a load frame may allocate
			frame(false)
			frame(true) // armed again
			g.CloseWindow()
			r := g.Report()
			if r.Armed != 2 || r.Violations != 1 || r.Log[0].Frame != 6 || !hasSite(r.Log[0].Sites, pokeFunc) {
				t.Fatalf("report %+v, want only frame 6 flagged after resettling", r)
			}
		})
	}
}

// viaLibrary allocates inside a standard-library function, so the site's
// name depends on which prefixes count as guarded.
//
//go:noinline
func viaLibrary() { stringSink = strings.Repeat("x", 40) }

var stringSink string

func TestGuardPrefixesNameTheGuardedCaller(t *testing.T) {
	const caller = "github.com/steadyframe/steadyframe/lifetime/guard.viaLibrary"
	ours := func(fn string) bool { return strings.HasPrefix(fn, "github.com/steadyframe/") }
	tests := []struct {
		prefixes []string
		want     func(fn string) bool
		guarded  bool
	}{
		// Default: our module is guarded, so our caller names the site.
		{nil, func(fn string) bool { return fn == caller }, true},
		// Nothing of ours guarded: the innermost library frame (inside
		// strings.Repeat) names it.
		{[]string{"example.com/game"}, func(fn string) bool { return !ours(fn) }, false},
	}
	for _, m := range modes {
		for _, tt := range tests {
			g, _ := newTestGuard(t, Desc{Settle: 1, Window: m.window, Sites: true, Prefixes: tt.prefixes})
			r := run(g, 2, func(i int) {
				if i == 2 {
					viaLibrary()
				}
			})
			if r.Violations != 1 {
				t.Fatalf("%s prefixes %v: %d violations, want 1", m.name, tt.prefixes, r.Violations)
			}
			found := false
			for _, s := range r.Log[0].Sites {
				if tt.want(s.Function) && s.Guarded == tt.guarded {
					found = true
				}
				if s.Allowed == "" && !tt.want(s.Function) {
					t.Fatalf("%s prefixes %v: unexpected site %v", m.name, tt.prefixes, s)
				}
			}
			if !found {
				t.Fatalf("%s prefixes %v: sites %+v, want one guarded=%v", m.name, tt.prefixes, r.Log[0].Sites, tt.guarded)
			}
		}
	}
}

// countReleaser counts the releases a quiet session's Deferred runs.
type countReleaser struct{ n int }

func (r *countReleaser) Release(uint64) { r.n++ }
