package descriptors_test

import (
	"testing"

	"github.com/steadyframe/steadyframe/descriptors"
)

// BenchmarkBaseline_Churn is today's BenchmarkChurn/impl=ours on the heap
// of 9b6fe4b: 239 live slots, one texture replaced per op, churnPerFrame
// replacements a frame. That heap had no frame clock; the renderer told
// it each frame's serial (BeginFrame) and what had completed (Retire).
// Today's benchmark runs a clock of CPU fences that complete when
// signalled, so each frame start reclaims the frame before it; so does
// this one.
func BenchmarkBaseline_Churn(b *testing.B) {
	const churnPerFrame = 32
	h, err := descriptors.NewHeap(descriptors.HeapDesc{Logger: quiet()})
	if err != nil {
		b.Fatal(err)
	}
	hs := make([]descriptors.Handle, 239)
	if err := h.AllocN(hs); err != nil {
		b.Fatal(err)
	}
	serial := uint64(1)
	_ = h.BeginFrame(serial)
	b.ReportAllocs()
	b.ResetTimer()
	k := 0
	for i := 0; i < b.N; i++ {
		if i%churnPerFrame == 0 {
			h.Retire(serial)
			serial++
			_ = h.BeginFrame(serial)
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
}
