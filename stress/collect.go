package main

import (
	"fmt"
	"log/slog"
	"runtime"
	"time"

	"github.com/steadyframe/steadyframe/lifetime/teardown"
	"github.com/steadyframe/steadyframe/voices"
)

// buildReport gathers every owner's counters on the render goroutine,
// after the workers have exited and before teardown.
func (r *renderer) buildReport(snd *audio, backend string, wall time.Duration) *report {
	cfg := r.cfg
	g := r.guard.Report()
	rep := &report{
		Config: reportConfig{
			Workers: cfg.workers, Duration: cfg.duration.String(), Frames: cfg.frames, Headless: cfg.headless,
			Selftest: cfg.selftest, Seed: cfg.seed, Settle: cfg.settle, PlayRate: cfg.playRate, ChurnRate: cfg.churnRate,
			Uploads: cfg.uploadsPer, UploadBytes: cfg.uploadBytes, Sprites: cfg.sprites,
		},
		Backend: backend, Audio: snd.name, Wall: wall.Seconds(),
		Frames: r.frame, SteadyFrames: g.Armed,
		FrameP50: toMS(r.hist.Quantile(0.5)), FrameP99: toMS(r.hist.Quantile(0.99)),
		FrameMax: toMS(r.hist.Max()), FrameMean: toMS(r.hist.Mean()),
	}
	var steadyAllocs uint64
	for _, v := range g.Log {
		steadyAllocs += v.Allocs
	}
	rep.Guard = guardSection{
		Armed: g.Armed, Violations: g.Violations, Tolerated: g.Tolerated, SteadyAllocs: steadyAllocs,
		ReportingFrames: r.gaps, ProgressAllocs: r.gapMall, GapAllocs: r.gapMall, OverheadPerFrame: toMS(g.Cost.Mean),
	}
	if r.window.open && r.window.mallocs >= steadyAllocs {
		// Everything the process allocated in the steady window that was
		// not inside a guarded frame: the progress bar's gaps and the
		// guard's own violation reporting.
		rep.Guard.GapAllocs = r.window.mallocs - steadyAllocs
	}
	for _, s := range g.Sites {
		rep.Guard.Sites = append(rep.Guard.Sites, fmt.Sprintf("%s (%d allocs)", s.String(), s.Allocs))
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	steadyGC := uint32(r.window.gcEnd - r.window.gcStart)
	rep.GC = gcSection{Total: ms.NumGC, Steady: steadyGC, SteadyForced: min(r.window.forced, steadyGC),
		HeapAllocMiB: fmt.Sprintf("%.1f", float64(ms.HeapAlloc)/(1<<20))}

	hs := r.heap.Stats()
	rep.Descriptors = descSection{
		Capacity: hs.Capacity, Live: hs.Live, Peak: hs.Peak, HighWater: hs.HighWater, PendingPeak: r.pendingPeak,
		Warnings: hs.Warnings, Allocated: hs.Allocs, Freed: hs.Frees, Failures: hs.Refused,
		LiveAfterLoad: r.liveAfterLoad,
	}
	if r.tex != nil {
		t := r.tex
		rep.Churn = churnSection{FontRebakes: t.rebakes, QualitySwaps: t.swaps, Levels: t.levels,
			TexturesMade: t.made, TexturesFreed: t.freed}
	}
	for _, w := range r.workers {
		rep.Churn.Requested += w.churn
	}
	for _, a := range r.arenas {
		s := a.Stats()
		rep.Upload = append(rep.Upload, arenaSection{
			Name: s.Name, Capacity: s.Capacity, Peak: s.Peak, PeakPct: 100 * float64(s.Peak) / float64(max(s.Capacity, 1)),
			Allocs: s.Allocs, Failures: s.Failures, FenceWaits: s.FenceWaits, FenceWait: toMS(s.WaitTime),
		})
	}
	vs := snd.engine.Stats()
	var played uint64
	for _, w := range r.workers {
		played += w.plays
	}
	rep.Voices = voiceSection{
		Active: vs.Active, Peak: vs.Peak, Capacity: vs.MaxVoices, Played: played, Refused: vs.Refusals,
		Stolen: vs.Steals, QueueFull: vs.QueueFull, Underruns: vs.Underruns, MixMax: toMS(vs.MixMax),
	}
	peak := uint64(r.reqs.Peak())
	rep.Queues = []queueSection{
		{Name: "render", Capacity: r.reqs.Cap(), Peak: &peak, Full: r.reqs.Full()},
		{Name: "voices", Capacity: voices.DefaultQueueSize, Full: vs.QueueFull},
	}
	fs := r.frames.Stats()
	rep.Barriers = barrierSection{FenceWaits: fs.Waits, FenceWait: toMS(fs.WaitTime)}
	return rep
}

// teardown runs the explicit shutdown order through teardown.Plan and
// records each stage. The order is the reference's two lessons: voices stop
// before the sound memory they read is released, and the frames drain
// before the GL objects they may still read are deleted.
func (o *outcome) teardown(r *renderer, gpu *gpuSide, snd *audio, logger *slog.Logger) {
	td := teardown.New(logger)
	var stopAll, drain time.Duration
	add := func(name string, fn func() error, after ...string) {
		if err := td.Add(name, fn, after...); err != nil {
			o.errs = append(o.errs, err)
		}
	}
	add("voices-stopall", func() error {
		t := time.Now()
		err := snd.stopAll()
		stopAll = time.Since(t)
		return err
	})
	add("sound-memory", snd.releaseBanks, "voices-stopall")
	add("audio-device", snd.close, "sound-memory")
	add("textures-free", func() error {
		if r.tex != nil {
			r.tex.releaseAll()
			return r.tex.firstErr
		}
		return nil
	})
	// Draining the clock reclaims every freed slot (deleting its texture);
	// the heap and the Set refuse to close before it, and the clock
	// refuses to close before them.
	add("frames-drain", func() error {
		t := time.Now()
		err := r.frames.Drain()
		drain = time.Since(t)
		return err
	}, "textures-free")
	add("descriptors-close", r.tx.Close, "frames-drain")
	add("upload-unmap", r.set.Close, "frames-drain")
	add("frames-close", r.frames.Close, "descriptors-close", "upload-unmap")
	if gpu.closeGL != nil {
		add("gl-context", gpu.closeGL, "frames-close")
	}
	for _, u := range [][2]string{
		{"voices-stopall", "sound-memory"},
		{"frames-drain", "descriptors-close"},
		{"frames-drain", "upload-unmap"},
		{"descriptors-close", "frames-close"},
		{"upload-unmap", "frames-close"},
	} {
		if err := td.Uses(u[0], u[1]); err != nil {
			o.errs = append(o.errs, err)
		}
	}
	if err := td.Run(); err != nil {
		o.errs = append(o.errs, err)
	}
	for _, s := range td.Results() {
		st := stageSection{Name: s.Name, Duration: toMS(s.Duration)}
		if s.Err != nil {
			st.Err = oneLine(s.Err)
		}
		o.report.Teardown = append(o.report.Teardown, st)
	}
	o.report.Barriers.StopAll = toMS(stopAll)
	o.report.Barriers.Drain = toMS(drain)
	if r.err != nil {
		o.errs = append(o.errs, r.err)
	}
	for _, w := range r.workers {
		if w.playErrs > 0 {
			o.errs = append(o.errs, fmt.Errorf("stress: worker %d: %d play requests failed, the first: %w", w.id, w.playErrs, w.playErr))
		}
	}
	if err := snd.engine.Err(); err != nil && snd.name == "oto" {
		o.errs = append(o.errs, fmt.Errorf("stress: audio device: %w", err))
	}
}
