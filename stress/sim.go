package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/flatlog"
	"github.com/steadyframe/steadyframe/internal/quads"
	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/internal/sprites"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/lifetime/guard"
	"github.com/steadyframe/steadyframe/lifetime/syncs"
	"github.com/steadyframe/steadyframe/upload"
)

// gpuSide is what the render goroutine builds before the loop: the frame
// clock, the upload Set and the heap that follow it, the texturer and,
// with a window, the display. closeGL tears down what only the backend
// knows about (GL objects, the window) after the library's own teardown
// stages.
type gpuSide struct {
	backend string
	clock   *frame.Clock
	set     *upload.Set
	heap    *descriptors.Heap
	tx      texturer
	disp    display
	// closeGL deletes the GL objects that are not the library's (the quad
	// renderer) and destroys the window; nil headless.
	closeGL func() error
}

// abort releases what newCPUSide or newGLSide built when the run cannot
// start; above all it stops an Xvfb the tool started.
func (g *gpuSide) abort() {
	_ = g.clock.Drain()
	_ = g.tx.Close()
	_ = g.set.Close()
	_ = g.clock.Close()
	if g.closeGL != nil {
		_ = g.closeGL()
	}
}

// newLogger builds the occupancy log on w, text or JSON, with the
// allocation-free handler.
func newLogger(format string, w io.Writer) *slog.Logger {
	return slog.New(flatlog.New(w, logFormat(format == "json"), nil))
}

// newCPUSide is -headless: the library's CPU backends, no window.
func newCPUSide(logger *slog.Logger) (*gpuSide, error) {
	clock, err := frame.NewClock(frame.ClockDesc{}) // CPU fences
	if err != nil {
		return nil, err
	}
	set, err := upload.NewSet(upload.SetDesc{Arenas: scene.Arenas(), Clock: clock})
	if err != nil {
		_ = clock.Close()
		return nil, err
	}
	heap, err := descriptors.NewHeap(descriptors.HeapDesc{Logger: logger, Clock: clock})
	if err != nil {
		_ = set.Close()
		_ = clock.Close()
		return nil, err
	}
	return &gpuSide{
		backend: "cpu (headless)", clock: clock, set: set, heap: heap,
		tx: &cpuTextures{heap: heap, arena: set.Arena(scene.ArenaRenderer)},
	}, nil
}

// simulate builds the game, runs it and tears it down in the explicit
// order. It returns an error only when the harness itself could not run;
// what the run found is in the outcome.
func simulate(cfg *config, stdout, stderr io.Writer) (*outcome, error) {
	if cfg.report != "" {
		// Find out now, not after a long run, that the report has nowhere
		// to go.
		if err := os.MkdirAll(cfg.report, 0o755); err != nil {
			return nil, fmt.Errorf("stress: -report: %w", err)
		}
	}
	logger := newLogger(cfg.logFmt, stderr)
	snd, err := newAudio(cfg.audio, logger)
	if err != nil {
		return nil, err
	}
	var gpu *gpuSide
	if cfg.headless {
		gpu, err = newCPUSide(logger)
	} else {
		gpu, err = newGLSide(cfg, logger)
	}
	if err != nil {
		_ = snd.close()
		return nil, err
	}
	guard, err := guard.New(guard.Desc{
		Settle: cfg.settle, Sites: true, Logger: logger, Allow: guardAllow(snd),
	})
	if err != nil {
		gpu.abort()
		_ = snd.close()
		return nil, err
	}
	r, err := newRenderer(cfg, logger, gpu, guard, stdout)
	if err != nil {
		gpu.abort()
		_ = snd.close()
		return nil, err
	}
	logger.Info("stress: starting", "workers", cfg.workers, "backend", gpu.backend, "audio", snd.name,
		"settle", cfg.settle, "selftest", cfg.selftest)

	var wg sync.WaitGroup
	r.workers = make([]*worker, cfg.workers)
	for i := range r.workers {
		r.workers[i] = newWorker(i, cfg, &r.clock, r.reqs, snd)
		wg.Add(1)
		go r.workers[i].run(&wg)
	}
	wall := time.Now()
	r.loop()
	r.prog.Finish()
	r.clock.stop.Store(true)
	wg.Wait()
	out := &outcome{guard: guard.Report(), guardErr: guard.Err(), poked: r.poked, pokeFrame: r.pokeFrame}
	rep := r.buildReport(snd, gpu.backend, time.Since(wall))
	out.report = rep
	out.teardown(r, gpu, snd, logger)
	out.finish()
	if cfg.report != "" {
		caps := [arenaCount]int{}
		for i, a := range r.arenas {
			caps[i] = a.Capacity()
		}
		if err := rep.writeFiles(cfg.report, r.series.Samples(), gpu.heap.Capacity(), caps); err != nil {
			out.errs = append(out.errs, err)
			out.finish()
		}
	}
	rep.writeText(stdout)
	return out, nil
}

// newRenderer wires the render goroutine's state. Everything a steady
// frame touches is allocated here.
func newRenderer(cfg *config, logger *slog.Logger, gpu *gpuSide, guard *guard.Guard, stdout io.Writer) (*renderer, error) {
	reqs, err := syncs.NewQueue[request](cfg.workers*(cfg.uploadsPer+8)*4 + 256)
	if err != nil {
		return nil, fmt.Errorf("stress: render queue: %w", err)
	}
	r := &renderer{
		cfg: cfg, log: logger, frames: gpu.clock, set: gpu.set, heap: gpu.heap, tx: gpu.tx, disp: gpu.disp, guard: guard,
		reqs:      reqs,
		series:    newSeries(4096),
		armedFrom: uint64(cfg.settle) + 1,
		metrics:   []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}},
	}
	// The first metrics.Read builds the runtime's metric table; do it now.
	metrics.Read(r.metrics)
	if cfg.selftest {
		r.pokeFrame = r.armedFrom + selftestAfter
	}
	for i := 0; i < gpu.set.Len(); i++ {
		r.arenas = append(r.arenas, gpu.set.Arena(i))
	}
	if len(r.arenas) != arenaCount {
		return nil, fmt.Errorf("stress: %d upload arenas, want %d", len(r.arenas), arenaCount)
	}
	if r.batch, err = quads.NewWriter(levelTextures + 8); err != nil {
		return nil, err
	}
	w, h := r.area()
	if r.sprites, err = sprites.New(cfg.sprites, 24, w, h, uint64(cfg.seed)); err != nil {
		return nil, err
	}
	n := max(cfg.sprites, 1)
	r.spriteTex = func(i int) uint32 { return r.tx.Name(r.tex.level[i*levelTextures/n]) }
	r.occ = newOccupancyLog(logger, gpu.heap.Capacity(), cfg.occupancyEvery, r.arenas)
	r.prog = newProgress(stdout, cfg.frames, cfg.duration, cfg.progressEvery)
	return r, nil
}

// outcome is what the run found, and the exit status it earns.
type outcome struct {
	report    *report
	guard     guard.Report
	guardErr  error
	poked     bool
	pokeFrame uint64
	errs      []error
	caught    bool   // -selftest: the guard named the poke
	pokeSite  string // how the guard named it
}

// finish sets the verdict from the guard and the errors.
func (o *outcome) finish() {
	for _, s := range o.guard.Sites {
		if isSelftestSite(s.Function) {
			o.caught, o.pokeSite = true, s.String()
		}
	}
	o.report.Guard.SelftestCaught = o.caught
	o.report.Errors = o.report.Errors[:0]
	for _, e := range o.errs {
		o.report.Errors = append(o.report.Errors, oneLine(e))
	}
	switch {
	case o.guardErr != nil:
		o.report.Verdict = "FAIL: steady-state allocation: " + o.guardErr.Error()
	case len(o.errs) > 0:
		o.report.Verdict = "FAIL: " + oneLine(errors.Join(o.errs...))
	default:
		o.report.Verdict = "PASS: no allocation in " + fmt.Sprint(o.report.Guard.Armed) + " steady frames"
	}
}

// exit prints the one-line reason and returns the status.
func (o *outcome) exit(cfg *config, stderr io.Writer) int {
	if cfg.selftest {
		switch {
		case !o.poked:
			fmt.Fprintf(stderr, "stress: FAIL: -selftest: the run ended before frame %d, where the allocation was to be injected\n", o.pokeFrame)
			return exitHarness
		case !o.caught:
			fmt.Fprintf(stderr, "stress: FAIL: -selftest: the allocation injected in frame %d (%s) was not caught; the guard proves nothing\n", o.pokeFrame, selftestName)
			return exitHarness
		}
		fmt.Fprintf(stderr, "stress: selftest: the guard caught the allocation injected in frame %d and named %s; failing the run as it must\n", o.pokeFrame, selftestName)
		line := fmt.Sprintf("stress: FAIL: steady-state allocation at %s in frame %d, injected by -selftest and caught", o.pokeSite, o.pokeFrame)
		if others := o.guard.Violations - 1; others > 0 {
			line += fmt.Sprintf("; %d other violating frames, the first: %v", others, o.guardErr)
		}
		fmt.Fprintln(stderr, line)
		return exitViolation
	}
	if o.report.passed() {
		return exitPass
	}
	fmt.Fprintf(stderr, "stress: %s\n", o.report.Verdict)
	return exitViolation
}

// logFormat picks the flatlog format for -log.
func logFormat(json bool) flatlog.Format {
	if json {
		return flatlog.FormatJSON
	}
	return flatlog.FormatText
}
