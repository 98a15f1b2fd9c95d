package gltex_test

import (
	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/descriptors/gltex"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/lifetime/glfence"
	"github.com/steadyframe/steadyframe/upload"
	"github.com/steadyframe/steadyframe/upload/glbuf"
)

// How a GL renderer wires the pieces on the context it made (GLFW here,
// on the main OS thread): one frame clock with GL fences, followed by the
// upload Set, whose arena stages texture uploads, and by the texture
// Manager. The frame is opened and closed on the clock only; the texture
// freed in it is deleted once the clock has seen that frame's fence. It
// needs a display, so it has no output to check here; the tests in this
// package run the same wiring under Xvfb.
func Example() {
	if err := glfw.Init(); err != nil {
		return // no display
	}
	defer glfw.Terminate()
	glfw.WindowHint(glfw.ContextVersionMajor, 3)
	glfw.WindowHint(glfw.ContextVersionMinor, 3) // the newest core context the driver has
	glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
	glfw.WindowHint(glfw.Visible, glfw.False)
	win, err := glfw.CreateWindow(64, 64, "textures", nil, nil)
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
	textures, _ := gltex.New(gltex.Desc{
		Heap:    descriptors.HeapDesc{Clock: clock, Capacity: 1024},
		Staging: set.Arena(0), StagingBuffer: buf.Buffer(),
	})

	_, _ = clock.BeginFrame()
	white := []byte{255, 255, 255, 255}
	h, _ := textures.Create(1, 1, gltex.FormatRGBA8, white)
	_ = textures.Bind(0, h) // the shader's sampler uses layout(binding = 0)
	// ... draw ...
	_ = textures.Free(h) // deleted once this frame has completed
	_ = clock.EndFrame()

	// Teardown: the frames drain (the texture is deleted), then the
	// managers close, then the clock, then the context.
	_ = clock.Drain()
	_ = textures.Close()
	_ = set.Close()
	_ = clock.Close()
}
