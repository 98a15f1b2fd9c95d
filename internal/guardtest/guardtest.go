// Package guardtest runs a check millions of times inside frames that
// the allocation guard (lifetime/guard, in site mode) watches, for the
// tests of packages whose refusals must not allocate. It is a test
// helper: only _test.go files import it.
//
// # Ownership
//
// Refusals runs on the test's goroutine and owns the Guard it makes.
//
// # Lifetime
//
// Each call makes its own Guard and drops it on return; the site
// profiling it turns on is turned back off before it returns.
package guardtest

import (
	"errors"
	"io"
	"log/slog"
	"runtime"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/lifetime/guard"
)

// Refusal is one refused call of a package's API and the sentinel its
// docs say it returns.
type Refusal struct {
	Name string
	Want error
	Call func() error
}

// Refusals checks every refusal in rs against all, the package's
// sentinels. The call must return its sentinel bare (==). A switch must
// pick it. errors.Is must match it against its own sentinel and no other.
// Each form runs under testing.AllocsPerRun, then at least a million
// times (up to total) in guarded frames. Any allocation fails t, named by
// the guard's site. It skips under the race detector, which allocates for
// itself.
func Refusals(t *testing.T, all []error, rs []Refusal, total int) {
	t.Helper()
	testenv.SkipUnderRace(t)
	defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
	guard.EnableSiteProfiling()
	for _, r := range rs {
		t.Run(r.Name, func(t *testing.T) {
			forms := map[string]func() bool{
				"==": func() bool { return r.Call() == r.Want },
				"switch": func() bool {
					switch r.Call() {
					case r.Want:
						return true
					}
					return false
				},
				"errors.Is against every sentinel": func() bool {
					err := r.Call()
					for _, s := range all {
						if errors.Is(err, s) != (s == r.Want) {
							return false
						}
					}
					return true
				},
			}
			for form, check := range forms {
				if !check() {
					t.Fatalf("%s: %v does not read as %v", form, r.Call(), r.Want)
				}
				testenv.NoAllocs(t, r.Name+" tested with "+form, 10_000, func() { _ = check() })
				n := guarded(t, check, total, 20*time.Second)
				t.Logf("%s: %d checks in guarded frames, 0 allocations", form, n)
			}
		})
	}
}

// guarded runs check up to total times in guarded frames of 10,000 calls
// each, for at most budget, and fails on any allocation, on any check
// that reports false, or if fewer than a million calls ran in armed
// frames. It returns the calls made in armed frames.
func guarded(t *testing.T, check func() bool, total int, budget time.Duration) int {
	t.Helper()
	const settle, perFrame = 2, 10_000
	g, err := guard.New(guard.Desc{Settle: settle, Sites: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(budget)
	n, failed := 0, 0
	for frame := 0; n < total && (frame < settle || time.Now().Before(deadline)); frame++ {
		g.BeginFrame()
		for range perFrame {
			if !check() {
				failed++
			}
		}
		g.EndFrame()
		if frame >= settle {
			n += perFrame
		}
	}
	r := g.Report()
	if err := g.Err(); err != nil || r.Violations != 0 {
		t.Errorf("guard: %v (%d violations in %d armed frames)", err, r.Violations, r.Armed)
	}
	if failed != 0 {
		t.Errorf("%d checks did not see the refusal", failed)
	}
	if n < 1_000_000 {
		t.Errorf("only %d checks ran in armed frames within %v", n, budget)
	}
	return n
}
