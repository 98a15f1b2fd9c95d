package gltex_test

import (
	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/descriptors/gltex"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/lifetime/glfence"
	"github.com/steadyframe/steadyframe/upload"
	"github.com/steadyframe/steadyframe/upload/glbuf"
)

// How a GL renderer wires the pieces: one frame clock with GL fences
// shared by the upload Set and the texture Manager, the Set's arena used
// as the staging buffer for texture uploads. It needs a current GL
// context (glctx.New on the render thread), so it has no output to check
// here; the tests in this package run the same wiring under Xvfb.
func Example() {
	ctx, err := glctx.New(glctx.Desc{})
	if err != nil {
		return // no display
	}
	defer ctx.Close()
	frames, _ := frame.NewClock(frame.ClockDesc{NewFence: glfence.New})
	defer frames.Close()
	buf, _ := glbuf.New()
	set, _ := upload.NewSet(upload.SetDesc{Arenas: upload.StandardArenas(), Backend: buf, Frames: frames})
	defer set.Close()
	textures, _ := gltex.New(gltex.Desc{
		Heap:    descriptors.HeapDesc{Capacity: 1024},
		Staging: set.Arena(upload.StandardRenderer), StagingBuffer: buf.Buffer(),
	})
	defer textures.Close()

	serial, _ := frames.BeginFrame()
	_, _ = set.BeginFrame()
	textures.Retire(frames.Completed())
	_ = textures.BeginFrame(serial)

	white := []byte{255, 255, 255, 255}
	h, _ := textures.Create(1, 1, gltex.FormatRGBA8, white)
	_ = textures.Bind(0, h) // the shader's sampler uses layout(binding = 0)
	// ... draw ...
	_ = textures.Free(h) // deleted once this frame has completed

	_ = set.EndFrame()
	_ = frames.EndFrame()
	_ = frames.Drain()
	textures.Retire(frames.Completed())
}
