package main

import (
	"fmt"
	"log/slog"
	"runtime"
	"runtime/metrics"
	"time"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/internal/quads"
	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/internal/sprites"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/lifetime/guard"
	"github.com/steadyframe/steadyframe/lifetime/syncs"
	"github.com/steadyframe/steadyframe/upload"
)

// display is the window side of the render goroutine: nil when headless.
type display interface {
	// Size returns the framebuffer size in pixels.
	Size() (w, h int)
	// Draw clears the frame and draws runs, whose vertices start at offset
	// in the upload buffer. It does not allocate.
	Draw(offset int, runs []quads.Run)
	// Present swaps buffers and polls window events; it reports false once
	// the user closed the window.
	Present() bool
}

// renderer is the render goroutine's state: it owns the frame clock, the
// upload Set and the descriptor heap with the textures that follow it,
// and the guard; it drains the workers' queue once per frame. Nothing here
// is safe for concurrent use; workers reach it only through reqs.
type renderer struct {
	cfg     *config
	log     *slog.Logger
	frames  *frame.Clock
	set     *upload.Set
	arenas  []*upload.Arena
	heap    *descriptors.Heap
	tx      texturer
	tex     *textures
	disp    display
	guard   *guard.Guard
	reqs    *syncs.Queue[request]
	workers []*worker
	clock   clock
	churn   churnState
	batch   *quads.Writer
	sprites *sprites.Sim
	// spriteTex picks sprite i's texture; made once so passing it to
	// Write does not allocate a closure per frame.
	spriteTex func(i int) uint32
	occ       *occupancyLog
	prog      *progress
	series    *series
	hist      hist

	start       time.Time
	nextFrame   time.Time
	frame       uint64 // frames begun, equal to the guard's frame count
	armedFrom   uint64 // first frame the guard checks
	pokeFrame   uint64 // -selftest: the frame that allocates on purpose
	poked       bool
	pendingPeak int
	// liveAfterLoad is the slots live once the first frame loaded the
	// level, for the report.
	liveAfterLoad int
	err           error // first owner error; the run stops on it

	window  steadyWindow
	metrics []metrics.Sample
	gaps    uint64 // reporting gaps taken
	gapMall uint64 // allocations measured inside them
	ms      runtime.MemStats
}

// steadyWindow brackets the guarded part of the run, for the report's GC
// cycles and process-wide allocation totals.
type steadyWindow struct {
	open              bool
	gcStart, gcEnd    uint64
	forced0, forced   uint32 // runtime.GC calls (the guard's site reads)
	mallocs0, mallocs uint64
}

// fail records the first error an owner met.
func (r *renderer) fail(err error) {
	if err != nil && r.err == nil {
		r.err = err
	}
}

// loop runs frames until the frame or time limit, a closed window, or an
// owner error.
func (r *renderer) loop() {
	// A goroutine's first time.Sleep allocates its runtime timer. Pacing
	// may not sleep until a frame is fast enough, which under load can be
	// after the guard has armed, so sleep once now, while loading.
	time.Sleep(time.Nanosecond)
	r.start = time.Now()
	r.nextFrame = r.start
	for r.err == nil {
		elapsed := time.Since(r.start)
		if r.cfg.frames > 0 && r.frame >= uint64(r.cfg.frames) {
			break
		}
		if r.cfg.duration > 0 && elapsed >= r.cfg.duration {
			break
		}
		if !r.step() {
			break
		}
		if r.prog.needsGap() && r.prog.Due(time.Since(r.start)) {
			r.reportingGap()
		}
	}
	// The guard counts windows of frames; check the last, partly filled
	// one now, before anything after the loop runs inside it.
	r.guard.CloseWindow()
	r.closeWindow()
}

// step runs one frame between the guard's BeginFrame and EndFrame. Every
// goroutine's allocations inside that window count against the frame.
func (r *renderer) step() bool {
	r.guard.BeginFrame()
	r.frame++
	r.pace()
	t0 := time.Now()
	open := r.frameBody()
	d := time.Since(t0)
	armed := r.frame >= r.armedFrom
	if armed {
		r.hist.Record(d)
	}
	r.guard.EndFrame()
	if r.frame == r.armedFrom {
		r.openWindow()
	}
	return open
}

// pace waits for the frame's start time: a game presents at its display
// rate, and the workers run their ticks meanwhile, inside the guarded
// frame. With -fps 0 the loop runs flat out.
func (r *renderer) pace() {
	if r.cfg.fps <= 0 {
		return
	}
	if wait := time.Until(r.nextFrame); wait > 0 {
		time.Sleep(wait)
	}
	r.nextFrame = r.nextFrame.Add(time.Duration(float64(time.Second) / r.cfg.fps))
	if now := time.Now(); r.nextFrame.Before(now.Add(-100 * time.Millisecond)) {
		// Far behind (a stall, a slow llvmpipe frame): do not sprint.
		r.nextFrame = now
	}
}

func (r *renderer) frameBody() bool {
	// The clock reclaims the heap's slots whose frames completed, then
	// opens the arenas and the frame.
	serial, err := r.frames.BeginFrame()
	if err != nil {
		r.fail(fmt.Errorf("stress: frame %d: %w", r.frame, err))
		return false
	}
	if r.tex == nil {
		// The first frame loads the level: before the guard arms, like a
		// game's loading screen.
		t, err := newTextures(r.tx)
		if err != nil {
			r.fail(err)
			return false
		}
		r.tex = t
		r.liveAfterLoad = r.heap.Stats().Live
	}
	r.drain()
	r.applyChurn()
	if r.frame == r.pokeFrame {
		selftestPoke()
		r.poked = true
	}
	offset, runs := r.drawSprites()
	open := true
	if r.disp != nil {
		r.disp.Draw(offset, runs)
	}
	st := r.heap.Stats()
	r.pendingPeak = max(r.pendingPeak, st.Pending)
	elapsed := time.Since(r.start)
	// The last settling frame logs and reports once whatever the interval,
	// so the log handler's and the progress line's buffers have grown and
	// the output path is warm before the guard arms.
	warm := r.frame+1 == r.armedFrom
	if r.occ.Due(elapsed) || warm {
		r.occ.Write(elapsed, st)
	}
	if !r.prog.needsGap() && (r.prog.Due(elapsed) || warm) {
		r.prog.Update(elapsed, r.frame, st.Live, st.Peak, r.guardOK())
	}
	r.series.Offer(r.sample(elapsed, serial, st))
	if err := r.frames.EndFrame(); err != nil {
		r.fail(fmt.Errorf("stress: frame %d: %w", r.frame, err))
	}
	if r.disp != nil {
		open = r.disp.Present()
	}
	// A worker still busy with the last frame skips this one and catches
	// up on its rates from the elapsed time.
	r.clock.serial.Store(serial)
	if r.tex.firstErr != nil {
		r.fail(fmt.Errorf("stress: texture churn: %w", r.tex.firstErr))
	}
	return open
}

// guardOK reads the guard's verdict so far without allocating (Report
// copies its logs, so it is called only after the run).
func (r *renderer) guardOK() bool { return r.guard.Err() == nil }

func (r *renderer) sample(elapsed time.Duration, serial uint64, st descriptors.Stats) sample {
	s := sample{At: elapsed, Frame: serial, Live: st.Live, Pending: st.Pending, HighWater: st.HighWater}
	for i, a := range r.arenas {
		s.ArenaUsed[i] = a.Stats().Used
	}
	return s
}

// drain applies every request the workers have queued, in order. It takes
// at most one queue's worth, so producers cannot keep it here forever.
func (r *renderer) drain() {
	for range r.reqs.Cap() {
		q, ok := r.reqs.Pop()
		if !ok {
			return
		}
		switch q.kind {
		case reqUpload:
			r.upload(q)
		case reqRebake:
			r.churn.rebakeScale = int(q.size)
		case reqSwap:
			r.churn.swaps++
		case reqLevel:
			r.churn.level = true
		}
	}
}

// churnState holds texture churn the workers asked for and the frame has
// not applied yet. A game resizes, swaps quality and changes level one
// event at a time, and lets a level's freed slots retire before it loads
// the next, so the render goroutine applies at most one event of each
// kind per frame and one level transition per frames-in-flight window.
// That bounds the slots pending retirement well below the heap's 75%
// warning, whose log line would allocate.
type churnState struct {
	rebakeScale int // 0: none wanted
	swaps       int
	level       bool
	lastLevel   uint64 // frame of the last transition
}

func (r *renderer) applyChurn() {
	c := &r.churn
	if c.rebakeScale != 0 {
		if err := r.tex.bakeFont(c.rebakeScale); err != nil {
			r.fail(err)
		}
		c.rebakeScale = 0
	}
	if c.swaps > 0 {
		r.tex.swapQuality()
		c.swaps--
	}
	if c.level {
		if r.frame > c.lastLevel+uint64(r.frames.InFlight()) {
			r.tex.transition()
			c.level, c.lastLevel = false, r.frame
		}
	}
}

// upload copies one request's data into its arena, as a renderer copies a
// worker's constants or particle state for the GPU.
func (r *renderer) upload(q request) {
	k := int(q.arena) % arenaCount
	// A full arena refuses and counts the failure itself (the report's
	// upload failures), as a frame's overflowing upload would.
	if _, view, err := r.arenas[k].Alloc(int(q.size), 16); err == nil {
		pattern(view, q.seed)
	}
}

// drawSprites moves the sprites and streams their quads through the
// sprites arena. It returns the arena offset and the draw runs.
func (r *renderer) drawSprites() (int, []quads.Run) {
	n := r.sprites.Len()
	if n == 0 {
		return 0, nil
	}
	off, view, err := r.arenas[scene.ArenaSprites].Alloc(n*quads.QuadBytes, 16)
	if err != nil {
		return 0, nil // counted by the arena, reported as its failures
	}
	if err := r.batch.Reset(view); err != nil {
		r.fail(err)
		return 0, nil
	}
	w, h := r.area()
	r.sprites.Step(1.0/60, w, h)
	r.sprites.Write(r.batch, r.spriteTex)
	return off, r.batch.Runs()
}

// area is the sprites' playfield: the framebuffer with a window, the
// window's default size headless.
func (r *renderer) area() (w, h float32) {
	if r.disp == nil {
		return 1280, 720
	}
	iw, ih := r.disp.Size()
	return float32(iw), float32(ih)
}

// openWindow marks the start of the steady window: the first armed frame
// has just ended.
func (r *renderer) openWindow() {
	metrics.Read(r.metrics)
	runtime.ReadMemStats(&r.ms)
	r.window = steadyWindow{open: true, gcStart: r.metrics[0].Value.Uint64(), mallocs0: r.ms.Mallocs,
		forced0: r.ms.NumForcedGC}
}

// closeWindow ends it after the last frame.
func (r *renderer) closeWindow() {
	if !r.window.open {
		return
	}
	metrics.Read(r.metrics)
	runtime.ReadMemStats(&r.ms)
	r.window.gcEnd = r.metrics[0].Value.Uint64()
	r.window.mallocs = r.ms.Mallocs - r.window.mallocs0
	r.window.forced = r.ms.NumForcedGC - r.window.forced0
}

// reportingGap redraws the terminal progress bar between two guarded
// frames and measures what that costs, so the report can say so.
func (r *renderer) reportingGap() {
	// The guard's windows count the time between frames too; close the
	// open one so the redraw falls outside every window.
	r.guard.CloseWindow()
	runtime.ReadMemStats(&r.ms)
	before := r.ms.Mallocs
	st := r.heap.Stats()
	r.prog.Update(time.Since(r.start), r.frame, st.Live, st.Peak, r.guardOK())
	runtime.ReadMemStats(&r.ms)
	r.gaps++
	r.gapMall += r.ms.Mallocs - before
}
