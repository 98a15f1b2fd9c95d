package upload_test

import (
	"testing"

	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/upload"
)

var sink []byte

// The BenchmarkArenaAllocN benchmarks compare an arena bump (frames
// cycled when the 4 MiB region fills) with make([]byte, n), which is what
// per-draw data costs without an arena. Both write the first byte so
// neither is optimised out. One top-level benchmark per size keeps each
// "ours-" result next to exactly the one it is compared with.
func BenchmarkArenaAlloc64B(b *testing.B)  { benchAlloc(b, 64) }
func BenchmarkArenaAlloc256B(b *testing.B) { benchAlloc(b, 256) }
func BenchmarkArenaAlloc1KiB(b *testing.B) { benchAlloc(b, 1024) }
func BenchmarkArenaAlloc4KiB(b *testing.B) { benchAlloc(b, 4096) }

func benchAlloc(b *testing.B, n int) {
	b.Run("ours-arena", func(b *testing.B) {
		c, err := frame.NewClock(frame.ClockDesc{})
		if err != nil {
			b.Fatal(err)
		}
		s, err := upload.NewSet(upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "bench", Size: 4 << 20}}, Clock: c})
		if err != nil {
			b.Fatal(err)
		}
		a := s.Arena(0)
		_, _ = c.BeginFrame()
		b.ReportAllocs()
		b.SetBytes(int64(n))
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			_, v, err := a.Alloc(n, 16)
			if err != nil {
				_ = c.EndFrame()
				_, _ = c.BeginFrame()
				_, v, _ = a.Alloc(n, 16)
			}
			v[0] = byte(i)
		}
		b.StopTimer()
		_ = c.EndFrame()
		_ = s.Close()
		_ = c.Close()
	})
	b.Run("make", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(n))
		for i := 0; i < b.N; i++ {
			v := make([]byte, n)
			v[0] = byte(i)
			sink = v
		}
	})
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
