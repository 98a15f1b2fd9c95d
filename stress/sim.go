package main

import (
	"fmt"
	"io"
	"log/slog"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/steadyframe/steadyframe/internal/quads"
	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/internal/sprites"
	"github.com/steadyframe/steadyframe/lifetime/guard"
	"github.com/steadyframe/steadyframe/lifetime/syncs"
)

// simulate builds the game, runs it and tears it down in the explicit
// order. It returns an error only when the harness itself could not run;
// what the run found is in the outcome.
// Signals are already caught (sig), and stopping before the first frame
// is a run of no frames.
func simulate(cfg *config, sig *interrupts, stdout, stderr io.Writer) (*outcome, error) {
	if cfg.report != "" {
		// Find out now, not after a long run, that the report has nowhere
		// to go.
		if err := probeReportDir(cfg.report); err != nil {
			return nil, err
		}
	}
	logger := scene.NewLogger(cfg.Log, stderr)
	snd, err := scene.OpenAudio(cfg.Audio, logger)
	if err != nil {
		return nil, err
	}
	var rs *scene.Render
	if cfg.headless {
		rs, err = scene.OpenHeadless(scene.RenderDesc{Logger: logger})
	} else if rs, err = scene.OpenWindow(scene.RenderDesc{Logger: logger, Title: "steadyframe stress"}); err != nil {
		err = fmt.Errorf("%w (or use -headless)", err)
	}
	if err != nil {
		_ = snd.Close()
		return nil, err
	}
	g, err := guard.New(guard.Desc{
		Settle: cfg.settle, MinFrames: cfg.minFrames, Sites: true, Logger: logger, Allow: guardAllow(snd),
	})
	if err != nil {
		rs.Abort()
		_ = snd.Close()
		return nil, err
	}
	r, err := newRenderer(cfg, logger, rs, g, stdout)
	if err != nil {
		rs.Abort()
		_ = snd.Close()
		return nil, err
	}
	// The workers are goroutines, and each allocates when it first
	// sleeps: the loop starts once all are ready, so that neither a start
	// nor a first allocation can fall in a guarded frame however short
	// -settle is.
	var ready, wg sync.WaitGroup
	r.snd = snd
	r.sig = sig
	if cfg.Emitters > 0 {
		if r.emit, err = snd.NewEmitters(cfg.Emitters, uint64(cfg.seed)); err != nil {
			rs.Abort()
			_ = snd.Close()
			return nil, err
		}
	}
	logger.Info("stress: starting", "workers", cfg.workers, "backend", rs.Backend, "audio", snd.Name,
		"settle", cfg.settle, "min_frames", cfg.minFrames, "selftest", cfg.selftest)

	r.workers = make([]*worker, cfg.workers)
	for i := range r.workers {
		r.workers[i] = newWorker(i, cfg, &r.clock, r.reqs, snd)
		wg.Add(1)
		ready.Add(1)
		go r.workers[i].run(&wg, &ready)
	}
	ready.Wait()
	wall := time.Now()
	r.loop()
	r.prog.Finish()
	out := &outcome{verdict: r.verdict, poked: r.poked, pokeFrame: r.pokeFrame, interrupted: r.sig.caught()}
	if out.interrupted != "" {
		logger.Warn("stress: interrupted: stopping the workers, tearing down in order, writing the partial report; a second signal exits at once",
			"signal", out.interrupted, "frames", r.frame)
	}
	r.clock.stop.Store(true)
	wg.Wait()
	r.dropQueued()
	out.guard = r.guard.Report()
	rep := r.buildReport(snd, time.Since(wall))
	rep.Interrupted = out.interrupted
	out.report = rep
	out.errs = append(out.errs, r.dir.judge(rep)...)
	out.teardown(r, snd, logger)
	out.finish()
	if cfg.report != "" {
		caps := [arenaCount]int{}
		for i, a := range r.arenas {
			caps[i] = a.Capacity()
		}
		out.reportErr = rep.writeFiles(cfg.report, r.series.Samples(), r.heap.Capacity(), caps)
	}
	rep.writeText(stdout)
	return out, nil
}

// newRenderer wires the render goroutine's state. Everything a steady
// frame touches is allocated here.
func newRenderer(cfg *config, logger *slog.Logger, rs *scene.Render, g *guard.Guard, stdout io.Writer) (*renderer, error) {
	reqs, err := syncs.NewQueue[request](cfg.workers*(cfg.uploadsPer+8)*4 + 256)
	if err != nil {
		return nil, fmt.Errorf("stress: render queue: %w", err)
	}
	r := &renderer{
		cfg: cfg, scene: rs, heap: rs.Heap, win: rs.Window, guard: g,
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
	for i := 0; i < rs.Set.Len(); i++ {
		r.arenas = append(r.arenas, rs.Set.Arena(i))
	}
	if len(r.arenas) != arenaCount {
		return nil, fmt.Errorf("stress: %d upload arenas, want %d", len(r.arenas), arenaCount)
	}
	if r.objects, err = newObjects(); err != nil {
		return nil, err
	}
	if r.batch, err = quads.NewWriter(scene.LevelTextures + 8); err != nil {
		return nil, err
	}
	w, h := r.area()
	if r.sprites, err = sprites.New(cfg.Sprites, 24, w, h, uint64(cfg.seed)); err != nil {
		return nil, err
	}
	n := cfg.Sprites
	r.spriteTex = func(i int) uint32 { return rs.Tex.Name(r.tex.Level(i * scene.LevelTextures / n)) }
	if err := r.openSpriteArray(logger); err != nil {
		return nil, err
	}
	r.occ = newOccupancyLog(logger, rs.Heap.Capacity(), cfg.occupancyEvery, r.arenas)
	r.prog = newProgress(stdout, cfg.Frames, cfg.duration, cfg.progressEvery)
	if cfg.plan != nil {
		r.dir = newDirector(cfg.plan, logger)
		r.dir.prepare(r)
	}
	return r, nil
}
