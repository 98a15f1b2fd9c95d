package sprites_test

import (
	"fmt"

	"github.com/steadyframe/steadyframe/internal/quads"
	"github.com/steadyframe/steadyframe/internal/sprites"
)

// Each frame: step the sprites, react to wall hits, stream their quads.
func Example() {
	sim, err := sprites.New(100, 16, 320, 240, 42)
	if err != nil {
		panic(err)
	}
	w, _ := quads.NewWriter(8)
	view := make([]byte, sim.Len()*quads.QuadBytes) // the sprites arena's view this frame
	texture := func(i int) uint32 { return uint32(1 + i/25) }
	hits := 0
	for frame := 0; frame < 120; frame++ {
		sim.Step(1.0/60, 320, 240)
		hits += len(sim.Events()) // the demo plays a sound for a few of these
		_ = w.Reset(view)
		sim.Write(w, texture)
	}
	fmt.Println(len(w.Runs()), "draws per frame; wall hits seen:", hits > 0)
	// Output: 4 draws per frame; wall hits seen: true
}
