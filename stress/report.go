package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	Verdict string       `json:"verdict"` // "PASS" or "FAIL: <reason>"

	Frames       uint64 `json:"frames"`
	SteadyFrames uint64 `json:"steady_frames"` // frames the guard checked
	FrameP50     ms     `json:"frame_p50_ms"`
	FrameP99     ms     `json:"frame_p99_ms"`
	FrameMax     ms     `json:"frame_max_ms"`
	FrameMean    ms     `json:"frame_mean_ms"`

	Guard guardSection `json:"guard"`
	GC    gcSection    `json:"gc"`

	Descriptors descSection    `json:"descriptors"`
	Upload      []arenaSection `json:"upload"`
	Voices      voiceSection   `json:"voices"`
	Queues      []queueSection `json:"queues"`
	Churn       churnSection   `json:"churn"`
	Barriers    barrierSection `json:"barriers"`
	Teardown    []stageSection `json:"teardown"`
	Errors      []string       `json:"errors,omitempty"`
}

// ms is a duration printed in milliseconds with microsecond precision.
type ms float64

func toMS(d time.Duration) ms { return ms(float64(d.Microseconds()) / 1000) }

type reportConfig struct {
	Workers     int     `json:"workers"`
	Duration    string  `json:"duration"`
	Frames      int     `json:"frames_limit"`
	Headless    bool    `json:"headless"`
	Selftest    bool    `json:"selftest"`
	Seed        int64   `json:"seed"`
	Settle      int     `json:"settle"`
	PlayRate    float64 `json:"play_rate_per_worker"`
	ChurnRate   float64 `json:"churn_rate"`
	Uploads     int     `json:"uploads_per_worker_frame"`
	UploadBytes int     `json:"upload_bytes"`
	Sprites     int     `json:"sprites"`
}

type guardSection struct {
	Armed            uint64   `json:"armed_frames"`
	Violations       uint64   `json:"violating_frames"`
	Tolerated        uint64   `json:"tolerated_frames"`
	SteadyAllocs     uint64   `json:"allocs_in_steady_frames"`
	GapAllocs        uint64   `json:"allocs_between_steady_frames"`
	ReportingFrames  uint64   `json:"reporting_gaps"`
	ProgressAllocs   uint64   `json:"allocs_in_reporting_gaps"`
	Sites            []string `json:"sites,omitempty"`
	OverheadPerFrame ms       `json:"overhead_per_frame_ms"`
	SelftestCaught   bool     `json:"selftest_caught,omitempty"`
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
	Played    uint64 `json:"play_requests_accepted"`
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
	Requested     uint64 `json:"requested_by_workers"`
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
	p("  run        %d workers, %.1fs wall, backend %s, audio %s, seed %d",
		r.Config.Workers, r.Wall, r.Backend, r.Audio, r.Config.Seed)
	p("  frames     %d total, %d steady (guard armed after %d settled frames)", r.Frames, r.SteadyFrames, r.Config.Settle)
	p("  frame time p50 %.3f ms, p99 %.3f ms, max %.3f ms, mean %.3f ms", r.FrameP50, r.FrameP99, r.FrameMax, r.FrameMean)
	g := r.Guard
	p("  guard      %d allocations in %d steady frames (%d violating frames), %d tolerated; overhead %.3f ms/frame",
		g.SteadyAllocs, g.Armed, g.Violations, g.Tolerated, g.OverheadPerFrame)
	p("             %d allocations in the steady window outside guarded frames (%d progress-bar redraws in reporting gaps: %d allocations; the rest is the guard's own profile reads after flagged frames)",
		g.GapAllocs, g.ReportingFrames, g.ProgressAllocs)
	for _, s := range g.Sites {
		p("             site %s", s)
	}
	p("  gc         %d cycles in the steady window: %d forced by the guard to read allocation sites after a flagged or tolerated frame, %d started by the allocator; %d in the whole run; heap %s MiB at end",
		r.GC.Steady, r.GC.SteadyForced, r.GC.Steady-r.GC.SteadyForced, r.GC.Total, r.GC.HeapAllocMiB)
	d := r.Descriptors
	p("  descriptors live %d, peak %d, high-water %d of %d; pending peak %d; %d occupancy warnings; %d allocated, %d freed, %d failures",
		d.Live, d.Peak, d.HighWater, d.Capacity, d.PendingPeak, d.Warnings, d.Allocated, d.Freed, d.Failures)
	c := r.Churn
	p("  churn      %d requests from workers, applied as %d font rebakes, %d quality swaps, %d level transitions (at most one of each a frame); %d textures created, %d freed",
		c.Requested, c.FontRebakes, c.QualitySwaps, c.Levels, c.TexturesMade, c.TexturesFreed)
	for _, a := range r.Upload {
		p("  upload     %-9s peak %8d of %8d bytes (%5.1f%%), %d allocs, %d failures, %d fence waits (%.3f ms)",
			a.Name, a.Peak, a.Capacity, a.PeakPct, a.Allocs, a.Failures, a.FenceWaits, a.FenceWait)
	}
	v := r.Voices
	p("  voices     %d active at end, peak %d of %d; %d played, %d refused, %d stolen, %d queue-full, %d underruns; mix max %.3f ms",
		v.Active, v.Peak, v.Capacity, v.Played, v.Refused, v.Stolen, v.QueueFull, v.Underruns, v.MixMax)
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
	for _, e := range r.Errors {
		p("  error      %s", e)
	}
	p("  verdict    %s", r.Verdict)
}

// writeFiles writes report.json and occupancy.svg into dir.
func (r *report) writeFiles(dir string, samples []sample, descCap int, arenaCap [arenaCount]int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("stress: report directory: %w", err)
	}
	js, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("stress: encoding report: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "report.json"), append(js, '\n'), 0o644); err != nil {
		return fmt.Errorf("stress: writing report: %w", err)
	}
	f, err := os.Create(filepath.Join(dir, "occupancy.svg"))
	if err != nil {
		return fmt.Errorf("stress: writing plot: %w", err)
	}
	if err := writePlot(f, samples, descCap, arenaCap); err != nil {
		f.Close()
		return fmt.Errorf("stress: writing plot: %w", err)
	}
	return f.Close()
}
