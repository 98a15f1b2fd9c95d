package quads_test

import (
	"fmt"

	"github.com/steadyframe/steadyframe/internal/quads"
)

// A frame's quads go into arena memory (here a plain slice stands in for
// upload.Arena.Alloc's view) and come out as one draw run per texture.
func Example() {
	w, err := quads.NewWriter(16)
	if err != nil {
		panic(err)
	}
	view := make([]byte, 8*quads.QuadBytes) // arena.Alloc(8*quads.QuadBytes, 16)
	if err := w.Reset(view); err != nil {
		panic(err)
	}
	const white, atlas = 1, 2
	w.Fill(white, 0, 0, 100, 20, 0x000000c8)
	w.Quad(atlas, quads.Rect{X0: 4, Y0: 4, X1: 10, Y1: 14, U1: 0.1, V1: 1}, 0xffffffff)
	w.Quad(atlas, quads.Rect{X0: 12, Y0: 4, X1: 18, Y1: 14, U0: 0.1, U1: 0.2, V1: 1}, 0xffffffff)
	for _, r := range w.Runs() {
		fmt.Printf("texture %d: quads %d..%d\n", r.Texture, r.First, r.First+r.Count-1)
	}
	fmt.Println(w.Bytes(), "bytes to draw")
	// Output:
	// texture 1: quads 0..0
	// texture 2: quads 1..2
	// 240 bytes to draw
}
