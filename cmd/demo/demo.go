package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/go-gl/gl/v4.5-core/gl"
	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/descriptors/gltex"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/quads"
	"github.com/steadyframe/steadyframe/internal/quads/quadgl"
	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/internal/sprites"
	"github.com/steadyframe/steadyframe/internal/xvfb"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/lifetime/glfence"
	"github.com/steadyframe/steadyframe/upload"
	"github.com/steadyframe/steadyframe/upload/glbuf"
)

// demo is the renderer the demo embeds the library in. Everything here
// belongs to the render goroutine (the main goroutine, locked to the main
// OS thread with the GL context current); the audio goroutine is the
// voices engine's own, reached only through Play.
type demo struct {
	opt    options
	log    *slog.Logger
	xv     *xvfb.Server // started when there was no DISPLAY; nil otherwise
	ctx    *glctx.Context
	win    *glfw.Window
	clock  *frame.Clock // drives set and mgr: a frame opens and closes on it alone
	set    *upload.Set
	mgr    *gltex.Manager
	qr     *quadgl.Renderer
	buffer uint32
	tex    *textureSet
	sim    *sprites.Sim
	parts  *particles
	snd    *sound
	panel  *panel

	spriteQuads, partQuads, panelQuads *quads.Writer
	spriteTex                          func(i int) uint32

	w, h        int  // framebuffer size, kept by the resize callback
	resized     bool // a resize is waiting for its font rebake
	swapPending bool
	frame       uint64
	last        time.Time
	start       time.Time
	shot        []byte // the last frame's pixels, bottom row first
}

// newDemo opens the window and builds every owner. On error it releases
// what it made.
func newDemo(o options, logger *slog.Logger) (*demo, error) {
	d := &demo{opt: o, log: logger}
	ok := false
	defer func() {
		if !ok {
			d.release()
		}
	}()
	var err error
	if os.Getenv("DISPLAY") == "" {
		// Headless machine: -frames/-screenshot runs get a virtual display.
		if d.xv, err = xvfb.Start(logger); err != nil {
			return nil, err
		}
	}
	if d.ctx, err = glctx.New(glctx.Desc{Width: o.width, Height: o.height, Title: "steadyframe demo", Visible: true}); err != nil {
		if errors.Is(err, glctx.ErrNoDisplay) {
			return nil, fmt.Errorf("%w (run under xvfb-run without a display)", err)
		}
		return nil, err
	}
	d.win = d.ctx.Window()
	logger.Info("demo: OpenGL", "context", d.ctx.Info().String())
	if d.clock, err = frame.NewClock(frame.ClockDesc{NewFence: glfence.New}); err != nil {
		return nil, err
	}
	backend, err := glbuf.New()
	if err != nil {
		return nil, err
	}
	if d.set, err = upload.NewSet(upload.SetDesc{Arenas: scene.Arenas(), Backend: backend, Clock: d.clock}); err != nil {
		_ = backend.Close()
		return nil, err
	}
	d.buffer = backend.Buffer()
	// Texture pixels are staged through the renderer arena (a pixel unpack
	// buffer, fenced with the frame).
	if d.mgr, err = gltex.New(gltex.Desc{
		Heap:          descriptors.HeapDesc{Logger: logger, LogInterval: 2 * time.Second, Clock: d.clock},
		Staging:       d.set.Arena(scene.ArenaRenderer),
		StagingBuffer: d.buffer,
	}); err != nil {
		return nil, err
	}
	if d.qr, err = quadgl.New(quads.MaxQuads); err != nil {
		return nil, err
	}
	d.w, d.h = d.win.GetFramebufferSize()
	d.win.SetFramebufferSizeCallback(func(_ *glfw.Window, w, h int) { d.w, d.h, d.resized = w, h, true })
	d.win.SetKeyCallback(d.key)
	if d.sim, err = sprites.New(o.sprites, 28, float32(d.w), float32(d.h), 7); err != nil {
		return nil, err
	}
	d.parts = newParticles(1024)
	if d.snd, err = newSound(o.audio, logger); err != nil {
		return nil, err
	}
	for _, w := range []**quads.Writer{&d.spriteQuads, &d.partQuads, &d.panelQuads} {
		if *w, err = quads.NewWriter(256); err != nil {
			return nil, err
		}
	}
	d.panel = newPanel()
	ok = true
	return d, nil
}

// key handles the keyboard: Q swaps texture quality, R rebakes the font,
// Space plays a sound, Escape quits. Every key press also plays a click.
func (d *demo) key(_ *glfw.Window, k glfw.Key, _ int, action glfw.Action, _ glfw.ModifierKey) {
	if action != glfw.Press {
		return
	}
	switch k {
	case glfw.KeyQ:
		d.swapPending = true
	case glfw.KeyR:
		d.resized = true
	case glfw.KeyEscape:
		d.win.SetShouldClose(true)
	}
	d.snd.play(soundKey, 0.8, 0)
}

// loop runs frames until -frames or until the window is closed.
func (d *demo) loop() error {
	d.start, d.last = time.Now(), time.Now()
	for !d.win.ShouldClose() {
		if d.opt.frames > 0 && d.frame >= uint64(d.opt.frames) {
			break
		}
		if err := d.step(); err != nil {
			return err
		}
	}
	return nil
}

// step renders one frame.
func (d *demo) step() error {
	// The clock deletes the textures of completed frames, then opens the
	// arenas and the frame.
	if _, err := d.clock.BeginFrame(); err != nil {
		return err
	}
	d.frame++
	if d.tex == nil {
		var err error
		if d.tex, err = newTextureSet(d.mgr, d.fontScale()); err != nil {
			return err
		}
		n := d.sim.Len()
		d.spriteTex = func(i int) uint32 { return d.tex.name(d.tex.quality[i*qualityTextures/n]) }
	}
	d.autoKeys()
	if d.resized {
		d.resized = false
		if err := d.tex.rebakeFont(d.fontScale()); err != nil {
			return err
		}
		d.log.Info("demo: font atlas rebaked", "scale", d.tex.atlas.Scale, "slots", d.tex.fontSlots(), "framebuffer", fmt.Sprintf("%dx%d", d.w, d.h))
	}
	if d.swapPending {
		d.swapPending = false
		if err := d.tex.swapQuality(); err != nil {
			return err
		}
		d.log.Info("demo: texture quality swapped", "high", d.tex.high, "heap", d.mgr.Heap().Stats().String())
	}
	now := time.Now()
	dt := float32(min(now.Sub(d.last).Seconds(), 0.05))
	d.last = now
	d.sim.Step(dt, float32(d.w), float32(d.h))
	d.bounceEvents()
	d.parts.step(dt)
	if err := d.draw(); err != nil {
		return err
	}
	if d.opt.screenshot != "" && d.frame == uint64(d.opt.frames) {
		d.capture()
	}
	if err := d.clock.EndFrame(); err != nil {
		return err
	}
	d.win.SwapBuffers()
	glfw.PollEvents()
	return nil
}

// fontScale picks the atlas scale for the window height, so a resize
// changes it and the atlas must be rebaked.
func (d *demo) fontScale() int { return max(1, min(4, d.h/240)) }

// autoKeys presses the keys by itself with -auto.
func (d *demo) autoKeys() {
	if !d.opt.auto {
		return
	}
	switch f := d.frame; {
	case f%120 == 60:
		d.swapPending = true
	case f%180 == 90:
		// Alternate the height so the font scale (height/240) changes.
		h := d.opt.height
		if d.h == h {
			h += 260
		}
		d.win.SetSize(d.opt.width, h)
	case f%60 == 30:
		d.snd.play(soundKey, 0.8, 0)
	}
}

// bounceEvents plays a click and sprays particles for sprites that hit a
// wall, a few per frame at most so a crowded frame does not flood the
// voices.
func (d *demo) bounceEvents() {
	for i, s := range d.sim.Events() {
		x, y := d.sim.Position(s)
		d.parts.burst(x+14, y+14, 6, uint64(d.frame)+uint64(s))
		if i < 2 {
			pan := 2*x/float32(max(d.w, 1)) - 1
			d.snd.play(soundBounce, 0.3, max(-1, min(1, pan)))
		}
	}
}

// draw writes this frame's quads into the three arenas and draws them:
// sprites from the sprites arena, particles from the particles arena, the
// panel from the renderer arena.
func (d *demo) draw() error {
	w, h := d.w, d.h
	gl.Viewport(0, 0, int32(w), int32(h))
	gl.ClearColor(0.07, 0.08, 0.11, 1)
	gl.Clear(gl.COLOR_BUFFER_BIT)
	off, err := d.begin(d.spriteQuads, scene.ArenaSprites, d.sim.Len())
	if err != nil {
		return err
	}
	d.sim.Write(d.spriteQuads, d.spriteTex)
	d.qr.Draw(d.buffer, off, d.spriteQuads.Runs(), w, h)
	if off, err = d.begin(d.partQuads, scene.ArenaParticles, d.parts.capacity()); err != nil {
		return err
	}
	d.parts.write(d.partQuads, d.tex.name(d.tex.white))
	d.qr.Draw(d.buffer, off, d.partQuads.Runs(), w, h)
	if off, err = d.begin(d.panelQuads, scene.ArenaRenderer, panelMaxQuads); err != nil {
		return err
	}
	d.panel.write(d.panelQuads, d)
	d.qr.Draw(d.buffer, off, d.panelQuads.Runs(), w, h)
	return nil
}

// begin allocates room for n quads in arena k and points w at it.
func (d *demo) begin(w *quads.Writer, k, n int) (int, error) {
	off, view, err := d.set.Arena(k).Alloc(n*quads.QuadBytes, 16)
	if err != nil {
		return 0, err
	}
	return off, w.Reset(view)
}
