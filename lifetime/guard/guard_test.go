package guard

import (
	"bytes"
	"errors"
	"log/slog"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/lifetime/frame"
)

const pokeFunc = "github.com/steadyframe/steadyframe/lifetime/guard.AllocPoke"

// allocSink keeps test allocations on the heap.
var allocSink []byte

// thirdPartyAlloc stands in for a dependency's callback that allocates.
//
//go:noinline
func thirdPartyAlloc() { allocSink = make([]byte, 48) }

// enableSites turns on site profiling for one test, as a program does first
// thing in main, and restores the default rate afterwards so that
// benchmarks in the same binary measure ordinary allocation cost.
func enableSites(t *testing.T) {
	t.Helper()
	rate := runtime.MemProfileRate
	EnableSiteProfiling()
	t.Cleanup(func() { runtime.MemProfileRate = rate })
}

func newTestGuard(t *testing.T, d Desc) (*Guard, *bytes.Buffer) {
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

func hasSite(sites []Site, fn string) bool {
	for _, s := range sites {
		if s.Function == fn {
			return true
		}
	}
	return false
}

func TestGuardCatchesPokeAndNamesSite(t *testing.T) {
	g, logs := newTestGuard(t, Desc{Settle: 5, Sites: true})
	for i := 1; i <= 20; i++ {
		g.BeginFrame()
		if i == 13 {
			AllocPoke()
		}
		g.EndFrame()
	}
	r := g.Report()
	if r.Frames != 20 || r.Armed != 15 {
		t.Fatalf("frames %d armed %d, want 20 and 15", r.Frames, r.Armed)
	}
	if r.Violations != 1 || len(r.Log) != 1 {
		t.Fatalf("violations %d (log %d), want exactly the poke: %+v", r.Violations, len(r.Log), r.Log)
	}
	v := r.Log[0]
	if v.Frame != 13 || v.Allocs < 1 {
		t.Fatalf("violation %+v, want frame 13 with at least 1 allocation", v)
	}
	if !hasSite(v.Sites, pokeFunc) {
		t.Fatalf("violation sites %v, want %s named", v.Sites, pokeFunc)
	}
	for _, s := range v.Sites {
		// Only the runtime's own allocations (tolerated, with a reason)
		// may share the frame with the poke.
		if s.Function != pokeFunc && s.Allowed == "" {
			t.Fatalf("violation names %v besides the poke", s)
		}
	}
	err := g.Err()
	if !errors.Is(err, ErrAllocation) || !strings.Contains(err.Error(), "AllocPoke") ||
		!strings.Contains(err.Error(), "frame 13") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("Err() = %v, want one line naming frame 13 and AllocPoke", err)
	}
	if !strings.Contains(logs.String(), "AllocPoke") {
		t.Fatalf("log does not name the site:\n%s", logs)
	}
}

// TestGuardReportIsACopy: the report's slices belong to the caller;
// writing to them must not rewrite what the guard recorded.
func TestGuardReportIsACopy(t *testing.T) {
	g, _ := newTestGuard(t, Desc{Settle: 1, Sites: true})
	for i := 0; i < 2; i++ {
		g.BeginFrame()
		if i == 1 {
			AllocPoke()
		}
		g.EndFrame()
	}
	r := g.Report()
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
}

func TestGuardLogsEachSiteOnce(t *testing.T) {
	g, logs := newTestGuard(t, Desc{Settle: 1, Sites: true})
	for i := 0; i < 6; i++ {
		g.BeginFrame()
		AllocPoke()
		g.EndFrame()
	}
	r := g.Report()
	if r.Violations != 5 {
		t.Fatalf("violations %d, want 5 (every armed frame poked)", r.Violations)
	}
	for _, v := range r.Log {
		var poked, runtimeOwn int64
		for _, s := range v.Sites {
			switch {
			case s.Function == pokeFunc:
				poked += s.Allocs
			case s.Allowed != "":
				runtimeOwn += s.Allocs
			default:
				t.Fatalf("frame %d names %v besides the poke; the guard's own reporting leaked", v.Frame, s)
			}
		}
		// The guard's reporting (slog formatting, profile reads) makes
		// dozens of allocations; had it leaked into the next frame's count,
		// Allocs would be far above the one poke. The runtime's own
		// allocations (tolerated, with RuntimeReason) are set aside: the
		// odd frame gets an M for a new OS thread, several objects.
		if poked != 1 || int64(v.Allocs)-runtimeOwn > 4 {
			t.Fatalf("frame %d: poke site counted %d, frame %d allocations (%d the runtime's own); want 1 and about 1",
				v.Frame, poked, v.Allocs, runtimeOwn)
		}
	}
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
// guard and returns what it saw.
func quietSession(t *testing.T, sites bool) (Report, error) {
	t.Helper()
	g, _ := newTestGuard(t, Desc{Sites: sites})
	fr, err := frame.NewClock(frame.ClockDesc{})
	if err != nil {
		t.Fatal(err)
	}
	dq, err := frame.NewDeferred(8)
	if err != nil {
		t.Fatal(err)
	}
	var rel countReleaser
	const frames = DefaultSettleFrames + 300
	for i := 0; i < frames; i++ {
		g.BeginFrame()
		s, err := fr.BeginFrame()
		if err != nil {
			t.Fatal(err)
		}
		if err := dq.Schedule(s, &rel, s); err != nil {
			t.Fatal(err)
		}
		dq.Run(fr.Completed())
		if err := fr.EndFrame(); err != nil {
			t.Fatal(err)
		}
		g.EndFrame()
	}
	return g.Report(), g.Err()
}

// TestGuardQuietFramesHaveNoViolations is the other half of the poke
// self-test: frames that allocate nothing must see zero violations.
//
// Site mode must be clean at once: it tells the runtime's own allocations
// apart (RuntimeReason). Count-only mode cannot, and the guard's own
// ReadMemStats restarts the world, which can make the runtime allocate for
// itself (an M for a new OS thread) inside a frame window: seen once as an
// unattributed frame of 6 allocations while the shared 2-core machine was
// loaded.
// So count-only mode gets three sessions and must have one clean one: a
// real allocation on the steady path would flag every armed frame of
// every session.
func TestGuardQuietFramesHaveNoViolations(t *testing.T) {
	for _, sites := range []bool{true, false} {
		attempts := 1
		if !sites {
			attempts = 3
		}
		for try := 1; ; try++ {
			r, err := quietSession(t, sites)
			if r.Armed != 300 {
				t.Fatalf("sites=%v: armed %d frames, want 300 after the default settle of %d", sites, r.Armed, DefaultSettleFrames)
			}
			if r.Overhead <= 0 {
				t.Fatalf("overhead %v, want a measured cost", r.Overhead)
			}
			if r.Violations == 0 && err == nil {
				t.Logf("sites=%v: 300 clean frames (session %d), guard overhead %v per frame", sites, try, r.Overhead)
				break
			}
			if try == attempts {
				t.Fatalf("sites=%v: violations %d err %v log %+v in each of %d sessions, want 300 clean frames",
					sites, r.Violations, err, r.Log, attempts)
			}
			t.Logf("sites=%v: session %d saw %d violations %+v; count-only mode cannot tell the runtime's own, retrying",
				sites, try, r.Violations, r.Log)
		}
	}
}

func TestGuardCountsWorkerGoroutines(t *testing.T) {
	g, _ := newTestGuard(t, Desc{Settle: 1, Sites: true})
	for i := 0; i < 3; i++ {
		g.BeginFrame()
		if i == 2 {
			var wg sync.WaitGroup
			wg.Add(1)
			go func() { defer wg.Done(); thirdPartyAlloc() }()
			wg.Wait()
		}
		g.EndFrame()
	}
	r := g.Report()
	if r.Violations != 1 || !hasSite(r.Log[0].Sites, "github.com/steadyframe/steadyframe/lifetime/guard.thirdPartyAlloc") {
		t.Fatalf("worker allocation not caught: %+v", r.Log)
	}
}

func TestGuardAllowlist(t *testing.T) {
	allow := []Allow{{Site: "github.com/steadyframe/steadyframe/lifetime/guard.thirdPartyAlloc", Reason: "stands in for a dependency's audio callback"}}
	g, logs := newTestGuard(t, Desc{Settle: 1, Sites: true, Allow: allow})
	for i := 1; i <= 4; i++ {
		g.BeginFrame()
		switch i {
		case 2:
			thirdPartyAlloc()
		case 3:
			thirdPartyAlloc()
			AllocPoke()
		}
		g.EndFrame()
	}
	r := g.Report()
	if r.Tolerated != 1 || r.Violations != 1 {
		t.Fatalf("tolerated %d violations %d, want 1 and 1: %+v", r.Tolerated, r.Violations, r.Log)
	}
	v := r.Log[0]
	if v.Frame != 3 || !hasSite(v.Sites, pokeFunc) {
		t.Fatalf("violation %+v, want frame 3 naming the poke despite the allowlisted site", v)
	}
	if !strings.Contains(g.Err().Error(), "AllocPoke") {
		t.Fatalf("Err() = %v names an allowlisted site instead of the poke", g.Err())
	}
	if !strings.Contains(logs.String(), "dependency's audio callback") {
		t.Fatalf("tolerated site not logged with its reason:\n%s", logs)
	}
}

func TestGuardWithoutSitesStillCounts(t *testing.T) {
	g, logs := newTestGuard(t, Desc{Settle: 2})
	for i := 1; i <= 5; i++ {
		g.BeginFrame()
		if i == 4 {
			AllocPoke()
		}
		g.EndFrame()
	}
	r := g.Report()
	if r.Violations != 1 || r.Log[0].Frame != 4 || len(r.Log[0].Sites) != 0 {
		t.Fatalf("report %+v, want one unattributed violation at frame 4", r)
	}
	if !errors.Is(g.Err(), ErrAllocation) || !strings.Contains(logs.String(), "frame=4") {
		t.Fatalf("Err %v, log %q", g.Err(), logs)
	}
}

func TestGuardResettle(t *testing.T) {
	g, _ := newTestGuard(t, Desc{Settle: 2, Sites: true})
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
	r := g.Report()
	if r.Armed != 2 || r.Violations != 1 || r.Log[0].Frame != 6 || !hasSite(r.Log[0].Sites, pokeFunc) {
		t.Fatalf("report %+v, want only frame 6 flagged after resettling", r)
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
	for _, tt := range tests {
		g, _ := newTestGuard(t, Desc{Settle: 1, Sites: true, Prefixes: tt.prefixes})
		for i := 0; i < 2; i++ {
			g.BeginFrame()
			if i == 1 {
				viaLibrary()
			}
			g.EndFrame()
		}
		r := g.Report()
		if r.Violations != 1 {
			t.Fatalf("prefixes %v: %d violations, want 1", tt.prefixes, r.Violations)
		}
		found := false
		for _, s := range r.Log[0].Sites {
			if tt.want(s.Function) && s.Guarded == tt.guarded {
				found = true
			}
			if s.Allowed == "" && !tt.want(s.Function) {
				t.Fatalf("prefixes %v: unexpected site %v", tt.prefixes, s)
			}
		}
		if !found {
			t.Fatalf("prefixes %v: sites %+v, want one guarded=%v", tt.prefixes, r.Log[0].Sites, tt.guarded)
		}
	}
}

func TestGuardConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		d    Desc
		want string
	}{
		{"negative settle", Desc{Settle: -1}, "Settle -1"},
		{"negative log", Desc{Log: -1}, "Log -1"},
		{"allow without reason", Desc{Sites: true, Allow: []Allow{{Site: "github.com/x/y."}}}, `"github.com/x/y." has no reason`},
		{"allow without site", Desc{Sites: true, Allow: []Allow{{Reason: "r"}}}, "entry 0 has no site"},
		{"allow without sites mode", Desc{Allow: []Allow{{Site: "a.", Reason: "r"}}}, "needs Sites"},
	}
	enableSites(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := New(tt.d)
			if !errors.Is(err, ErrInvalidConfig) || g != nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("New = %v, %v; want ErrInvalidConfig mentioning %q", g, err, tt.want)
			}
		})
	}
}

func TestGuardSitesNeedProfiling(t *testing.T) {
	rate := runtime.MemProfileRate
	runtime.MemProfileRate = 512 * 1024
	defer func() { runtime.MemProfileRate = rate }()
	g, err := New(Desc{Sites: true})
	if !errors.Is(err, ErrInvalidConfig) || g != nil || !strings.Contains(err.Error(), "EnableSiteProfiling") {
		t.Fatalf("New without profiling = %v, %v; want ErrInvalidConfig naming EnableSiteProfiling", g, err)
	}
}

func TestGuardMisuse(t *testing.T) {
	g, _ := newTestGuard(t, Desc{Settle: 1})
	g.EndFrame()
	if err := g.Err(); !errors.Is(err, ErrFrameOrder) || !strings.Contains(err.Error(), "EndFrame") {
		t.Fatalf("Err() = %v, want ErrFrameOrder for EndFrame without BeginFrame", err)
	}
	g2, _ := newTestGuard(t, Desc{Settle: 1})
	g2.BeginFrame()
	g2.BeginFrame()
	if err := g2.Err(); !errors.Is(err, ErrFrameOrder) || !strings.Contains(err.Error(), "BeginFrame") {
		t.Fatalf("Err() = %v, want ErrFrameOrder for a nested BeginFrame", err)
	}
}

func TestGuardSteadyPathAllocatesNothing(t *testing.T) {
	if testenv.Race {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	g, _ := newTestGuard(t, Desc{Settle: 1, Sites: true})
	g.BeginFrame()
	g.EndFrame()
	if n := testing.AllocsPerRun(200, func() { g.BeginFrame(); g.EndFrame() }); n != 0 {
		t.Fatalf("armed guard frame allocates %v times", n)
	}
	if r := g.Report(); r.Violations != 0 {
		t.Fatalf("guard flagged its own frames: %+v", r.Log)
	}
}

// TestGuardSelfNamesMatchCode checks the hard-coded function names against
// the names the runtime reports for the real functions: guardSelf must
// match the guard's own code, or the guard would report its bookkeeping as
// violations (or, matching too much, hide real ones), and pokeFunc must be
// AllocPoke's real name, or the self-tests would look for the wrong site.
func TestGuardSelfNamesMatchCode(t *testing.T) {
	name := func(fn any) string {
		return runtime.FuncForPC(reflect.ValueOf(fn).Pointer()).Name()
	}
	if got := name(AllocPoke); got != pokeFunc {
		t.Fatalf("AllocPoke is %q to the runtime; the tests look for %q", got, pokeFunc)
	}
	real := []string{name((*Guard).EndFrame), name((*siteTracker).read), name(guardMark)}
	for i, self := range guardSelf {
		if !strings.HasPrefix(real[i], self) {
			t.Errorf("guardSelf[%d] = %q does not match the real function %q", i, self, real[i])
		}
	}
	// A prefix too broad would exempt guarded code from the guard.
	for _, self := range guardSelf {
		if strings.HasPrefix(pokeFunc, self) {
			t.Errorf("guardSelf entry %q exempts AllocPoke", self)
		}
	}
}

// countReleaser counts the releases a quiet session's Deferred runs.
type countReleaser struct{ n int }

func (r *countReleaser) Release(uint64) { r.n++ }
