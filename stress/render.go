package main

import (
	"fmt"
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

// pacePoll bounds one pacing sleep, so that a slow -fps still notices a
// signal within this long; the -duration deadline is slept to exactly.
const pacePoll = 50 * time.Millisecond

// renderer is the render goroutine's state: it owns the scene's Render
// (the frame clock, the upload Set and the descriptor heap that follow
// it), the textures, the game objects and the guard, and drains the
// workers' queue once per frame. Nothing here is safe for concurrent use;
// workers reach it only through reqs.
type renderer struct {
	cfg     *config
	scene   *scene.Render
	arenas  []*upload.Arena
	heap    *descriptors.Heap
	win     *scene.Window // nil headless
	tex     *scene.Textures
	objects *objects
	guard   *guard.Guard
	reqs    *syncs.Queue[request]
	workers []*worker
	clock   clock
	churn   churn
	sig     *interrupts
	batch   *quads.Writer
	sprites *sprites.Sim
	// spriteTex picks sprite i's texture; made once so passing it to
	// Write does not allocate a closure per frame.
	spriteTex func(i int) uint32
	spr       spriteDraw // -sprite-path: the array path's state, draw counts, GPU times
	occ       *occupancyLog
	snd       *scene.Audio    // the workers' player; the voice-storm probes it
	emit      *scene.Emitters // -emitters; nil without
	dir       *director       // the -scenario plan; nil without one
	lastFrame time.Duration
	prog      *progress
	series    *series
	hist      frame.Histogram
	// ledger is what became of the requests the render goroutine took
	// from the queue.
	ledger ledger

	start       time.Time
	deadline    time.Time // zero without -duration
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
	verdict       error // the guard's Verdict once the frames are done

	window  steadyWindow
	metrics []metrics.Sample
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

// stopping reports whether the run must end now: a signal came, or the
// -duration deadline has passed.
func (r *renderer) stopping(now time.Time) bool {
	return r.sig.caught() != "" || (!r.deadline.IsZero() && !now.Before(r.deadline))
}

// loop runs frames until the frame or time limit, a closed window, a
// signal or an owner error, then takes the guard's verdict.
func (r *renderer) loop() {
	// A goroutine's first time.Sleep allocates its runtime timer. Pacing
	// may not sleep until a frame is fast enough, which under load can be
	// after the guard has armed, so sleep once now, while loading.
	time.Sleep(time.Nanosecond)
	r.start = time.Now()
	if r.cfg.duration > 0 {
		r.deadline = r.start.Add(r.cfg.duration)
	}
	r.nextFrame = r.start
	for r.err == nil && !r.stopping(time.Now()) {
		if r.cfg.Frames > 0 && r.frame >= uint64(r.cfg.Frames) {
			break
		}
		if !r.step() {
			break
		}
		if r.dir != nil && r.dir.finished() && r.deadline.IsZero() && r.cfg.Frames == 0 {
			break
		}
	}
	// The guard counts windows of frames; Verdict checks the last,
	// partly filled one now, before anything after the loop runs inside
	// it, and says whether enough frames were guarded.
	r.verdict = r.guard.Verdict()
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
	if r.frame >= r.armedFrom {
		r.hist.Record(d)
	}
	r.lastFrame = d
	r.dir.record(d)
	r.guard.EndFrame()
	if r.frame == r.armedFrom {
		r.openWindow()
	}
	return open
}

// pace waits for the frame's start time: a game presents at its display
// rate, and the workers run their ticks meanwhile, inside the guarded
// frame. With -fps 0 the loop runs flat out. The wait ends early at the
// -duration deadline or a signal, however slow the pacing: the frame then
// runs at once and the loop ends after it.
func (r *renderer) pace() {
	if r.cfg.fps <= 0 {
		return
	}
	for {
		now := time.Now()
		wait := r.nextFrame.Sub(now)
		if wait <= 0 || r.stopping(now) {
			break
		}
		if !r.deadline.IsZero() {
			wait = min(wait, r.deadline.Sub(now))
		}
		time.Sleep(min(wait, pacePoll))
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
	r.dir.beforeBegin(r)
	serial, err := r.scene.Clock.BeginFrame()
	if err != nil {
		r.fail(fmt.Errorf("stress: frame %d: %w", r.frame, err))
		return false
	}
	if r.tex == nil {
		// The first frame loads the level: before the guard arms, like a
		// game's loading screen.
		t, err := scene.NewTextures(r.scene.Tex, r.heap, 2)
		if err != nil {
			r.fail(err)
			return false
		}
		r.tex = t
		r.liveAfterLoad = r.heap.Stats().Live
	}
	r.drain()
	// A scenario's phase holds the workers' churn back: what it measures
	// is its own doing.
	if !r.dir.active() {
		if err := r.churn.apply(r.tex, r.frame, r.scene.Clock.InFlight(), &r.ledger); err != nil {
			r.fail(fmt.Errorf("stress: texture churn: %w", err))
		}
	}
	elapsed := time.Since(r.start)
	if r.emit != nil {
		r.emit.Step(elapsed)
	}
	r.dir.frame(r, elapsed)
	if r.frame == r.pokeFrame {
		selftestPoke()
		r.poked = true
	}
	r.draw()
	st := r.heap.Stats()
	r.pendingPeak = max(r.pendingPeak, st.Pending)
	// The last settling frame logs and reports once whatever the interval,
	// so the log handler's and the progress line's buffers have grown and
	// the output path is warm before the guard arms.
	warm := r.frame+1 == r.armedFrom
	if r.occ.Due(elapsed) || warm {
		r.occ.Write(elapsed, st)
	}
	if r.prog.Due(elapsed) || warm {
		r.prog.Update(elapsed, r.frame, st.Live, st.Peak, r.guard.Err() == nil)
	}
	r.series.Offer(r.sample(elapsed, serial, st))
	if err := r.scene.Clock.EndFrame(); err != nil {
		r.fail(fmt.Errorf("stress: frame %d: %w", r.frame, err))
	}
	open := true
	if r.win != nil {
		open = r.win.Present()
	}
	// A worker still busy with the last frame skips this one and catches
	// up on its rates from the elapsed time.
	r.clock.serial.Store(serial)
	return open
}

func (r *renderer) sample(elapsed time.Duration, serial uint64, st descriptors.Stats) sample {
	s := sample{At: elapsed, Frame: serial, Live: st.Live, Pending: st.Pending, HighWater: st.HighWater,
		FrameTime: r.lastFrame, Warnings: st.Warnings, Refusals: st.Refused}
	for i, a := range r.arenas {
		as := a.Stats()
		s.ArenaUsed[i] = as.Used
		s.Refusals += as.Failures
	}
	s.Phase = r.dir.phaseNumber()
	return s
}

// drain applies every request the workers have queued, in order. It takes
// at most one queue's worth, so producers cannot keep it here forever.
func (r *renderer) drain() {
	w, h := r.area()
	for range r.reqs.Cap() {
		q, ok := r.reqs.Pop()
		if !ok {
			return
		}
		switch q.kind {
		case reqUpload:
			r.upload(q)
		case reqSpawn:
			r.objects.spawn(q, w, h, &r.ledger)
		case reqDespawn:
			r.fail(r.objects.despawn(&r.ledger))
		default:
			r.churn.request(q, &r.ledger)
		}
	}
}

// dropQueued counts every request still queued when the run ends as
// dropped at exit, with the churn still waiting. The workers have stopped.
func (r *renderer) dropQueued() {
	for {
		q, ok := r.reqs.Pop()
		if !ok {
			break
		}
		r.ledger[q.kind].Dropped++
	}
	r.churn.abandon(&r.ledger)
}

// upload copies one request's data into its arena, as a renderer copies a
// worker's constants or particle state for the GPU. A full arena refuses
// and counts the failure itself (the report's upload failures), as a
// frame's overflowing upload would.
func (r *renderer) upload(q request) {
	k := int(q.arena) % arenaCount
	if _, view, ok := r.arenas[k].TryAlloc(int(q.size), 16); ok {
		scene.Fill(view, q.seed)
		r.ledger[reqUpload].Applied++
	} else {
		r.ledger[reqUpload].Refused++
	}
}

// draw moves the sprites and the objects and streams their quads through
// the sprites arena, then, in a window, draws them.
func (r *renderer) draw() {
	w, h := r.area()
	var spriteOff, spriteN int
	var spriteRuns []quads.Run
	if r.spr.arr != nil {
		spriteOff, spriteN = r.drawSpriteArray(w, h)
	} else {
		spriteOff, spriteRuns = r.drawSprites(w, h)
	}
	if err := r.objects.step(1.0/60, w, h); err != nil {
		r.fail(err)
	}
	var objOff int
	var objRuns []quads.Run
	if n := r.objects.visible.Len(); n > 0 {
		off, view, ok := r.arenas[scene.ArenaSprites].TryAlloc(n*quads.QuadBytes, 16)
		if ok {
			objOff = off
			runs, err := r.objects.write(view, r.scene.Tex.Name(r.tex.White()))
			if err != nil {
				r.fail(err)
			}
			objRuns = runs
		}
	}
	if r.win != nil {
		r.win.Clear(0.08, 0.09, 0.12)
		r.spr.timer.Begin()
		if r.spr.arr != nil {
			iw, ih := r.win.Size()
			r.win.Flush() // the instances reach the buffer on 4.1 and 3.3
			r.spr.arr.Draw(r.win.Buffer, spriteOff, spriteN, iw, ih)
			r.spr.draws++
		} else {
			r.win.Draw(spriteOff, spriteRuns)
			r.spr.draws += uint64(len(spriteRuns))
		}
		r.spr.timer.End()
		r.spr.frames++
		r.win.Draw(objOff, objRuns)
	}
}

// drawSprites moves the sprites on a w×h playfield and writes their quads
// into the sprites arena. It returns the arena offset and the draw runs.
func (r *renderer) drawSprites(w, h float32) (int, []quads.Run) {
	off, view, ok := r.arenas[scene.ArenaSprites].TryAlloc(r.sprites.Len()*quads.QuadBytes, 16)
	if !ok {
		return 0, nil // counted by the arena, reported as its failures
	}
	if err := r.batch.Reset(view); err != nil {
		r.fail(err)
		return 0, nil
	}
	r.sprites.Step(1.0/60, w, h)
	r.sprites.Write(r.batch, r.spriteTex)
	return off, r.batch.Runs()
}

// area is the playfield: the framebuffer with a window, the window's
// default size headless.
func (r *renderer) area() (w, h float32) {
	if r.win == nil {
		return 1280, 720
	}
	iw, ih := r.win.Size()
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
