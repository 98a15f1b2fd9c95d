package descriptors_test

import (
	"testing"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/lifetime/frame"
)

// mapSlots is what a renderer writes without a slot table: a map from an
// ever-increasing id to the texture, with the slot reused never.
type mapSlots struct {
	next  uint64
	live  map[uint64]uint32
	retry []uint64 // ids freed this frame, deleted once the frame is done
}

func (m *mapSlots) alloc(tex uint32) uint64 {
	m.next++
	m.live[m.next] = tex
	return m.next
}

func (m *mapSlots) free(id uint64) { m.retry = append(m.retry, id) }

func (m *mapSlots) retire() {
	for _, id := range m.retry {
		delete(m.live, id)
	}
	m.retry = m.retry[:0]
}

// churnPerFrame is how many textures BenchmarkChurn replaces per frame:
// about one quality swap's worth (30), so the frame's own cost, which a
// renderer pays whether or not it churns textures, weighs on each
// replacement as it would in a game.
const churnPerFrame = 32

// BenchmarkChurn measures one texture replaced per op (free, alloc, and
// the slot's reclaim once its frame completes) on a heap with 239 live
// slots, driven by a frame clock of CPU fences, churnPerFrame
// replacements a frame; the map-based allocator does the same bookkeeping
// on the same clock. The loop steps through the textures with a counter,
// not i % len: a 64-bit division would cost the harness as much as the
// heap.
func BenchmarkChurn(b *testing.B) {
	b.Run("impl=ours", func(b *testing.B) {
		clock, err := frame.NewClock(frame.ClockDesc{})
		if err != nil {
			b.Fatal(err)
		}
		h, err := descriptors.NewHeap(descriptors.HeapDesc{Logger: quiet(), Clock: clock})
		if err != nil {
			b.Fatal(err)
		}
		hs := make([]descriptors.Handle, 239)
		if err := h.AllocN(hs); err != nil {
			b.Fatal(err)
		}
		_, _ = clock.BeginFrame()
		b.ReportAllocs()
		b.ResetTimer()
		k := 0
		for i := 0; i < b.N; i++ {
			if i%churnPerFrame == 0 {
				_ = clock.EndFrame()
				_, _ = clock.BeginFrame() // reclaims the previous frame's slots
			}
			if err := h.Free(hs[k]); err != nil {
				b.Fatal(err)
			}
			nh, err := h.Alloc()
			if err != nil {
				b.Fatal(err)
			}
			hs[k] = nh
			if k++; k == len(hs) {
				k = 0
			}
		}
	})
	b.Run("impl=map", func(b *testing.B) {
		clock, err := frame.NewClock(frame.ClockDesc{})
		if err != nil {
			b.Fatal(err)
		}
		m := &mapSlots{live: make(map[uint64]uint32)}
		ids := make([]uint64, 239)
		for i := range ids {
			ids[i] = m.alloc(uint32(i))
		}
		_, _ = clock.BeginFrame()
		b.ReportAllocs()
		b.ResetTimer()
		k := 0
		for i := 0; i < b.N; i++ {
			if i%churnPerFrame == 0 {
				_ = clock.EndFrame()
				_, _ = clock.BeginFrame()
				m.retire()
			}
			m.free(ids[k])
			ids[k] = m.alloc(uint32(i))
			if k++; k == len(ids) {
				k = 0
			}
		}
	})
}

// BenchmarkResolve measures turning a handle into a slot index, which a
// renderer does for every draw: the heap checks the generation; a map
// looks the id up.
func BenchmarkResolve(b *testing.B) {
	b.Run("impl=ours", func(b *testing.B) {
		clock, _ := frame.NewClock(frame.ClockDesc{})
		h, _ := descriptors.NewHeap(descriptors.HeapDesc{Logger: quiet(), Clock: clock})
		hs := make([]descriptors.Handle, 239)
		if err := h.AllocN(hs); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		sum := 0
		for i := 0; i < b.N; i++ {
			idx, err := h.Get(hs[i%len(hs)])
			if err != nil {
				b.Fatal(err)
			}
			sum += idx
		}
		sinkInt = sum
	})
	b.Run("impl=map", func(b *testing.B) {
		m := &mapSlots{live: make(map[uint64]uint32)}
		ids := make([]uint64, 239)
		for i := range ids {
			ids[i] = m.alloc(uint32(i))
		}
		b.ReportAllocs()
		b.ResetTimer()
		sum := 0
		for i := 0; i < b.N; i++ {
			tex, ok := m.live[ids[i%len(ids)]]
			if !ok {
				b.Fatal("missing")
			}
			sum += int(tex)
		}
		sinkInt = sum
	})
}

var sinkInt int
