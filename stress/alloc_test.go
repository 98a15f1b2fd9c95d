package main

import (
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/flatlog"
	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/lifetime/syncs"
)

// Everything the render goroutine and the workers do per frame that this
// package implements must allocate nothing; these tests and the matching
// benchmarks are the claim.

func TestSeriesNoAllocs(t *testing.T) {
	s := newSeries(64)
	testenv.NoAllocs(t, "series.Offer", 200, func() { s.Offer(sample{Live: 1}) })
}

func TestOccupancyLineNoAllocs(t *testing.T) {
	for _, json := range []bool{false, true} {
		format := "text"
		if json {
			format = "json"
		}
		o := newOccupancyLog(scene.NewLogger(format, io.Discard), 1024, time.Nanosecond, nil)
		st := descriptors.Stats{Capacity: 1024, Live: 239, Peak: 275, HighWater: 275}
		var at time.Duration
		testenv.NoAllocs(t, "occupancy line", 200, func() {
			at += time.Second
			o.Write(at, st)
		})
	}
}

func TestPlainProgressNoAllocs(t *testing.T) {
	p := newProgress(io.Discard, 1000, 0, time.Millisecond)
	var at time.Duration
	testenv.NoAllocs(t, "plain progress line", 200, func() {
		at += time.Millisecond
		p.Update(at, 10, 239, 275, true)
	})
}

func TestWorkerTickNoAllocs(t *testing.T) {
	cfg := defaultConfig()
	cfg.churnRate = 1000
	cfg.playRate = 0
	q := mustQueue(1 << 12)
	w := newWorker(0, &cfg, &clock{}, q, nil)
	serial := uint64(0)
	now := time.Now()
	testenv.NoAllocs(t, "worker tick", 200, func() {
		serial++
		now = now.Add(time.Second / 60)
		w.tick(serial, now)
		for {
			if _, ok := q.Pop(); !ok {
				break
			}
		}
	})
}

// BenchmarkOccupancyLine writes the tool's occupancy line through
// flatlog, as the tool does, and through slog's own TextHandler, which
// takes its buffer from a sync.Pool.
func BenchmarkOccupancyLine(b *testing.B) {
	for _, c := range []struct {
		name string
		h    slog.Handler
	}{
		{"impl=ours", flatlog.New(io.Discard, flatlog.FormatText, nil)},
		{"impl=slog-text", slog.NewTextHandler(io.Discard, nil)},
	} {
		b.Run(c.name, func(b *testing.B) {
			o := newOccupancyLog(slog.New(c.h), 1024, time.Nanosecond, nil)
			st := descriptors.Stats{Capacity: 1024, Live: 239, Peak: 275, HighWater: 275}
			var at time.Duration
			b.ReportAllocs()
			for b.Loop() {
				at += time.Second
				o.Write(at, st)
			}
		})
	}
}

// TestFlatHandlerSurvivesGC is why the stress tool logs through flatlog:
// slog's handlers take their buffer from a sync.Pool, which a GC empties,
// so the first line after a collection allocates; the guard forces a
// collection when it arms. flatlog's buffer is its own.
func TestFlatHandlerSurvivesGC(t *testing.T) {
	testenv.SkipUnderRace(t)
	st := descriptors.Stats{Capacity: 1024, Live: 239, Peak: 275, HighWater: 275}
	// Mallocs is process-wide, and right after a GC the runtime itself
	// sometimes allocates (a new worker thread, the scavenger), so take
	// the fewest of five tries: an allocation of the handler's own shows
	// in every one.
	afterGC := func(h slog.Handler) uint64 {
		o := newOccupancyLog(slog.New(h), 1024, time.Nanosecond, nil)
		o.Write(time.Second, st) // warm
		fewest := uint64(1 << 63)
		for try := range 5 {
			runtime.GC()
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			o.Write(time.Duration(2+try)*time.Second, st)
			runtime.ReadMemStats(&after)
			fewest = min(fewest, after.Mallocs-before.Mallocs)
		}
		return fewest
	}
	if n := afterGC(flatlog.New(io.Discard, flatlog.FormatText, nil)); n != 0 {
		t.Errorf("flat handler: %d allocations for the first line after a GC", n)
	}
	if n := afterGC(slog.NewTextHandler(io.Discard, nil)); n == 0 {
		t.Log("slog.TextHandler did not allocate after a GC here; the flat handler is still never worse")
	}
}

// mustQueue makes the render goroutine's request queue for a test.
func mustQueue(n int) *syncs.Queue[request] {
	q, err := syncs.NewQueue[request](n)
	if err != nil {
		panic(err)
	}
	return q
}

// BenchmarkProgressLine is the terminal progress line as the tool writes
// it (appended into a reused buffer, one Write) beside the same line
// formatted with fmt.Fprintf, as a user would otherwise write it.
func BenchmarkProgressLine(b *testing.B) {
	b.Run("impl=ours", func(b *testing.B) {
		p := newProgress(io.Discard, 0, time.Minute, time.Millisecond)
		p.term = true
		var at time.Duration
		b.ReportAllocs()
		for b.Loop() {
			at += time.Millisecond
			p.Update(at, 1234, 239, 275, true)
		}
	})
	b.Run("impl=fmt", func(b *testing.B) {
		var at time.Duration
		b.ReportAllocs()
		for b.Loop() {
			at += time.Millisecond
			fmt.Fprintf(io.Discard, "\rstress %3d%%  frames %8d  elapsed %6.1fs  descriptors live %4d peak %4d  guard %-8s",
				at.Milliseconds()*100/60000, 1234, at.Seconds(), 239, 275, "ok")
		}
	})
}

// BenchmarkObjectsFrame is one frame of game objects: a spawn, a despawn
// and the step that fills the frame's arena, over 128 live objects.
func BenchmarkObjectsFrame(b *testing.B) {
	o, err := newObjects()
	if err != nil {
		b.Fatal(err)
	}
	var l ledger
	for i := range 128 {
		o.spawn(request{kind: reqSpawn, seed: uint64(i + 1)}, 1280, 720, &l)
	}
	seed := uint64(1000)
	b.ReportAllocs()
	for b.Loop() {
		seed++
		o.spawn(request{kind: reqSpawn, seed: seed}, 1280, 720, &l)
		_ = o.despawn(&l)
		_ = o.step(1.0/60, 1280, 720)
	}
}
