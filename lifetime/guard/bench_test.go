package guard

import (
	"io"
	"log/slog"
	"runtime"
	"testing"
)

// BenchmarkGuardFrame is the Guard's overhead per armed, clean frame:
// two runtime.ReadMemStats calls.
func BenchmarkGuardFrame(b *testing.B) {
	g, err := New(Desc{Settle: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		g.BeginFrame()
		g.EndFrame()
	}
	// Count-only mode cannot tell the runtime's own rare allocations (a
	// new OS thread) from ours, so a benchmark run reports them instead of
	// failing on them; the tests assert the steady path allocates nothing.
	b.ReportMetric(float64(g.Report().Violations), "violations")
}

// BenchmarkGuardViolationSites is the cost of one violating frame in site
// mode: a forced GC, a full MemProfile read, symbolization and the diff.
// It runs only on violations, never on the steady path.
func BenchmarkGuardViolationSites(b *testing.B) {
	rate := runtime.MemProfileRate
	EnableSiteProfiling()
	defer func() { runtime.MemProfileRate = rate }()
	g, err := New(Desc{Settle: 1, Sites: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	g.BeginFrame()
	g.EndFrame()
	b.ReportAllocs()
	for b.Loop() {
		g.BeginFrame()
		AllocPoke()
		g.EndFrame()
	}
	if r := g.Report(); r.Violations != uint64(b.N) {
		b.Fatalf("%d violations in %d poked frames", r.Violations, b.N)
	}
}
