package descriptors_test

import (
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/lifetime"
)

// A renderer drives the heap from its frame clock: Retire what completed
// frames allow, then record the frame. A freed slot comes back only after
// the frame that freed it completes, and then before any fresh slot.
func Example() {
	frames, _ := lifetime.NewFrames(lifetime.FramesDesc{}) // CPU fences: frames complete at once
	defer frames.Close()
	heap, _ := descriptors.NewHeap(descriptors.HeapDesc{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})

	frame := func(work func()) {
		serial, _ := frames.BeginFrame()
		heap.Retire(frames.Completed())
		_ = heap.BeginFrame(serial)
		work()
		_ = frames.EndFrame()
	}
	var font, sky descriptors.Handle
	frame(func() {
		font, _ = heap.Alloc()
		sky, _ = heap.Alloc()
	})
	frame(func() {
		_ = heap.Free(font)
		_, err := heap.Get(font)
		fmt.Println(errors.Is(err, descriptors.ErrStaleHandle))
		fmt.Println("pending:", heap.Stats().Pending)
	})
	frame(func() {
		rebaked, _ := heap.Alloc()
		fmt.Println("rebaked font reuses slot", rebaked.Index(), "- sky still at", sky.Index())
	})
	st := heap.Stats()
	fmt.Printf("live %d peak %d high-water %d recycled %d\n", st.Live, st.Peak, st.HighWater, st.Recycled)
	// Output:
	// true
	// pending: 1
	// rebaked font reuses slot 0 - sky still at 1
	// live 2 peak 2 high-water 2 recycled 1
}

// Exhaustion quotes the numbers that tell a leak from a limit.
func ExampleHeap_Alloc_exhausted() {
	heap, _ := descriptors.NewHeap(descriptors.HeapDesc{Capacity: 2, Name: "ui",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	a, _ := heap.Alloc()
	_, _ = heap.Alloc()
	_ = heap.Free(a) // pending until its frame completes
	_, err := heap.Alloc()
	fmt.Println(err)
	// Output:
	// descriptors: heap exhausted: "ui" cannot supply 1 slot(s): live 1, peak 2, pending 1, capacity 2 (live near capacity means textures are never freed; pending high means frames are not retiring)
}

// Stats.String is a fixed-width line for a console or a test failure. It
// allocates the string, so code inside allocation-guarded frames uses
// Stats.Append with a buffer it keeps instead.
func ExampleStats_String() {
	st := descriptors.Stats{Name: "textures", Capacity: 1024, Live: 239, Peak: 275, HighWater: 275, Recycled: 43}
	fmt.Println(st)
	// Output:
	// textures   239/1024 ( 23.3%) [####................] live  239 pending    0 peak  275 high-water  275 recycled 43
}

// Stats.Append writes the same line into a buffer kept across frames,
// without allocating once the buffer has room.
func ExampleStats_Append() {
	line := make([]byte, 0, 160) // kept by the overlay, reused each frame
	st := descriptors.Stats{Name: "textures", Capacity: 1024, Live: 1000, Pending: 24, Peak: 1024, HighWater: 1024}
	line = st.Append(line[:0])
	fmt.Println(string(line))
	// Output:
	// textures  1024/1024 (100.0%) [####################] live 1000 pending   24 peak 1024 high-water 1024 recycled 0
}
