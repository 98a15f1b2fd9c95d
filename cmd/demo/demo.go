package main

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/steadyframe/steadyframe/internal/quads"
	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/internal/sprites"
)

// demo is the renderer the demo embeds the library in: the shared scene
// (its Render, textures and audio) drawn in a window with sprites,
// particles and a statistics panel. Everything here belongs to the render
// goroutine (the main goroutine, locked to the main OS thread with the GL
// context current); the audio goroutine is the voices engine's own,
// reached only through Play.
type demo struct {
	opt   options
	log   *slog.Logger
	r     *scene.Render
	win   *scene.Window
	tex   *scene.Textures
	snd   *scene.Audio
	sim   *sprites.Sim
	parts *particles
	panel *panel
	// overlay, slots and storms are the performance overlay, the
	// Texturer that keeps the slot map, and the L/V/U storms.
	overlay *overlay
	slots   *slotTracker
	storms  *storms
	keyAt   int // the next -keys press

	spriteQuads, partQuads, panelQuads *quads.Writer
	spriteTex                          func(i int) uint32
	spr                                spriteDraw // -sprite-path

	resized     bool // a resize or R is waiting for its font rebake
	swapPending bool
	fontSlots   string // the atlas pages' slots, formatted once per rebake
	frame       uint64
	last        time.Time
	shot        []byte // the last frame's pixels, bottom row first
	shotW       int    // their size
	shotH       int
	worldPaused bool // P: the world bus is paused

	// The scene's emitters (-emitters) and their map (emitters.go).
	emit *scene.Emitters
	wmap *worldMap
}

// newDemo opens the window and builds every owner. On error it releases
// what it made.
func newDemo(o options, logger *slog.Logger) (*demo, error) {
	d := &demo{opt: o, log: logger}
	var err error
	if d.snd, err = scene.OpenAudio(o.Audio, logger); err != nil {
		return nil, err
	}
	if d.r, err = scene.OpenWindow(scene.RenderDesc{Logger: logger, HeapLogInterval: 2 * time.Second,
		Width: o.width, Height: o.height, Title: "steadyframe demo"}); err != nil {
		_ = d.snd.Close()
		return nil, err
	}
	d.win = d.r.Window
	logger.Info("demo: OpenGL", "context", d.win.Ctx.Info().String())
	ok := false
	defer func() {
		if !ok {
			d.r.Abort()
			_ = d.snd.Close()
		}
	}()
	d.win.Win.SetKeyCallback(d.key)
	w, h := d.win.Size()
	if d.sim, err = sprites.New(o.Sprites, 28, float32(w), float32(h), 7); err != nil {
		return nil, err
	}
	if d.parts, err = newParticles(1024); err != nil {
		return nil, err
	}
	for _, w := range []**quads.Writer{&d.spriteQuads, &d.partQuads} {
		if *w, err = quads.NewWriter(256); err != nil {
			return nil, err
		}
	}
	// Text changes font page every few glyphs: a run each.
	if d.panelQuads, err = quads.NewWriter(panelMaxQuads); err != nil {
		return nil, err
	}
	d.panel = newPanel()
	if d.overlay, err = newOverlay(); err != nil {
		return nil, err
	}
	if d.emit, err = d.snd.NewEmitters(o.Emitters, 7); err != nil {
		return nil, err
	}
	if d.wmap, err = newWorldMap(); err != nil {
		return nil, err
	}
	d.slots = newSlotTracker(d.r.Tex, d.r.Clock, d.r.Heap.Capacity())
	d.storms = newStorms(d.r.Heap.Capacity())
	if err := d.openSprites(); err != nil {
		return nil, err
	}
	ok = true
	return d, nil
}

// key handles the keyboard: Q swaps texture quality, R rebakes the font,
// L leaks (and, again, fixes), V storms the voices, U floods the upload
// arenas, P pauses or resumes the world's sounds (the world bus: the
// clicks, on the ui bus, play on), Space plays a sound, Escape quits.
// Every key press also plays a click.
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
		d.win.Win.SetShouldClose(true)
	case glfw.KeyL, glfw.KeyV, glfw.KeyU:
		d.storms.press(d, byte('A'+k-glfw.KeyA))
	case glfw.KeyP:
		d.worldPaused = !d.worldPaused
		if d.worldPaused {
			_ = d.snd.Engine.PauseBus(d.snd.World)
		} else {
			_ = d.snd.Engine.ResumeBus(d.snd.World)
		}
	}
	d.play(scene.SoundKey, 0.8, 0)
}

// play starts an effect; a refusal (no voice free, a full queue) is
// ordinary and never fatal.
func (d *demo) play(sound int, volume, pan float32) { _ = d.snd.Play(sound, volume, pan) }

// loop runs frames until -frames or until the window is closed.
func (d *demo) loop() error {
	d.last = time.Now()
	for !d.win.Win.ShouldClose() {
		if d.opt.Frames > 0 && d.frame >= uint64(d.opt.Frames) {
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
	if _, err := d.r.Clock.BeginFrame(); err != nil {
		return err
	}
	d.frame++
	if d.tex == nil {
		var err error
		if d.tex, err = scene.NewTextures(d.slots, d.r.Heap, d.fontScale()); err != nil {
			return err
		}
		d.fontSlots = d.tex.FontSlots()
		n := d.sim.Len()
		d.spriteTex = func(i int) uint32 { return d.r.Tex.Name(d.tex.Quality(i * scene.QualityTextures / n)) }
	}
	d.autoKeys()
	d.pressKeys()
	d.storms.frame(d)
	if d.win.TakeResize() {
		d.resized = true
	}
	// A leak holds the heap: reloads wait for the fix.
	hold := d.storms.holding()
	if d.resized && !hold {
		d.resized = false
		if err := d.tex.RebakeFont(d.fontScale()); err != nil {
			return err
		}
		d.fontSlots = d.tex.FontSlots()
		w, h := d.win.Size()
		d.log.Info("demo: font atlas rebaked", "scale", d.tex.Atlas().Scale, "slots", d.fontSlots, "framebuffer", fmt.Sprintf("%dx%d", w, h))
	}
	if d.swapPending && !hold {
		d.swapPending = false
		if err := d.tex.SwapQuality(); err != nil {
			return err
		}
		d.log.Info("demo: texture quality swapped", "high", d.tex.High(), "heap", d.r.Heap.Stats().String())
	}
	now := time.Now()
	period := now.Sub(d.last)
	dt := float32(min(period.Seconds(), 0.05))
	d.last = now
	w, h := d.win.Size()
	d.sim.Step(dt, float32(w), float32(h))
	d.bounceEvents()
	d.parts.step(dt)
	d.wmap.step(d)
	if err := d.draw(); err != nil {
		return err
	}
	d.record(period)
	if d.opt.screenshot != "" && d.frame == uint64(d.opt.Frames) {
		d.capture()
	}
	if err := d.r.Clock.EndFrame(); err != nil {
		return err
	}
	d.win.Present()
	return nil
}

// fontScale picks the atlas scale for the window height, so a resize
// changes it and the atlas must be rebaked.
func (d *demo) fontScale() int {
	_, h := d.win.Size()
	return max(1, min(scene.MaxFontScale, h/240))
}

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
		if _, fh := d.win.Size(); fh == h {
			h += 260
		}
		d.win.Win.SetSize(d.opt.width, h)
	case f%60 == 30:
		d.play(scene.SoundKey, 0.8, 0)
	}
}

// bounceEvents plays a click and sprays particles for sprites that hit a
// wall, a few per frame at most so a crowded frame does not flood the
// voices.
func (d *demo) bounceEvents() {
	w, _ := d.win.Size()
	for i, s := range d.sim.Events() {
		x, y := d.sim.Position(s)
		d.parts.burst(x+14, y+14, 6, d.frame+uint64(s))
		if i < 2 {
			pan := 2*x/float32(max(w, 1)) - 1
			d.play(scene.SoundBounce, 0.3, max(-1, min(1, pan)))
		}
	}
}

// draw writes this frame's quads into the three arenas and draws them:
// sprites from the sprites arena, particles from the particles arena, the
// panel from the renderer arena.
func (d *demo) draw() error {
	d.win.Clear(0.07, 0.08, 0.11)
	if err := d.drawSprites(); err != nil {
		return err
	}
	off, err := d.begin(d.partQuads, scene.ArenaParticles, d.parts.capacity())
	if err != nil {
		return err
	}
	d.parts.write(d.partQuads, d.r.Tex.Name(d.tex.White()))
	d.win.Draw(off, d.partQuads.Runs())
	if err := d.wmap.draw(d); err != nil {
		return err
	}
	if err := d.overlay.draw(d); err != nil {
		return err
	}
	if off, err = d.begin(d.panelQuads, scene.ArenaRenderer, panelMaxQuads); err != nil {
		return err
	}
	d.panel.write(d.panelQuads, d)
	d.win.Draw(off, d.panelQuads.Runs())
	d.storms.flood(d)
	return nil
}

// begin allocates room for n quads in arena k and points w at it.
func (d *demo) begin(w *quads.Writer, k, n int) (int, error) {
	off, view, err := d.r.Set.Arena(k).Alloc(n*quads.QuadBytes, 16)
	if err != nil {
		return 0, fmt.Errorf("%w (%v)", err, d.r.Set.Arena(k).LastRefusal()) // ends the run: the detail is worth an allocation
	}
	return off, w.Reset(view)
}

// record adds the frame to the overlay's history once everything it
// uploads is in the arenas.
func (d *demo) record(period time.Duration) {
	var pct [scene.ArenaCount]float32
	for k := range pct {
		s := d.r.Set.Arena(k).Stats()
		pct[k] = 100 * float32(s.Used) / float32(max(s.Capacity, 1))
	}
	vs := d.snd.Engine.Stats()
	d.overlay.hist.add(d.r.Heap.Stats(), period, &pct, &vs)
}

// pressKeys presses the -keys keys due this frame.
func (d *demo) pressKeys() {
	for ; d.keyAt < len(d.opt.keys) && d.opt.keys[d.keyAt].frame <= d.frame; d.keyAt++ {
		switch k := d.opt.keys[d.keyAt].key; k {
		case 'Q':
			d.swapPending = true
		case 'R':
			d.resized = true
		default:
			d.storms.press(d, k)
		}
	}
}
