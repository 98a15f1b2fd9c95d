package upload_test

import (
	"encoding/binary"
	"fmt"

	"github.com/steadyframe/steadyframe/upload"
)

// A renderer reserves its upload memory once and then, each frame, bumps
// per-draw data out of it. The CPU backend runs the same code without a
// GPU; upload/glbuf.New() would make it a mapped GL buffer.
func Example() {
	set, err := upload.NewSet(upload.SetDesc{Arenas: upload.StandardArenas()})
	if err != nil {
		panic(err)
	}
	defer set.Close()
	fmt.Printf("reserved %d MiB\n", set.Stats().Reserved>>20)

	sprites := set.Arena(upload.StandardSprites)
	for frame := 0; frame < 4; frame++ {
		if _, err := set.BeginFrame(); err != nil {
			panic(err)
		}
		// Four float32 per vertex, six vertices: one quad.
		off, view, err := sprites.Alloc(6*4*4, 16)
		if err != nil {
			panic(err)
		}
		for i := 0; i < len(view); i += 4 {
			binary.LittleEndian.PutUint32(view[i:], uint32(frame))
		}
		_ = off // a GL renderer binds (buffer, off, len(view)) for the draw
		if err := set.EndFrame(); err != nil {
			panic(err)
		}
	}
	st := sprites.Stats()
	fmt.Printf("%s: peak %d of %d bytes, %d allocs, %d failures\n", st.Name, st.Peak, st.Capacity, st.Allocs, st.Failures)
	// Output:
	// reserved 27 MiB
	// sprites: peak 96 of 4194304 bytes, 4 allocs, 0 failures
}

// A full arena refuses instead of overwriting memory an in-flight frame
// may still read.
func ExampleArena_Alloc_full() {
	set, _ := upload.NewSet(upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "particles", Size: 1024}}})
	defer set.Close()
	particles := set.Arena(0)
	_, _ = set.BeginFrame()
	_, _, err := particles.Alloc(2000, 16)
	fmt.Println(err)
	_, _, _ = particles.Alloc(1000, 16)
	_, _, err = particles.Alloc(100, 16)
	fmt.Println(err)
	_ = set.EndFrame()
	fmt.Println("failures:", particles.Stats().Failures)
	// Output:
	// upload: invalid size: 2000 bytes from arena "particles" (want 1..1024)
	// upload: arena full: "particles" frame 1: 100 bytes (align 16) requested, 1000 of 1024 used (1 failures this frame)
	// failures: 1
}
