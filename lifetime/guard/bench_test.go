package guard

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// spin keeps n goroutines running without allocating or blocking, so a
// stop-the-world has to preempt them (asynchronously, by signal): the case
// where ReadMemStats's pause grows. It returns the function that stops them.
func spin(n int) (stop func()) {
	var done atomic.Bool
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for x := 0; !done.Load(); x++ {
			}
		}()
	}
	return func() { done.Store(true); wg.Wait() }
}

// BenchmarkGuardFrame is the Guard's cost per armed, clean frame (ns/op is
// the mean, bookkeeping included), side by side: window=1 is the per-frame
// mode (two runtime.ReadMemStats a frame, each a stop-the-world), window=32
// the default (one read per 32 frames). load=busy runs GOMAXPROCS-1
// goroutines that compute without allocating, which the stop-the-world must
// preempt. p99-ns and max-ns are the guard's own distribution (Report.Cost).
// Compare with: benchstat -col /window.
func BenchmarkGuardFrame(b *testing.B) {
	for _, load := range []string{"idle", "busy"} {
		for _, window := range []int{1, DefaultWindow} {
			b.Run(fmt.Sprintf("load=%s/window=%d", load, window), func(b *testing.B) {
				if load == "busy" {
					defer spin(max(runtime.GOMAXPROCS(0)-1, 1))()
				}
				g, _ := newTestGuard(b, Desc{Settle: 1, Window: window})
				b.ReportAllocs()
				for b.Loop() {
					g.BeginFrame()
					g.EndFrame()
				}
				b.StopTimer()
				g.CloseWindow()
				r := g.Report()
				b.ReportMetric(float64(r.Cost.P99.Nanoseconds()), "p99-ns")
				b.ReportMetric(float64(r.Cost.Max.Nanoseconds()), "max-ns")
				// Count-only mode cannot tell the runtime's own rare
				// allocations (a new OS thread) from ours, so a benchmark
				// run reports them instead of failing on them; the tests
				// assert the steady path allocates nothing.
				b.ReportMetric(float64(r.Violations), "violations")
			})
		}
	}
}

// BenchmarkGuardViolationSites is the cost of one violating frame in site
// mode: a forced GC, a full MemProfile read, symbolization and the diff.
// It runs only on violations, never on the steady path.
func BenchmarkGuardViolationSites(b *testing.B) {
	g, _ := newTestGuard(b, Desc{Settle: 1, Window: 1, Sites: true})
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
