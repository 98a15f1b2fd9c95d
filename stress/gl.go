package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/go-gl/gl/v4.5-core/gl"
	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/descriptors/gltex"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/quads"
	"github.com/steadyframe/steadyframe/internal/quads/quadgl"
	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/internal/xvfb"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/lifetime/glfence"
	"github.com/steadyframe/steadyframe/upload"
	"github.com/steadyframe/steadyframe/upload/glbuf"
)

// glTextures is the windowed texturer: gltex makes a GL texture per slot,
// staging its pixels through the renderer arena as a pixel unpack buffer.
// It belongs to the render goroutine with the context current.
type glTextures struct{ m *gltex.Manager }

func (t *glTextures) Create(w, h int, rgba []byte) (descriptors.Handle, error) {
	return t.m.Create(w, h, gltex.FormatRGBA8, rgba)
}

func (t *glTextures) Free(h descriptors.Handle) error { return t.m.Free(h) }

func (t *glTextures) Name(h descriptors.Handle) uint32 {
	name, err := t.m.Texture(h)
	if err != nil {
		return 0
	}
	return name
}

func (t *glTextures) Heap() *descriptors.Heap { return t.m.Heap() }

func (t *glTextures) Close() error { return t.m.Close() }

// glDisplay is the stress tool's window: the sprites drawn from the
// sprites arena with the quad renderer. It belongs to the render
// goroutine, which is the main goroutine locked to the main OS thread.
//
// The framebuffer size is cached and updated from GLFW's resize callback:
// go-gl's GetFramebufferSize passes the addresses of two locals to C, so
// they escape and every call allocates twice.
type glDisplay struct {
	ctx    *glctx.Context
	win    *glfw.Window
	quads  *quadgl.Renderer
	buffer uint32 // the upload Set's GL buffer
	w, h   int
}

func newGLDisplay(ctx *glctx.Context, qr *quadgl.Renderer, buffer uint32) *glDisplay {
	d := &glDisplay{ctx: ctx, win: ctx.Window(), quads: qr, buffer: buffer}
	d.w, d.h = d.win.GetFramebufferSize()
	d.win.SetFramebufferSizeCallback(func(_ *glfw.Window, w, h int) { d.w, d.h = w, h })
	return d
}

func (d *glDisplay) Size() (int, int) { return d.w, d.h }

func (d *glDisplay) Draw(offset int, runs []quads.Run) {
	w, h := d.w, d.h
	gl.Viewport(0, 0, int32(w), int32(h))
	gl.ClearColor(0.08, 0.09, 0.12, 1)
	gl.Clear(gl.COLOR_BUFFER_BIT)
	d.quads.Draw(d.buffer, offset, runs, w, h)
}

func (d *glDisplay) Present() bool {
	d.win.SwapBuffers()
	glfw.PollEvents()
	return !d.win.ShouldClose()
}

// newGLSide opens the window and builds the GL backends: glbuf for the
// upload arenas (its GL sync objects fence the frames) and gltex for the
// textures. It must run on the main OS thread.
func newGLSide(cfg *config, logger *slog.Logger) (side *gpuSide, err error) {
	var xv *xvfb.Server
	if os.Getenv("DISPLAY") == "" {
		if xv, err = xvfb.Start(logger); err != nil {
			return nil, fmt.Errorf("stress: %w (or use -headless)", err)
		}
		defer func() {
			if err != nil {
				_ = xv.Stop()
			}
		}()
	}
	ctx, err := glctx.New(glctx.Desc{Width: 1280, Height: 720, Title: "steadyframe stress", Visible: true})
	if err != nil {
		if errors.Is(err, glctx.ErrNoDisplay) {
			return nil, fmt.Errorf("stress: %w (run under xvfb-run, or use -headless)", err)
		}
		return nil, fmt.Errorf("stress: %w", err)
	}
	// The loop paces itself (-fps); vsync would hide its frame times.
	glfw.SwapInterval(0)
	// One clock, fenced with GL sync objects, drives the upload Set and
	// the texture Manager.
	clock, err := frame.NewClock(frame.ClockDesc{NewFence: glfence.New})
	if err != nil {
		_ = ctx.Close()
		return nil, fmt.Errorf("stress: frame clock: %w", err)
	}
	backend, err := glbuf.New()
	if err != nil {
		_ = clock.Close()
		_ = ctx.Close()
		return nil, fmt.Errorf("stress: upload buffer: %w", err)
	}
	set, err := upload.NewSet(upload.SetDesc{Arenas: scene.Arenas(), Backend: backend, Clock: clock})
	if err != nil {
		_ = backend.Close()
		_ = clock.Close()
		_ = ctx.Close()
		return nil, fmt.Errorf("stress: upload arenas: %w", err)
	}
	// Texture pixels are staged through the renderer arena and read by GL
	// as a pixel unpack buffer, fenced with the frame like every upload.
	mgr, err := gltex.New(gltex.Desc{
		Heap:          descriptors.HeapDesc{Logger: logger, Clock: clock},
		Staging:       set.Arena(scene.ArenaRenderer),
		StagingBuffer: backend.Buffer(),
	})
	if err != nil {
		_ = set.Close()
		_ = clock.Close()
		_ = ctx.Close()
		return nil, fmt.Errorf("stress: textures: %w", err)
	}
	qr, err := quadgl.New(cfg.sprites + 64)
	if err != nil {
		_ = mgr.Close()
		_ = set.Close()
		_ = clock.Close()
		_ = ctx.Close()
		return nil, fmt.Errorf("stress: quad renderer: %w", err)
	}
	disp := newGLDisplay(ctx, qr, backend.Buffer())
	info := ctx.Info()
	return &gpuSide{
		backend: "opengl: " + info.Renderer + " (" + info.Version + ")",
		clock:   clock, set: set, heap: mgr.Heap(), tx: &glTextures{m: mgr}, disp: disp,
		closeGL: func() error {
			qr.Release()
			err := ctx.Close()
			_ = xv.Stop()
			return err
		},
	}, nil
}
