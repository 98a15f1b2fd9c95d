package glarray_test

import (
	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/descriptors/glarray"
	"github.com/steadyframe/steadyframe/descriptors/gltex"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/lifetime/glfence"
	"github.com/steadyframe/steadyframe/upload"
	"github.com/steadyframe/steadyframe/upload/glbuf"
)

// How a renderer makes a heap its shader can index, on the context it
// made: one class of 64×64 sprites (one array of 256 layers), following
// the frame clock as the upload Set does. A texture's layer is its slot;
// the draw binds the array once and passes each sprite's layer with it.
// It needs a display, so it has no output to check here; the tests in
// this package run the same wiring under Xvfb.
func Example() {
	if err := glfw.Init(); err != nil {
		return // no display
	}
	defer glfw.Terminate()
	glfw.WindowHint(glfw.ContextVersionMajor, 3)
	glfw.WindowHint(glfw.ContextVersionMinor, 3) // the newest core context the driver has
	glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
	glfw.WindowHint(glfw.Visible, glfw.False)
	win, err := glfw.CreateWindow(64, 64, "arrays", nil, nil)
	if err != nil {
		return
	}
	defer win.Destroy()
	win.MakeContextCurrent()
	if err := gl.Init(); err != nil {
		return
	}

	clock, _ := frame.NewClock(frame.ClockDesc{NewFence: glfence.New})
	buf, _ := glbuf.New()
	set, _ := upload.NewSet(upload.SetDesc{Clock: clock, Backend: buf,
		Arenas: []upload.ArenaDesc{{Name: "staging", Size: 4 << 20}}})
	arrays, _ := glarray.New(glarray.Desc{
		Heap:    descriptors.HeapDesc{Clock: clock},
		Classes: []glarray.Class{{Name: "sprites", Width: 64, Height: 64, Format: gltex.FormatRGBA8, Layers: 256}},
		Staging: set.Arena(0), StagingBuffer: buf.Buffer(),
	})

	_, _ = clock.BeginFrame()
	pixels := make([]byte, 64*64*4)
	hero, _ := arrays.Create(0, pixels, "hero") // the name is kept, not copied
	_ = hero.Layer()                            // the index the shader samples: stream it per sprite
	_ = arrays.Bind(0, hero.Class())            // unit 0: glUniform1i(sprites, 0) once per program
	// ... one instanced draw for every sprite of the class ...
	_ = arrays.Free(hero) // the layer is reused once this frame has completed
	_ = clock.EndFrame()

	_ = clock.Drain()
	_ = arrays.Close() // with live textures, an error naming each one
	_ = set.Close()
	_ = clock.Close()
}
