package guard

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

func TestGuardConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		d    Desc
		want string
	}{
		{"negative settle", Desc{Settle: -1}, "Settle -1"},
		{"negative window", Desc{Window: -1}, "Window -1"},
		{"negative min frames", Desc{MinFrames: -2}, "MinFrames -2"},
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
	tests := []struct {
		name string
		do   func(g *Guard)
	}{
		{"EndFrame", func(g *Guard) { g.EndFrame() }},
		{"BeginFrame", func(g *Guard) { g.BeginFrame(); g.BeginFrame() }},
		{"CloseWindow", func(g *Guard) { g.BeginFrame(); g.CloseWindow() }},
		{"Resettle", func(g *Guard) { g.BeginFrame(); g.Resettle() }},
		{"Verdict", func(g *Guard) { g.BeginFrame(); _ = g.Verdict() }},
	}
	for _, tt := range tests {
		g, _ := newTestGuard(t, Desc{Settle: 1})
		tt.do(g)
		if err := g.Err(); !errors.Is(err, ErrFrameOrder) || !strings.Contains(err.Error(), tt.name) {
			t.Fatalf("Err() = %v, want ErrFrameOrder naming %s", err, tt.name)
		}
		if err := g.Verdict(); !errors.Is(err, ErrFrameOrder) {
			t.Fatalf("Verdict() = %v after misuse, want ErrFrameOrder", err)
		}
	}
}

func TestGuardSteadyPathAllocatesNothing(t *testing.T) {
	for _, m := range modes {
		for _, sites := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/sites=%v", m.name, sites), func(t *testing.T) {
				testenv.SkipUnderRace(t)
				g, _ := newTestGuard(t, Desc{Settle: 1, Window: m.window, Sites: sites})
				g.BeginFrame()
				g.EndFrame()
				// 200 runs cross several window boundaries, whose reads
				// must not allocate either.
				testenv.NoAllocs(t, "an armed guard frame", 200, func() { g.BeginFrame(); g.EndFrame() })
				g.CloseWindow()
				if r := g.Report(); sites && r.Violations != 0 {
					t.Fatalf("guard flagged its own frames: %+v", r.Log)
				}
			})
		}
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
	real := []string{name((*Guard).EndFrame), name((*siteTracker).read), name((*startTracker).snapshot), name(guardMark)}
	if len(real) != len(guardSelf) {
		t.Fatalf("%d guardSelf entries, %d checked", len(guardSelf), len(real))
	}
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
