package upload_test

import (
	"testing"

	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/upload"
)

var (
	sink    []byte
	sinkInt int
)

// The BenchmarkArenaAllocN benchmarks compare an arena bump with
// make([]byte, n), which is what per-draw data costs without an arena.
// The arena runs the way a renderer runs it: drawsPerFrame allocations a
// frame, the frame opened and closed on the clock every drawsPerFrame ops
// (inside the timing: a renderer pays for it, about 0.1 ns an op), its
// region one frame's draws. Neither variant writes the views: the caller
// writes the same bytes after either allocator, so that cost is the
// caller's, not the allocator's; make's figure includes its zeroing and
// its garbage, which are make's. Each keeps its results live (a sum of
// offsets and lengths, a package variable), so nothing is optimised out.
//
// They used to cycle a 4 MiB region, a frame per region's worth of
// allocations, and store into the first byte of each view: with three
// frames in flight each op then wrote a fresh cache line of a 12 MiB span,
// and the arena's figure (3.4-4.8 ns at 64 bytes, 10-16 ns at 4 KiB) was
// the machine's write-allocate bandwidth, not Alloc's instructions, which
// do not depend on the size. One top-level benchmark per size keeps each
// impl=ours result next to exactly the one it is compared with.
func BenchmarkArenaAlloc64B(b *testing.B)  { benchAlloc(b, 64) }
func BenchmarkArenaAlloc256B(b *testing.B) { benchAlloc(b, 256) }
func BenchmarkArenaAlloc1KiB(b *testing.B) { benchAlloc(b, 1024) }
func BenchmarkArenaAlloc4KiB(b *testing.B) { benchAlloc(b, 4096) }

// drawsPerFrame is the allocations per frame of BenchmarkArenaAllocN: a
// frame of about a thousand draws, each uploading its own data.
const drawsPerFrame = 1024

func benchAlloc(b *testing.B, n int) {
	// impl=ours is the hot path, TryAlloc, inlined; impl=ours-alloc is
	// Alloc, which returns a sentinel and is not inlined. Each loop calls
	// its allocator directly: a call through a func value would be
	// measured with it.
	b.Run("impl=ours", func(b *testing.B) {
		a, c, done := benchArena(b, n)
		used := 0
		for i := 0; i < b.N; {
			// A frame's draws, then the next frame: the inner loop makes
			// no call, so the harness spills nothing around TryAlloc.
			draws := min(drawsPerFrame, b.N-i)
			for range draws {
				off, v, ok := a.TryAlloc(n, 16)
				if !ok {
					b.Fatal(a.LastRefusal())
				}
				used += off + len(v)
			}
			if i += draws; i < b.N {
				_ = c.EndFrame()
				_, _ = c.BeginFrame()
			}
		}
		sinkInt = used
		done()
	})
	b.Run("impl=ours-alloc", func(b *testing.B) {
		a, c, done := benchArena(b, n)
		used := 0
		for i := 0; i < b.N; {
			draws := min(drawsPerFrame, b.N-i)
			for range draws {
				off, v, err := a.Alloc(n, 16)
				if err != nil {
					b.Fatal(err)
				}
				used += off + len(v)
			}
			if i += draws; i < b.N {
				_ = c.EndFrame()
				_, _ = c.BeginFrame()
			}
		}
		sinkInt = used
		done()
	})
	b.Run("impl=make", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			sink = make([]byte, n)
		}
	})
}

// benchArena makes an arena of drawsPerFrame allocations of n bytes,
// opens its first frame and starts the timer. done stops the timer and
// tears it down.
func benchArena(b *testing.B, n int) (a *upload.Arena, c *frame.Clock, done func()) {
	c, err := frame.NewClock(frame.ClockDesc{})
	if err != nil {
		b.Fatal(err)
	}
	s, err := upload.NewSet(upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "bench", Size: drawsPerFrame * n}}, Clock: c})
	if err != nil {
		b.Fatal(err)
	}
	_, _ = c.BeginFrame()
	b.ReportAllocs()
	b.ResetTimer()
	return s.Arena(0), c, func() {
		b.StopTimer()
		_ = c.EndFrame()
		_ = s.Close()
		_ = c.Close()
	}
}

// BenchmarkFrame measures one empty frame of a Set of three arenas: the
// fixed cost a renderer pays per frame for its upload arenas, the frame
// clock's own included.
func BenchmarkFrame(b *testing.B) {
	c, err := frame.NewClock(frame.ClockDesc{})
	if err != nil {
		b.Fatal(err)
	}
	s, err := upload.NewSet(upload.SetDesc{Arenas: []upload.ArenaDesc{
		{Name: "renderer", Size: 4 << 20}, {Name: "sprites", Size: 4 << 20}, {Name: "particles", Size: 1 << 20},
	}, Clock: c})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.BeginFrame(); err != nil {
			b.Fatal(err)
		}
		if err := c.EndFrame(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	_ = s.Close()
	_ = c.Close()
}
