package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// report is everything a run measured. It is filled by the render
// goroutine after the run (the owners' stats are read there, on their
// owner), then printed and optionally written as JSON. Durations are in
// nanoseconds in JSON; the *_ms fields are there for people.
type report struct {
	Config  reportConfig `json:"config"`
	Backend string       `json:"backend"` // "opengl: <renderer>" or "cpu (headless)"
	Audio   string       `json:"audio"`   // "oto", "offline (...)"
	Wall    float64      `json:"wall_seconds"`
	// Verdict is "PASS: ...", "FAIL: <reason>", "FAIL: no verdict:
	// <reason>" (too few guarded frames) or "INTERRUPTED by <signal>
	// ...".
	Verdict string `json:"verdict"`
	// Interrupted names the signal that stopped the run ("SIGINT",
	// "SIGTERM"); the report is then partial, and says so.
	Interrupted string `json:"interrupted,omitempty"`

	Frames       uint64 `json:"frames"`
	SteadyFrames uint64 `json:"steady_frames"` // frames the guard checked
	FrameP50     ms     `json:"frame_p50_ms"`
	FrameP99     ms     `json:"frame_p99_ms"`
	FrameMax     ms     `json:"frame_max_ms"`
	FrameMean    ms     `json:"frame_mean_ms"`

	Guard guardSection `json:"guard"`
	GC    gcSection    `json:"gc"`

	Requests    []requestSection `json:"requests"`
	Descriptors descSection      `json:"descriptors"`
	Upload      []arenaSection   `json:"upload"`
	Objects     objectSection    `json:"objects"`
	Sprites     spriteSection    `json:"sprites"`
	Voices      voiceSection     `json:"voices"`
	Scale       scaleSection     `json:"emitters"` // -emitters (report_scale.go)
	Queues      []queueSection   `json:"queues"`
	Churn       churnSection     `json:"churn"`
	Barriers    barrierSection   `json:"barriers"`
	Teardown    []stageSection   `json:"teardown"`
	// Scenarios are the -scenario phases, in the order they ran.
	Scenarios []scenarioSection `json:"scenarios,omitempty"`
	Errors    []string          `json:"errors,omitempty"`
}

// ms is a duration printed in milliseconds with microsecond precision.
type ms float64

func toMS(d time.Duration) ms { return ms(float64(d.Microseconds()) / 1000) }

// us is a duration printed in microseconds with nanosecond precision: the
// guard's cost per frame is far below a millisecond.
type us float64

func toUS(d time.Duration) us { return us(float64(d.Nanoseconds()) / 1000) }

type reportConfig struct {
	Workers     int     `json:"workers"`
	Duration    string  `json:"duration"`
	Frames      int     `json:"frames_limit"`
	Headless    bool    `json:"headless"`
	Selftest    bool    `json:"selftest"`
	Seed        int64   `json:"seed"`
	Settle      int     `json:"settle"`
	MinFrames   int     `json:"min_frames"`
	FPS         float64 `json:"fps"`
	PlayRate    float64 `json:"play_rate_per_worker"`
	SpawnRate   float64 `json:"spawn_rate_per_worker"`
	ChurnRate   float64 `json:"churn_rate"`
	Uploads     int     `json:"uploads_per_worker_frame"`
	UploadBytes int     `json:"upload_bytes"`
	Sprites     int     `json:"sprites"`
	SpritePath  string  `json:"sprite_path"`
}

// guardSection is the guard's Report. The guard counts spans: windows
// of consecutive frames, or single frames it narrowed to after a flagged
// window; a violation or a tolerated allocation names its span.
type guardSection struct {
	Armed          uint64      `json:"armed_frames"`
	InWindows      uint64      `json:"frames_checked_in_windows"`
	PerFrame       uint64      `json:"frames_checked_alone"`
	Violations     uint64      `json:"violating_spans"`
	Tolerated      uint64      `json:"tolerated_spans"`
	SteadyAllocs   uint64      `json:"allocs_in_violating_spans"`
	GapAllocs      uint64      `json:"allocs_in_steady_window_not_violating"`
	Sites          []string    `json:"sites,omitempty"`
	Cost           costSection `json:"cost_per_frame"`
	SelftestCaught bool        `json:"selftest_caught,omitempty"`
}

// costSection is the guard's own time per armed frame (guard.Cost).
type costSection struct {
	Frames    uint64 `json:"frames"`
	Timed     uint64 `json:"timed_frames"` // frames that read a count
	Mean      us     `json:"mean_us"`
	P50       us     `json:"p50_us"`
	P99       us     `json:"p99_us"`
	Max       us     `json:"max_us"`
	Reporting ms     `json:"reporting_total_ms"`
}

// requestSection is what became of one kind of request: Issued =
// Applied + Merged + Refused + DroppedAtExit, checked (see tally).
type requestSection struct {
	Kind          string `json:"kind"`
	Issued        uint64 `json:"issued"`
	Applied       uint64 `json:"applied"`
	Merged        uint64 `json:"merged"`
	Refused       uint64 `json:"refused"`
	DroppedAtExit uint64 `json:"dropped_at_exit"`
	Balanced      bool   `json:"balanced"`
}

// objectSection is the game objects' pool and per-frame arena.
type objectSection struct {
	Budget    int    `json:"pool_budget"`
	Live      int    `json:"live_at_end"`
	Peak      int    `json:"peak"`
	HighWater int    `json:"high_water"`
	Created   uint64 `json:"created"`
	Refused   uint64 `json:"refused"`
	ArenaPeak int    `json:"visible_per_frame_peak"`
}

type gcSection struct {
	Total        uint32 `json:"cycles_total"`
	Steady       uint32 `json:"cycles_in_steady_window"`
	SteadyForced uint32 `json:"forced_by_guard_in_steady_window"`
	HeapAllocMiB string `json:"heap_alloc_mib_at_end"`
}

type descSection struct {
	Capacity      int    `json:"capacity"`
	Live          int    `json:"live"`
	Peak          int    `json:"peak"`
	HighWater     int    `json:"high_water"`
	PendingPeak   int    `json:"pending_retirement_peak"`
	Warnings      uint64 `json:"warnings"`
	Allocated     uint64 `json:"slots_allocated"`
	Freed         uint64 `json:"slots_freed"`
	Failures      uint64 `json:"failures"`
	LiveAfterLoad int    `json:"live_after_level_load"`
}

type arenaSection struct {
	Name       string  `json:"name"`
	Capacity   int     `json:"capacity_bytes_per_frame"`
	Peak       int     `json:"peak_bytes"`
	PeakPct    float64 `json:"peak_percent"`
	Allocs     uint64  `json:"allocs"`
	Failures   uint64  `json:"failures"`
	FenceWaits uint64  `json:"fence_waits"`
	FenceWait  ms      `json:"fence_wait_ms"`
}

type voiceSection struct {
	Active    int    `json:"active_at_end"`
	Peak      int    `json:"peak"`
	Capacity  int    `json:"capacity"`
	Played    uint64 `json:"played"` // plays the mixer started
	Refused   uint64 `json:"refused"`
	Stolen    uint64 `json:"stolen"`
	QueueFull uint64 `json:"queue_full"`
	Underruns uint64 `json:"underruns"`
	MixMax    ms     `json:"mix_block_max_ms"`
}

type queueSection struct {
	Name     string  `json:"name"`
	Capacity int     `json:"capacity"`
	Peak     *uint64 `json:"peak_depth,omitempty"` // nil where the owner does not track it (voices)
	Full     uint64  `json:"full"`
}

type churnSection struct {
	FontRebakes   uint64 `json:"font_rebakes"`
	QualitySwaps  uint64 `json:"quality_swaps"`
	Levels        uint64 `json:"level_transitions"`
	TexturesMade  uint64 `json:"textures_created"`
	TexturesFreed uint64 `json:"textures_freed"`
}

type barrierSection struct {
	StopAll    ms     `json:"stopall_ms"`
	Drain      ms     `json:"frames_drain_ms"`
	FenceWaits uint64 `json:"frame_fence_waits"`
	FenceWait  ms     `json:"frame_fence_wait_ms"`
}

type stageSection struct {
	Name     string `json:"name"`
	Duration ms     `json:"ms"`
	Err      string `json:"error,omitempty"`
}

// passed reports whether the run met every rule.
func (r *report) passed() bool { return strings.HasPrefix(r.Verdict, "PASS") }

// writeText prints the report for people.
func (r *report) writeText(w io.Writer) {
	p := func(format string, a ...any) { fmt.Fprintf(w, format+"\n", a...) }
	p("steadyframe stress report")
	if r.Interrupted != "" {
		p("  INTERRUPTED by %s: a partial report of the frames that ran; teardown ran in full", r.Interrupted)
	}
	p("  run        %d workers, %.1fs wall, backend %s, audio %s, seed %d",
		r.Config.Workers, r.Wall, r.Backend, r.Audio, r.Config.Seed)
	p("  frames     %d total, %d steady (guard armed after %d settled frames; a verdict needs %d)",
		r.Frames, r.SteadyFrames, r.Config.Settle, r.Config.MinFrames)
	p("  frame time p50 %.3f ms, p99 %.3f ms, max %.3f ms, mean %.3f ms", r.FrameP50, r.FrameP99, r.FrameMax, r.FrameMean)
	g := r.Guard
	p("  guard      %d allocations in %d checked frames (%d in windows, %d alone): %d violating spans, %d tolerated spans",
		g.SteadyAllocs, g.Armed, g.InWindows, g.PerFrame, g.Violations, g.Tolerated)
	c := g.Cost
	p("             guard cost per frame: mean %.2f µs, p50 %.2f µs, p99 %.2f µs, max %.1f µs (%d of %d frames read a count); %.3f ms reporting",
		c.Mean, c.P50, c.P99, c.Max, c.Timed, c.Frames, c.Reporting)
	p("             %d allocations in the steady window not charged to a violating span (tolerated ones, and the guard's own reporting after flagged or tolerated spans)",
		g.GapAllocs)
	for _, s := range g.Sites {
		p("             site %s", s)
	}
	p("  gc         %d cycles in the steady window: %d forced by the guard to read allocation sites after a flagged or tolerated span, %d started by the allocator; %d in the whole run; heap %s MiB at end",
		r.GC.Steady, r.GC.SteadyForced, r.GC.Steady-r.GC.SteadyForced, r.GC.Total, r.GC.HeapAllocMiB)
	for _, q := range r.Requests {
		check := "ok"
		if !q.Balanced {
			check = "MISMATCH"
		}
		p("  requests   %-12s issued %7d = applied %7d + merged %5d + refused %5d + dropped at exit %4d  %s",
			q.Kind, q.Issued, q.Applied, q.Merged, q.Refused, q.DroppedAtExit, check)
	}
	d := r.Descriptors
	p("  descriptors live %d, peak %d, high-water %d of %d; pending peak %d; %d occupancy warnings; %d allocated, %d freed, %d failures",
		d.Live, d.Peak, d.HighWater, d.Capacity, d.PendingPeak, d.Warnings, d.Allocated, d.Freed, d.Failures)
	ch := r.Churn
	p("  churn      %d font rebakes, %d quality swaps, %d level transitions (at most one of each a frame); %d textures created, %d freed",
		ch.FontRebakes, ch.QualitySwaps, ch.Levels, ch.TexturesMade, ch.TexturesFreed)
	for _, a := range r.Upload {
		p("  upload     %-9s peak %8d of %8d bytes (%5.1f%%), %d allocs, %d failures, %d fence waits (%.3f ms)",
			a.Name, a.Peak, a.Capacity, a.PeakPct, a.Allocs, a.Failures, a.FenceWaits, a.FenceWait)
	}
	o := r.Objects
	p("  objects    %d live at end, peak %d, high-water %d of a pool of %d; %d created, %d refused; up to %d visible a frame",
		o.Live, o.Peak, o.HighWater, o.Budget, o.Created, o.Refused, o.ArenaPeak)
	p("  sprites    %s", r.Sprites.text())
	v := r.Voices
	p("  voices     %d active at end, peak %d of %d; %d played, %d refused, %d stolen, %d queue-full, %d underruns; mix max %.3f ms",
		v.Active, v.Peak, v.Capacity, v.Played, v.Refused, v.Stolen, v.QueueFull, v.Underruns, v.MixMax)
	p("  emitters   %s", r.Scale.text())
	for _, q := range r.Queues {
		peak := "n/a"
		if q.Peak != nil {
			peak = fmt.Sprint(*q.Peak)
		}
		p("  queue      %-9s capacity %d, peak depth %s, %d full", q.Name, q.Capacity, peak, q.Full)
	}
	b := r.Barriers
	p("  barriers   StopAll %.3f ms, frames drain %.3f ms, %d frame fence waits (%.3f ms)", b.StopAll, b.Drain, b.FenceWaits, b.FenceWait)
	for _, s := range r.Teardown {
		line := fmt.Sprintf("  teardown   %-22s %.3f ms", s.Name, s.Duration)
		if s.Err != "" {
			line += " error: " + s.Err
		}
		p("%s", line)
	}
	r.writeScenarios(w)
	for _, e := range r.Errors {
		p("  error      %s", e)
	}
	p("  verdict    %s", r.Verdict)
}

// writeFiles writes report.json and occupancy.svg into dir, each
// atomically (writeAtomic): a failure leaves no partial file and wraps
// errReportWrite.
func (r *report) writeFiles(dir string, samples []sample, descCap int, arenaCap [arenaCount]int) error {
	js, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("stress: encoding report: %w", err)
	}
	if err := writeAtomic(dir, "report.json", func(f *os.File) error {
		_, err := f.Write(append(js, '\n'))
		return err
	}); err != nil {
		return err
	}
	return writeAtomic(dir, "occupancy.svg", func(f *os.File) error {
		return writePlot(f, samples, descCap, arenaCap, r.Scenarios)
	})
}
