package upload_test

import (
	"testing"

	"github.com/steadyframe/steadyframe/upload"
)

// The baselines are today's BenchmarkArenaAlloc*/impl=ours (TryAlloc, the
// inlined hot path; the old Alloc was inlined too) on the arena
// of 9b6fe4b: a frame's 1,024 allocations of n bytes aligned to 16, then
// the next frame. That Set had no frame clock and fenced its own frames.
func BenchmarkBaseline_ArenaAlloc64B(b *testing.B)  { baselineAlloc(b, 64) }
func BenchmarkBaseline_ArenaAlloc256B(b *testing.B) { baselineAlloc(b, 256) }
func BenchmarkBaseline_ArenaAlloc1KiB(b *testing.B) { baselineAlloc(b, 1024) }
func BenchmarkBaseline_ArenaAlloc4KiB(b *testing.B) { baselineAlloc(b, 4096) }

var baselineSink int

func baselineAlloc(b *testing.B, n int) {
	const drawsPerFrame = 1024
	s, err := upload.NewSet(upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "bench", Size: drawsPerFrame * n}}})
	if err != nil {
		b.Fatal(err)
	}
	a := s.Arena(0)
	_, _ = s.BeginFrame()
	b.ReportAllocs()
	b.ResetTimer()
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
			_ = s.EndFrame()
			_, _ = s.BeginFrame()
		}
	}
	baselineSink = used
	b.StopTimer()
	_ = s.EndFrame()
	_ = s.Close()
}
