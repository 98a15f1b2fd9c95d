package descriptors_test

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/lifetime/frame"
)

// A renderer drives the heap from its frame clock: Retire what completed
// frames allow, then record the frame. A freed slot comes back only after
// the frame that freed it completes, and then before any fresh slot.
func Example() {
	frames, _ := frame.NewClock(frame.ClockDesc{}) // CPU fences: frames complete at once
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

// Grow lifts the ceiling when the owner decides to, at load time: handles
// keep their slots, the new slots lie above the high-water mark, and the
// change is logged with the numbers that justified it. At 2 of 4 slots the
// warnings are re-armed, so reaching 75% of the grown heap warns again.
func ExampleHeap_Grow() {
	log := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{} // keep the output stable
			}
			return a
		},
	}))
	heap, _ := descriptors.NewHeap(descriptors.HeapDesc{Capacity: 2, Name: "ui", Logger: log})
	a, _ := heap.Alloc()
	_, _ = heap.Alloc()
	err := heap.Grow(2)
	fmt.Println(errors.Is(err, descriptors.ErrInvalidCapacity))
	if err := heap.Grow(4); err != nil {
		fmt.Println(err)
	}
	c, _ := heap.Alloc()
	fmt.Println("slot", a.Index(), "still valid:", heap.Valid(a), "- new texture in slot", c.Index())
	fmt.Println(heap.Stats())
	// Output:
	// level=WARN msg="descriptors: heap \"ui\" crossed 75% occupancy" heap=ui capacity=2 pct=100 live=2 pending=0 peak=2 high_water=2
	// level=WARN msg="descriptors: heap \"ui\" crossed 90% occupancy" heap=ui capacity=2 pct=100 live=2 pending=0 peak=2 high_water=2
	// true
	// level=INFO msg="descriptors: heap grown" heap=ui old_capacity=2 capacity=4 live=2 pending=0 peak=2 high_water=2
	// level=WARN msg="descriptors: heap \"ui\" crossed 75% occupancy" heap=ui capacity=4 pct=75 live=3 pending=0 peak=3 high_water=3
	// slot 0 still valid: true - new texture in slot 2
	// ui        3/4 ( 75.0%) [###############.....] live 3 pending 0 peak 3 high-water 3 recycled 0
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
