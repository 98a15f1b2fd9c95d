package main

import (
	"fmt"
	"log/slog"
	"runtime"
	"time"

	"github.com/steadyframe/steadyframe/internal/scene"
)

// buildReport gathers every owner's counters on the render goroutine,
// after the workers have exited and before teardown. The plays' fate is
// known only once StopAll has run, so teardown completes the accounting.
func (r *renderer) buildReport(snd *scene.Audio, wall time.Duration) *report {
	cfg := r.cfg
	g := r.guard.Report()
	rep := &report{
		Config: reportConfig{
			Workers: cfg.workers, Duration: cfg.duration.String(), Frames: cfg.Frames, Headless: cfg.headless,
			Selftest: cfg.selftest, Seed: cfg.seed, Settle: cfg.settle, MinFrames: cfg.minFrames, FPS: cfg.fps,
			PlayRate: cfg.playRate, SpawnRate: cfg.spawnRate, ChurnRate: cfg.churnRate,
			Uploads: cfg.uploadsPer, UploadBytes: cfg.uploadBytes, Sprites: cfg.Sprites,
			SpritePath: cfg.spritePath,
		},
		Backend: r.scene.Backend, Audio: snd.Name, Wall: wall.Seconds(),
		Frames: r.frame, SteadyFrames: g.Armed,
		FrameP50: toMS(r.hist.Quantile(0.5)), FrameP99: toMS(r.hist.Quantile(0.99)),
		FrameMax: toMS(r.hist.Max()), FrameMean: toMS(r.hist.Mean()),
	}
	var steadyAllocs uint64
	for _, v := range g.Log {
		steadyAllocs += v.Allocs
	}
	c := g.Cost
	rep.Guard = guardSection{
		Armed: g.Armed, InWindows: g.InWindows, PerFrame: g.PerFrame,
		Violations: g.Violations, Tolerated: g.Tolerated, SteadyAllocs: steadyAllocs,
		Cost: costSection{Frames: c.Frames, Timed: c.Timed, Mean: toUS(c.Mean), P50: toUS(c.P50), P99: toUS(c.P99),
			Max: toUS(c.Max), Reporting: toMS(c.Reporting)},
	}
	if r.window.open && r.window.mallocs >= steadyAllocs {
		// Everything the process allocated in the steady window that was
		// not in a violating span: the guard's own reporting after flagged
		// and tolerated spans, and tolerated third-party allocations.
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
		t := r.tex.Stats()
		rep.Churn = churnSection{FontRebakes: t.Rebakes, QualitySwaps: t.Swaps, Levels: t.Levels,
			TexturesMade: t.Made, TexturesFreed: t.Freed}
	}
	for _, a := range r.arenas {
		s := a.Stats()
		rep.Upload = append(rep.Upload, arenaSection{
			Name: s.Name, Capacity: s.Capacity, Peak: s.Peak, PeakPct: 100 * float64(s.Peak) / float64(max(s.Capacity, 1)),
			Allocs: s.Allocs, Failures: s.Failures, FenceWaits: s.FenceWaits, FenceWait: toMS(s.WaitTime),
		})
	}
	ps, as := r.objects.pool.Stats(), r.objects.visible.Stats()
	rep.Objects = objectSection{Budget: ps.Capacity, Live: ps.InUse, Peak: ps.PeakInUse, HighWater: ps.HighWater,
		Created: ps.TotalCreated, Refused: ps.Refused, ArenaPeak: as.PeakInUse}
	rep.Sprites = r.spr.section(cfg.spritePath, cfg.Sprites)
	vs := snd.Engine.Stats()
	rep.Voices = voiceSection{
		Active: vs.Active, Peak: vs.Peak, Capacity: vs.MaxVoices, Refused: vs.Refusals,
		Stolen: vs.Steals, QueueFull: vs.QueueFull, Underruns: vs.Underruns, MixMax: toMS(vs.MixMax),
	}
	rep.Scale = scaleOf(r.emit, snd, &vs)
	peak := uint64(r.reqs.Peak())
	rep.Queues = []queueSection{
		{Name: "render", Capacity: r.reqs.Cap(), Peak: &peak, Full: r.reqs.Full()},
		{Name: "voices", Capacity: scene.QueueSize, Full: vs.QueueFull},
	}
	fs := r.scene.Clock.Stats()
	rep.Barriers = barrierSection{FenceWaits: fs.Waits, FenceWait: toMS(fs.WaitTime)}
	return rep
}

// teardown runs the scene's shutdown plan (scene.Plan) and records each
// stage, then settles the accounting: only after StopAll is every play
// the engine accepted either started or dropped.
func (o *outcome) teardown(r *renderer, snd *scene.Audio, logger *slog.Logger) {
	// The mixer's refusals so far are plays it dropped under steal; those
	// StopAll adds are plays it cancelled at exit.
	before := snd.Engine.Stats().Refusals
	tearingDown()
	td, err := scene.Plan(logger, snd, r.scene, r.tex)
	if err != nil {
		o.errs = append(o.errs, err)
	} else {
		if err := td.Run(); err != nil {
			o.errs = append(o.errs, err)
		}
		for _, s := range td.Results() {
			st := stageSection{Name: s.Name, Duration: toMS(s.Duration)}
			if s.Err != nil {
				st.Err = oneLine(s.Err)
			}
			o.report.Teardown = append(o.report.Teardown, st)
			switch s.Name {
			case scene.StageStopAll:
				o.report.Barriers.StopAll = toMS(s.Duration)
			case scene.StageDrain:
				o.report.Barriers.Drain = toMS(s.Duration)
			}
		}
	}
	o.account(r, before, snd.Engine.Stats().Refusals)
	if r.err != nil {
		o.errs = append(o.errs, r.err)
	}
	for _, w := range r.workers {
		if w.playErrs > 0 {
			o.errs = append(o.errs, fmt.Errorf("stress: worker %d: %d play requests failed, the first: %w", w.id, w.playErrs, w.playErr))
		}
	}
	if err := snd.Engine.Err(); err != nil && snd.Name == "oto" {
		o.errs = append(o.errs, fmt.Errorf("stress: audio device: %w", err))
	}
}

// account sums the workers' and the render goroutine's ledgers, settles
// the plays from the engine's refusal counts before and after teardown,
// writes the report's request lines, and fails the run on any kind whose
// terms do not sum to what was issued.
//
// The engine's Refusals count the plays it refused at the call with
// ErrNoVoice (the workers counted those) and the plays the mixer dropped
// after accepting them: under steal with no voice to steal, and, once
// StopAll has marked the queue, every play still queued. So what the
// mixer dropped is Refusals less the workers' ErrNoVoice count, and the
// plays it started are the accepted ones less those.
func (o *outcome) account(r *renderer, refusedBefore, refusedAfter uint64) {
	var l ledger
	var noVoice uint64
	for _, w := range r.workers {
		l.add(&w.ledger)
		noVoice += w.noVoice
	}
	l.add(&r.ledger)
	play := &l[reqPlay]
	// Only workers issue plays, and they count every one the engine did
	// not queue as refused.
	accepted := play.Issued - play.Refused
	stolen, cancelled := sub(refusedBefore, noVoice), sub(refusedAfter, refusedBefore)
	play.Refused += stolen
	play.Dropped += cancelled
	// A negative remainder would be the engine refusing plays the workers
	// never saw accepted; leave Applied short, so the check reports it.
	play.Applied = sub(accepted, stolen+cancelled)
	o.report.Voices.Played = play.Applied
	o.report.Requests = o.report.Requests[:0]
	for k := reqUpload; k < kindCount; k++ {
		t := l[k]
		o.report.Requests = append(o.report.Requests, requestSection{
			Kind: kindNames[k], Issued: t.Issued, Applied: t.Applied, Merged: t.Merged, Refused: t.Refused,
			DroppedAtExit: t.Dropped, Balanced: t.accounted() == t.Issued,
		})
	}
	if err := l.check(); err != nil {
		o.errs = append(o.errs, err)
	}
}

// sub is a - b, or 0 when b is larger.
func sub(a, b uint64) uint64 {
	if b > a {
		return 0
	}
	return a - b
}
