package lifetime

import (
	"io"
	"log/slog"
	"runtime"
	"testing"
	"time"
)

func BenchmarkBeginEndFrame(b *testing.B) {
	fr, err := NewFrames(FramesDesc{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fr.BeginFrame(); err != nil {
			b.Fatal(err)
		}
		if err := fr.EndFrame(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScheduleRun releases 4 items per frame through Deferred.
func BenchmarkScheduleRun(b *testing.B) {
	dq, err := NewDeferred(64)
	if err != nil {
		b.Fatal(err)
	}
	rel := &countReleaser{}
	var serial uint64
	b.ReportAllocs()
	for b.Loop() {
		serial++
		for k := uint64(0); k < 4; k++ {
			if err := dq.Schedule(serial, rel, k); err != nil {
				b.Fatal(err)
			}
		}
		dq.Run(serial - 1)
	}
}

// closureQueue is what a user would otherwise write: a slice of pending
// closures per frame, appended to and resliced.
type closureQueue struct {
	items []closureItem
}

type closureItem struct {
	serial uint64
	fn     func()
}

func (q *closureQueue) schedule(serial uint64, fn func()) {
	q.items = append(q.items, closureItem{serial, fn})
}

func (q *closureQueue) run(completed uint64) {
	i := 0
	for ; i < len(q.items) && q.items[i].serial <= completed; i++ {
		q.items[i].fn()
	}
	q.items = append(q.items[:0], q.items[i:]...)
}

// BenchmarkScheduleRunClosures is the comparison for BenchmarkScheduleRun:
// the closures capture their argument, so each schedule allocates.
func BenchmarkScheduleRunClosures(b *testing.B) {
	var q closureQueue
	rel := &countReleaser{}
	var serial uint64
	b.ReportAllocs()
	for b.Loop() {
		serial++
		for k := uint64(0); k < 4; k++ {
			q.schedule(serial, func() { rel.Release(k) })
		}
		q.run(serial - 1)
	}
}

// BenchmarkBarrierRoundTrip is one request, one owner pass and the wait
// that sees it, on one goroutine: the barrier's own cost.
func BenchmarkBarrierRoundTrip(b *testing.B) {
	var br Barrier
	b.ReportAllocs()
	for b.Loop() {
		epoch := br.Request()
		br.Enter()
		br.Exit()
		if err := br.WaitEpoch(epoch, time.Second); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBarrierWaitLiveOwner waits on an owner goroutine running
// passes back to back.
func BenchmarkBarrierWaitLiveOwner(b *testing.B) {
	var br Barrier
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if br.Enter() {
				br.Exit()
			}
			runtime.Gosched()
		}
	}()
	b.ReportAllocs()
	for b.Loop() {
		if err := br.Wait(5 * time.Second); err != nil {
			b.Fatal(err)
		}
	}
	close(stop)
	<-done
}

// BenchmarkChannelHandshake is the comparison for the barrier: the
// requester sends a reply channel to the owner, which answers after a pass.
func BenchmarkChannelHandshake(b *testing.B) {
	req := make(chan chan struct{})
	go func() {
		for reply := range req {
			reply <- struct{}{}
		}
	}()
	b.ReportAllocs()
	for b.Loop() {
		reply := make(chan struct{})
		req <- reply
		<-reply
	}
	close(req)
}

// BenchmarkGuardFrame is the FrameGuard's overhead per armed, clean frame:
// two runtime.ReadMemStats calls.
func BenchmarkGuardFrame(b *testing.B) {
	g, err := NewFrameGuard(GuardDesc{Settle: 1})
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
	g, err := NewFrameGuard(GuardDesc{Settle: 1, Sites: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
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
