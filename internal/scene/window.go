package scene

import (
	"errors"
	"fmt"
	"os"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/descriptors/gltex"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/quads"
	"github.com/steadyframe/steadyframe/internal/quads/quadgl"
	"github.com/steadyframe/steadyframe/internal/xvfb"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/lifetime/glfence"
	"github.com/steadyframe/steadyframe/upload"
	"github.com/steadyframe/steadyframe/upload/glbuf"
)

// Window is the GL side of a windowed Render: the GLFW window and its
// OpenGL 4.5 context, the quad renderer, and the upload Set's GL buffer
// that quads are drawn from. Without a DISPLAY, OpenWindow starts Xvfb
// (Mesa llvmpipe) and Close stops it.
//
// The framebuffer size is kept from GLFW's resize callback: go-gl's
// GetFramebufferSize passes the addresses of two locals to C, so they
// escape and every call allocates twice.
//
// A Window belongs to the render goroutine, which is the main goroutine
// locked to the main OS thread (GLFW requires it).
type Window struct {
	Ctx   *glctx.Context
	Win   *glfw.Window
	Quads *quadgl.Renderer
	// Buffer is the upload Set's GL buffer, which Draw reads vertices from.
	Buffer  uint32
	set     *upload.Set // flushed before each Draw (glbuf's ModeMapRange)
	err     error       // the first Flush error, behind Err
	xv      *xvfb.Server
	w, h    int
	resized bool
}

// OpenWindow opens the window and builds the GL backends. GL sync objects
// fence the frame clock, and glbuf maps the upload Set's buffer. gltex
// makes a GL texture per slot. It stages the pixels through the renderer
// arena as a pixel unpack buffer fenced with the frame. It must run on the
// main OS thread. On error it releases what it made.
func OpenWindow(d RenderDesc) (r *Render, err error) {
	w := &Window{}
	if os.Getenv("DISPLAY") == "" {
		if w.xv, err = xvfb.Start(d.Logger); err != nil {
			return nil, fmt.Errorf("scene: %w", err)
		}
	}
	var clock *frame.Clock
	var set *upload.Set
	var mgr *gltex.Manager
	defer func() {
		if err == nil {
			return
		}
		if mgr != nil {
			_ = mgr.Close()
		}
		if set != nil {
			_ = set.Close()
		}
		if clock != nil {
			_ = clock.Close()
		}
		_ = w.Close()
	}()
	width, height := d.Width, d.Height
	if width == 0 || height == 0 {
		width, height = 1280, 720
	}
	if w.Ctx, err = glctx.New(glctx.Desc{Width: width, Height: height, Title: d.Title, Visible: true}); err != nil {
		if errors.Is(err, glctx.ErrNoDisplay) {
			return nil, fmt.Errorf("scene: %w (run under xvfb-run)", err)
		}
		return nil, fmt.Errorf("scene: %w", err)
	}
	w.Win = w.Ctx.Window()
	// The loops pace themselves; vsync would hide their frame times.
	glfw.SwapInterval(0)
	if clock, err = frame.NewClock(frame.ClockDesc{NewFence: glfence.New}); err != nil {
		return nil, fmt.Errorf("scene: frame clock: %w", err)
	}
	backend, err := glbuf.New()
	if err != nil {
		return nil, fmt.Errorf("scene: upload buffer: %w", err)
	}
	if set, err = upload.NewSet(upload.SetDesc{Arenas: Arenas(), Backend: backend, Clock: clock}); err != nil {
		_ = backend.Close()
		return nil, fmt.Errorf("scene: upload arenas: %w", err)
	}
	w.Buffer, w.set = backend.Buffer(), set
	if mgr, err = gltex.New(gltex.Desc{
		Heap:          descriptors.HeapDesc{Logger: d.Logger, LogInterval: d.HeapLogInterval, Clock: clock},
		Staging:       set.Arena(ArenaRenderer),
		StagingBuffer: w.Buffer,
	}); err != nil {
		return nil, fmt.Errorf("scene: textures: %w", err)
	}
	n := d.Quads
	if n == 0 {
		n = quads.MaxQuads
	}
	if w.Quads, err = quadgl.New(n); err != nil {
		return nil, fmt.Errorf("scene: quad renderer: %w", err)
	}
	w.w, w.h = w.Win.GetFramebufferSize()
	w.Win.SetFramebufferSizeCallback(func(_ *glfw.Window, fw, fh int) { w.w, w.h, w.resized = fw, fh, true })
	info := w.Ctx.Info()
	return &Render{
		Backend: "opengl: " + info.Renderer + " (" + info.Version + "), upload " + backend.Mode().String() + ", textures " + texPath(mgr),
		Clock:   clock, Set: set, Heap: mgr.Heap(), Tex: &glTextures{m: mgr}, Window: w,
		closeHeap: mgr.Close,
	}, nil
}

// texPath names how mgr edits textures, for the report's backend line.
func texPath(mgr *gltex.Manager) string {
	if mgr.DirectStateAccess() {
		return "by DSA"
	}
	return "bound to edit"
}

// Size returns the framebuffer size in pixels, as of the last event poll.
func (w *Window) Size() (int, int) { return w.w, w.h }

// TakeResize reports whether the framebuffer changed size since the last
// call.
func (w *Window) TakeResize() bool {
	r := w.resized
	w.resized = false
	return r
}

// Clear sets the viewport to the framebuffer and clears it to r, g, b.
func (w *Window) Clear(r, g, b float32) {
	gl.Viewport(0, 0, int32(w.w), int32(w.h))
	gl.ClearColor(r, g, b, 1)
	gl.Clear(gl.COLOR_BUFFER_BIT)
}

// Draw draws runs whose vertices start at offset in the upload buffer. It
// does not allocate.
// It first flushes the Set (Flush).
func (w *Window) Draw(offset int, runs []quads.Run) {
	w.Flush()
	w.Quads.Draw(w.Buffer, offset, runs, w.w, w.h)
}

// Flush flushes the upload Set, so that on a context without persistent
// mapping (OpenGL 4.1, 3.3) what was written since the last Flush
// reaches the buffer. Call it before a draw that reads the buffer and
// does not go through Draw. A Flush error is kept behind Err. It does
// not allocate.
func (w *Window) Flush() {
	if err := w.set.Flush(); err != nil && w.err == nil {
		w.err = err
	}
}

// Err returns the first error a Draw met flushing the upload Set, or nil.
func (w *Window) Err() error { return w.err }

// Present swaps buffers and polls window events; it reports false once
// the user has closed the window.
func (w *Window) Present() bool {
	w.Win.SwapBuffers()
	glfw.PollEvents()
	return !w.Win.ShouldClose()
}

// Close deletes the quad renderer, destroys the window and its context,
// and stops the Xvfb OpenWindow started: the teardown's gl-context stage,
// after the frame clock has closed.
func (w *Window) Close() error {
	if w.Quads != nil {
		w.Quads.Release()
	}
	var err error
	if w.Ctx != nil {
		err = w.Ctx.Close()
	}
	if xerr := w.xv.Stop(); err == nil {
		err = xerr
	}
	return err
}

// glTextures is the windowed Texturer: gltex makes a GL texture per slot.
// It belongs to the render goroutine with the context current.
type glTextures struct{ m *gltex.Manager }

func (t *glTextures) Create(w, h int, rgba []byte, f Filter) (descriptors.Handle, error) {
	hd, err := t.m.Create(w, h, gltex.FormatRGBA8, rgba)
	if err == nil && f == FilterNearest {
		name := t.Name(hd)
		gl.TextureParameteri(name, gl.TEXTURE_MIN_FILTER, gl.NEAREST)
		gl.TextureParameteri(name, gl.TEXTURE_MAG_FILTER, gl.NEAREST)
	}
	return hd, err
}

func (t *glTextures) Free(h descriptors.Handle) error { return t.m.Free(h) }

func (t *glTextures) Name(h descriptors.Handle) uint32 {
	name, err := t.m.Texture(h)
	if err != nil {
		return 0
	}
	return name
}
