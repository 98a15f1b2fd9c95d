package guard

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	parkedStarter   = "github.com/steadyframe/steadyframe/lifetime/guard.startParked"
	finishedStarter = "github.com/steadyframe/steadyframe/lifetime/guard.startFinished"
)

// startParked starts n goroutines that wait for release, so they are
// alive when the guard looks for who started them.
//
//go:noinline
func startParked(n int, release <-chan struct{}) {
	for range n {
		go func() { <-release }()
	}
}

// startFinished starts n goroutines and returns once they have all
// exited, so the guard can count them but find none to name.
//
//go:noinline
func startFinished(n int) {
	before := runtime.NumGoroutine()
	var wg sync.WaitGroup
	wg.Add(n)
	for range n {
		go wg.Done()
	}
	wg.Wait()
	// Done runs before the goroutine has exited; wait until it has.
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > before && time.Now().Before(deadline); {
		runtime.Gosched()
	}
}

// spanOf returns the violation whose span holds frame.
func spanOf(t *testing.T, r Report, frame uint64) Violation {
	t.Helper()
	for _, v := range r.Log {
		if within(v, frame) {
			return v
		}
	}
	t.Fatalf("no violation holds frame %d: %+v", frame, r.Log)
	return Violation{}
}

func siteNamed(sites []Site, fn string) (Site, bool) {
	for _, s := range sites {
		if s.Function == fn {
			return s, true
		}
	}
	return Site{}, false
}

// TestGuardGoroutineStartsAreViolations: a goroutine started in an armed
// frame is our code allocating (its g, unless the runtime has a free one
// to reuse, and its stack), whatever the runtime's allocation stack says.
// It was tolerated as "runtime-internal" (issue 11, item 1): the g's
// allocation stack stops at the system stack, at runtime.newproc.func1.
// Now it is a violation that names the function that started it.
func TestGuardGoroutineStartsAreViolations(t *testing.T) {
	for _, m := range modes {
		for _, sites := range []bool{true, false} {
			for _, n := range []int{1, 100} {
				t.Run(fmt.Sprintf("%s/sites=%v/n=%d", m.name, sites, n), func(t *testing.T) {
					release := make(chan struct{})
					defer close(release)
					g, _ := newTestGuard(t, Desc{Settle: 2, Window: m.window, Sites: sites})
					r := run(g, 6, func(i int) {
						if i == 4 {
							startParked(n, release)
						}
					})
					v := spanOf(t, r, 4)
					noun := "goroutines"
					if n == 1 {
						noun = "goroutine"
					}
					wantErr := fmt.Sprintf("%s started %d %s", v.span(), n, noun)
					if v.Starts != uint64(n) {
						t.Fatalf("%s counted %d starts, want %d", v.span(), v.Starts, n)
					}
					err := g.Err()
					if err == nil || !strings.Contains(err.Error(), wantErr) {
						t.Fatalf("Err() = %v, want it to say %q", err, wantErr)
					}
					if !sites {
						if v.Unnamed != uint64(n) || !strings.Contains(err.Error(), "enable Sites") {
							t.Fatalf("count mode: unnamed %d, Err %v; want %d and a hint to enable Sites", v.Unnamed, err, n)
						}
						return
					}
					s, ok := siteNamed(v.Sites, parkedStarter)
					if !ok || s.Starts != int64(n) || !s.Guarded || s.Allowed != "" || v.Unnamed != 0 {
						t.Fatalf("sites %+v (unnamed %d), want %s named as the guarded creator of %d", v.Sites, v.Unnamed, parkedStarter, n)
					}
					if !strings.Contains(err.Error(), wantErr+" at "+parkedStarter+" (starts_test.go:") {
						t.Fatalf("Err() = %v, want the go statement in %s named", err, parkedStarter)
					}
					for _, s := range v.Sites {
						// Besides the creator, only the started goroutines'
						// own first steps (a sudog to wait on) and the
						// runtime's own allocations may appear.
						if s.Allowed == "" && !strings.HasPrefix(s.Function, parkedStarter) {
							t.Fatalf("%s names %v", v.span(), s)
						}
					}
				})
			}
		}
	}
}

// TestGuardExitedGoroutineStartsAreCounted: goroutines that have exited
// before the guard looks cannot be named, but they are counted, and the
// violation says so with its frames.
func TestGuardExitedGoroutineStartsAreCounted(t *testing.T) {
	for _, m := range modes {
		for _, n := range []int{1, 100} {
			t.Run(fmt.Sprintf("%s/n=%d", m.name, n), func(t *testing.T) {
				g, _ := newTestGuard(t, Desc{Settle: 2, Window: m.window, Sites: true})
				r := run(g, 6, func(i int) {
					if i == 4 {
						startFinished(n)
					}
				})
				v := spanOf(t, r, 4)
				if v.Starts != uint64(n) || v.Unnamed != uint64(n) {
					t.Fatalf("%s: starts %d unnamed %d, want %d and %d", v.span(), v.Starts, v.Unnamed, n, n)
				}
				if _, ok := siteNamed(v.Sites, finishedStarter); ok && v.Sites[0].Starts > 0 {
					t.Fatalf("sites %+v name exited goroutines", v.Sites)
				}
				want := fmt.Sprintf("%s started %d ", v.span(), n)
				if err := g.Err(); err == nil || !strings.Contains(err.Error(), want) ||
					!strings.Contains(err.Error(), fmt.Sprintf("(%d exited before the guard looked", n)) {
					t.Fatalf("Err() = %v, want %q and the count of exited goroutines", err, want)
				}
			})
		}
	}
}

// procsHigh is the highest GOMAXPROCS this test binary has asked for: the
// runtime keeps one GC mark worker per P ever used, so only a value never
// used before makes the next GC start a new one.
var procsHigh = runtime.GOMAXPROCS(0)

// growAndCollect stands in for allowlisted code that, inside a frame,
// raises GOMAXPROCS to a value never used before and runs a GC, so the
// runtime starts a mark worker for the new P. It returns the previous
// GOMAXPROCS.
//
//go:noinline
func growAndCollect() int {
	procsHigh++
	old := runtime.GOMAXPROCS(procsHigh)
	runtime.GC()
	return old
}

// TestGuardToleratesRuntimeGoroutineStarts: the runtime starting one of
// its own goroutines (here a mark worker for a P that never had one) is
// not our code starting a goroutine; it is tolerated with its reason.
func TestGuardToleratesRuntimeGoroutineStarts(t *testing.T) {
	allow := []Allow{{Site: "github.com/steadyframe/steadyframe/lifetime/guard.growAndCollect",
		Reason: "test: grows GOMAXPROCS and runs the GC that makes the runtime start a mark worker"}}
	g, _ := newTestGuard(t, Desc{Settle: 1, Window: 1, Sites: true, Allow: allow})
	old := 0
	r := run(g, 3, func(i int) {
		if i == 3 {
			old = growAndCollect()
		}
	})
	runtime.GOMAXPROCS(old)
	if r.Violations != 0 || r.Tolerated != 1 {
		t.Fatalf("violations %d tolerated %d, want the GC's frame tolerated: %+v", r.Violations, r.Tolerated, r.Log)
	}
	var system *Site
	for i, s := range r.Sites {
		if s.Allowed == ReasonSystemGoroutine {
			system = &r.Sites[i]
		}
	}
	if system == nil || system.Starts < 1 {
		t.Fatalf("sites %+v, want the mark worker's start tolerated as %q", r.Sites, ReasonSystemGoroutine)
	}
}
