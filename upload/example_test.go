package upload_test

import (
	"encoding/binary"
	"fmt"

	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/upload"
)

// A renderer reserves its upload memory once, in the layout it chooses,
// and then, each frame, bumps per-draw data out of it. The frame clock
// opens and closes the arenas; the CPU backend and CPU fences run the
// same code without a GPU (upload/glbuf.New() and lifetime/glfence.New
// make it a mapped GL buffer fenced on the GPU).
func Example() {
	clock, _ := frame.NewClock(frame.ClockDesc{}) // 3 frames in flight
	defer clock.Close()
	set, err := upload.NewSet(upload.SetDesc{Clock: clock, Arenas: []upload.ArenaDesc{
		{Name: "constants", Size: 1 << 20},
		{Name: "sprites", Size: 2 << 20},
	}})
	if err != nil {
		panic(err)
	}
	defer set.Close() // runs before clock.Close: the Set follows the clock
	fmt.Printf("reserved %d MiB\n", set.Stats().Reserved>>20)

	sprites := set.ArenaNamed("sprites")
	for i := 0; i < 4; i++ {
		serial, _ := clock.BeginFrame()
		// Four float32 per vertex, six vertices: one quad.
		off, view, err := sprites.Alloc(6*4*4, 16)
		if err != nil {
			panic(err)
		}
		for i := 0; i < len(view); i += 4 {
			binary.LittleEndian.PutUint32(view[i:], uint32(serial))
		}
		_ = off // a GL renderer binds (buffer, off, len(view)) for the draw
		_ = clock.EndFrame()
	}
	st := sprites.Stats()
	fmt.Printf("%s: peak %d of %d bytes, %d allocs, %d failures\n", st.Name, st.Peak, st.Capacity, st.Allocs, st.Failures)
	// Output:
	// reserved 9 MiB
	// sprites: peak 96 of 2097152 bytes, 4 allocs, 0 failures
}

// A full arena refuses instead of overwriting memory an in-flight frame
// may still read. The error is a bare sentinel; LastRefusal says why.
// Refusals are counted.
func ExampleArena_Alloc_full() {
	clock, _ := frame.NewClock(frame.ClockDesc{})
	defer clock.Close()
	set, _ := upload.NewSet(upload.SetDesc{Clock: clock, Arenas: []upload.ArenaDesc{{Name: "particles", Size: 1024}}})
	defer set.Close()
	particles := set.Arena(0)
	_, _ = clock.BeginFrame()
	_, _, err := particles.Alloc(2000, 16)
	fmt.Println(err == upload.ErrInvalidSize, particles.LastRefusal())
	_, _, _ = particles.Alloc(1000, 16)
	_, _, err = particles.Alloc(100, 16)
	fmt.Println(err == upload.ErrArenaFull, particles.LastRefusal())
	_ = clock.EndFrame()
	fmt.Println("failures:", particles.Stats().Failures)
	// Output:
	// true upload: invalid size: 2000 bytes from arena "particles" (want 1..1024)
	// true upload: arena full: "particles" frame 1: 100 bytes (align 16) requested, 1000 of 1024 used (2 failures this frame)
	// failures: 2
}

// In a frame the allocation guard watches, Alloc's bare sentinel is told
// apart by a switch, without allocating. LastRefusal has the detail.
func ExampleArena_LastRefusal() {
	clock, _ := frame.NewClock(frame.ClockDesc{})
	defer clock.Close()
	set, _ := upload.NewSet(upload.SetDesc{Clock: clock, Arenas: []upload.ArenaDesc{{Name: "particles", Size: 1024}}})
	defer set.Close()
	particles := set.Arena(0)
	_, _ = clock.BeginFrame()
	dropped := 0
	for i := 0; i < 20; i++ {
		if _, _, err := particles.Alloc(100, 16); err != nil {
			switch err {
			case upload.ErrArenaFull:
				dropped++ // draw fewer particles this frame
			default:
				fmt.Println(particles.LastRefusal()) // a bad request: a bug in the caller
			}
		}
	}
	_ = clock.EndFrame()
	fmt.Println("dropped:", dropped)
	fmt.Println(particles.LastRefusal())
	// Output:
	// dropped: 11
	// upload: arena full: "particles" frame 1: 100 bytes (align 16) requested, 996 of 1024 used (11 failures this frame)
}

// The hottest loops use TryAlloc, which inlines. A refusal is ok false,
// and LastRefusal().Err is the sentinel Alloc would return.
func ExampleArena_TryAlloc() {
	clock, _ := frame.NewClock(frame.ClockDesc{})
	defer clock.Close()
	set, _ := upload.NewSet(upload.SetDesc{Clock: clock, Arenas: []upload.ArenaDesc{{Name: "particles", Size: 1024}}})
	defer set.Close()
	particles := set.Arena(0)
	_, _ = clock.BeginFrame()
	drawn := 0
	for i := 0; i < 20; i++ {
		if _, view, ok := particles.TryAlloc(100, 16); ok {
			view[0] = byte(i) // write the particle's vertices
			drawn++
		} else if particles.LastRefusal().Err != upload.ErrArenaFull {
			fmt.Println(particles.LastRefusal()) // a bad request: a bug in the caller
		}
	}
	_ = clock.EndFrame()
	fmt.Println("drawn:", drawn, "failures:", particles.Stats().Failures)
	// Output:
	// drawn: 9 failures: 11
}
