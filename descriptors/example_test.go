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

// printer stands in for a device backend (gltex deletes the GL texture).
type printer struct{}

func (printer) ReleaseSlot(i int) { fmt.Println("released slot", i) }

// The frame protocol: the renderer opens and closes each frame on its
// clock, and the heap follows the clock. A texture freed in frame 1 is
// stale at once, but its slot and device object live until frame 1's
// fence signals; then the slot is reused before any fresh one.
func Example() {
	var gpu []*frame.CPUFence // fences the test completes by hand: a slow GPU
	clock, _ := frame.NewClock(frame.ClockDesc{NewFence: func() (frame.Fence, error) {
		f := frame.NewCPUFence(true)
		gpu = append(gpu, f)
		return f, nil
	}})
	heap, _ := descriptors.NewHeap(descriptors.HeapDesc{Clock: clock, Releaser: printer{},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})

	_, _ = clock.BeginFrame() // frame 1
	font, _ := heap.Alloc()
	sky, _ := heap.Alloc()
	_ = heap.Free(font) // frame 1 may still sample it
	fmt.Println("font valid:", heap.Valid(font))
	_ = clock.EndFrame()

	_, _ = clock.BeginFrame() // frame 2; frame 1 is still on the GPU
	fmt.Println("pending:", heap.Stats().Pending)
	_ = clock.EndFrame()

	gpu[clock.Slot(1)].Complete() // the GPU finishes frame 1
	_, _ = clock.BeginFrame()     // frame 3 sees it: the slot is reclaimed
	rebaked, _ := heap.Alloc()
	fmt.Println("rebaked font in slot", rebaked.Index(), "- sky still in", sky.Index())
	_ = clock.EndFrame()

	_ = heap.FreeN([]descriptors.Handle{rebaked, sky})
	for _, f := range gpu {
		f.Complete()
	}
	_ = clock.Drain() // everything complete: the slots are reclaimed
	fmt.Println(heap.Close(), clock.Close())
	// Output:
	// font valid: false
	// pending: 1
	// released slot 0
	// rebaked font in slot 0 - sky still in 1
	// released slot 0
	// released slot 1
	// <nil> <nil>
}

// Exhaustion quotes the numbers that tell a leak from a limit.
func ExampleHeap_Alloc_exhausted() {
	clock, _ := frame.NewClock(frame.ClockDesc{})
	heap, _ := descriptors.NewHeap(descriptors.HeapDesc{Capacity: 2, Name: "ui", Clock: clock,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	a, _ := heap.Alloc()
	_, _ = heap.Alloc()
	_ = heap.Free(a) // pending until the clock reports its frame complete
	// The refusal is the bare sentinel: testing it allocates nothing.
	if _, err := heap.Alloc(); err == descriptors.ErrHeapExhausted {
		fmt.Println(heap.LastRefusal()) // the detail is the heap's
	}
	// Output:
	// descriptors: heap exhausted: "ui" cannot supply 1 slot(s): live 1, peak 2, pending 1, retired 0, capacity 2 (live near capacity means textures are never freed; pending high means frames are not completing)
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
	clock, _ := frame.NewClock(frame.ClockDesc{})
	heap, _ := descriptors.NewHeap(descriptors.HeapDesc{Capacity: 2, Name: "ui", Logger: log, Clock: clock})
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
