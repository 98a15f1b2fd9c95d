package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/steadyframe/steadyframe/lifetime/frame"
)

// A scenario drives one budget to and past its limit while the frames run
// on, then checks how the budget degraded: the tool's own expectation,
// printed as a verdict line in the report. -scenario names one, or all of
// them in turn with a steady phase between; every plan starts with a
// steady phase, the baseline the others' frame pace is compared with.
//
// The allocation guard watches every phase exactly as it watches steady
// frames: a scenario runs inside guarded frames, so a refusal path that
// allocates (a full heap, a full arena, a stolen voice, a warning logged)
// fails the run like any other steady-state allocation. Each scenario
// keeps plain numbers while it runs and formats its verdict only after the
// last frame.
type scenario interface {
	// name is the scenario's -scenario name.
	name() string
	// start begins the phase in the open frame.
	start(r *renderer)
	// frame runs the phase's part of frame i (0 is the phase's first
	// frame, the one start ran in) and reports whether the phase is
	// complete. It runs after the queue drain, before drawing.
	frame(r *renderer, i int) bool
	// verdict checks the phase's expectations after the run; it returns
	// the problems found (none: it passed) and the line saying what
	// happened.
	verdict(p *phase) (problems []string, summary string)
}

// scenarioNames lists -scenario's values in the order "all" runs them.
var scenarioNames = []string{"steady", "leak", "voice-storm", "upload-flood", "churn-storm"}

// scenarioBreak names a scenario whose expectation the verdict checks
// deliberately wrong, so a test can prove the verdict can fail. Only the
// stress tests set it (STEADYFRAME_STRESS_BREAK in the child process); the
// command has no flag for it.
var scenarioBreak string

// broken reports whether scenario name's expectation is to be broken.
func broken(name string) bool { return scenarioBreak == name }

// steadyFrames is the length of a steady phase.
const steadyFrames = 240

// phaseFrameLimit bounds any phase: one that has not completed by then
// fails its verdict instead of holding the run forever.
const phaseFrameLimit = 4000

// phase is one scenario's run: when it ran, its frame times, and the
// owners' counters at its start and end. A phase belongs to the render
// goroutine.
type phase struct {
	sc          scenario
	begun, done bool
	first, last uint64        // frames
	at0, at1    time.Duration // since the run started
	hist        frame.Histogram
	c0, c1      counters
	frames      int
	baselineP50 time.Duration // the previous steady phase's p50 frame time
}

// counters are the owners' refusal and warning counts, read at a phase's
// edges without allocating.
type counters struct {
	warnings      uint64 // heap occupancy warnings
	heapRefused   uint64
	arenaFailures uint64
	voiceRefusals uint64
	steals        uint64
	fenceWaits    uint64
	fenceWait     time.Duration
}

func (r *renderer) counters() counters {
	hs := r.heap.Stats()
	c := counters{warnings: hs.Warnings, heapRefused: hs.Refused}
	for _, a := range r.arenas {
		c.arenaFailures += a.Stats().Failures
	}
	if r.snd != nil {
		vs := r.snd.Engine.Stats()
		c.voiceRefusals, c.steals = vs.Refusals, vs.Steals
	}
	cs := r.scene.Clock.Stats()
	c.fenceWaits, c.fenceWait = cs.Waits, cs.WaitTime
	return c
}

// director runs the -scenario plan, one phase after another, from the
// first guarded frame on. It belongs to the render goroutine.
type director struct {
	phases []*phase
	cur    int
	log    *slog.Logger
	// msgs are the phase log lines' messages, formatted once.
	startMsg, endMsg string
}

// parseScenario returns the plan for -scenario s ("" for none).
func parseScenario(s string) ([]scenario, error) {
	if s == "" {
		return nil, nil
	}
	plan := []scenario{newScenario("steady")}
	if s == "all" {
		for _, n := range scenarioNames[1:] {
			plan = append(plan, newScenario(n), newScenario("steady"))
		}
		return plan, nil
	}
	for _, n := range scenarioNames {
		if n == s {
			if n != "steady" {
				plan = append(plan, newScenario(n))
			}
			return plan, nil
		}
	}
	return nil, fmt.Errorf("want one of %s or all", strings.Join(scenarioNames, ", "))
}

func newScenario(n string) scenario {
	switch n {
	case "leak":
		return &leak{}
	case "voice-storm":
		return &voiceStorm{}
	case "upload-flood":
		return &uploadFlood{}
	case "churn-storm":
		return &churnStorm{}
	}
	return &steady{}
}

func newDirector(plan []scenario, log *slog.Logger) *director {
	d := &director{log: log, startMsg: "stress: scenario phase begins", endMsg: "stress: scenario phase ends"}
	for _, sc := range plan {
		d.phases = append(d.phases, &phase{sc: sc})
	}
	return d
}

// active reports whether a phase other than a steady one is running:
// the worker's texture churn then waits, so that what the scenario
// measures is its own doing.
func (d *director) active() bool {
	if d == nil || d.cur >= len(d.phases) || !d.phases[d.cur].begun {
		return false
	}
	_, ok := d.phases[d.cur].sc.(*steady)
	return !ok
}

// finished reports whether every phase has run.
func (d *director) finished() bool { return d == nil || d.cur >= len(d.phases) }

// current returns the running phase, or nil.
func (d *director) current() *phase {
	if d.finished() || !d.phases[d.cur].begun {
		return nil
	}
	return d.phases[d.cur]
}

// frame runs the current phase's part of the open frame (from the first
// guarded frame on) and moves to the next phase when it completes.
func (d *director) frame(r *renderer, elapsed time.Duration) {
	if d.finished() || r.frame < r.armedFrom {
		return
	}
	p := d.phases[d.cur]
	if !p.begun {
		p.begun, p.first, p.at0, p.c0 = true, r.frame, elapsed, r.counters()
		if d.cur > 0 {
			if prev := d.phases[d.cur-1]; prev.sc.name() == "steady" {
				p.baselineP50 = prev.hist.Quantile(0.5)
			} else if d.cur > 1 {
				p.baselineP50 = d.phases[d.cur-2].hist.Quantile(0.5)
			}
		}
		d.log.LogAttrs(context.Background(), slog.LevelInfo, d.startMsg,
			slog.String("scenario", p.sc.name()), slog.Uint64("frame", r.frame), slog.Int("phase", d.cur+1))
		p.sc.start(r)
	}
	done := p.sc.frame(r, p.frames)
	p.frames++
	if done || p.frames >= phaseFrameLimit {
		p.done = done
		p.last, p.at1, p.c1 = r.frame, elapsed, r.counters()
		d.log.LogAttrs(context.Background(), slog.LevelInfo, d.endMsg,
			slog.String("scenario", p.sc.name()), slog.Uint64("frame", r.frame), slog.Int("frames", p.frames),
			slog.Uint64("warnings", p.c1.warnings-p.c0.warnings),
			slog.Uint64("refusals", p.c1.heapRefused-p.c0.heapRefused+p.c1.arenaFailures-p.c0.arenaFailures+p.c1.voiceRefusals-p.c0.voiceRefusals))
		d.cur++
	}
}

// record adds a frame time to the running phase.
func (d *director) record(dt time.Duration) {
	if d == nil || d.cur >= len(d.phases) {
		return
	}
	if p := d.phases[d.cur]; p.begun {
		p.hist.Record(dt)
	}
}

// paced reports whether the phase's median frame time kept to its
// baseline: at most twice as long, plus 5 ms. The bound is there to catch
// a refusal path that stalls the frame (one that waits, retries or
// formats at length), not to time the machine: a median is robust to the
// odd slow frame, and the slack absorbs a shared machine and -race.
func (p *phase) paced() (bool, string) {
	p50 := p.hist.Quantile(0.5)
	if p.baselineP50 == 0 {
		return true, fmt.Sprintf("frame p50 %.2f ms", float64(p50.Microseconds())/1000)
	}
	limit := 2*p.baselineP50 + 5*time.Millisecond
	return p50 <= limit, fmt.Sprintf("frame p50 %.2f ms against the steady phase's %.2f ms (limit %.2f)",
		msf(p50), msf(p.baselineP50), msf(limit))
}

func msf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// steady is a phase of ordinary frames: no occupancy warning, and no
// refusal anywhere.
type steady struct{}

func (*steady) name() string                  { return "steady" }
func (*steady) start(*renderer)               {}
func (*steady) frame(_ *renderer, i int) bool { return i+1 >= steadyFrames }

func (*steady) verdict(p *phase) ([]string, string) {
	var bad []string
	d := p.delta()
	want := uint64(0)
	if broken("steady") {
		want = 1
	}
	if d.warnings != want {
		bad = append(bad, fmt.Sprintf("%d occupancy warnings, want %d", d.warnings, want))
	}
	if d.heapRefused+d.arenaFailures != 0 {
		bad = append(bad, fmt.Sprintf("%d heap refusals and %d arena refusals, want none", d.heapRefused, d.arenaFailures))
	}
	return bad, fmt.Sprintf("%d frames, 0 warnings, %d heap and %d arena refusals, %d voices refused or stolen",
		p.frames, d.heapRefused, d.arenaFailures, d.voiceRefusals+d.steals)
}

// delta is what the owners counted during the phase.
func (p *phase) delta() counters {
	return counters{
		warnings: p.c1.warnings - p.c0.warnings, heapRefused: p.c1.heapRefused - p.c0.heapRefused,
		arenaFailures: p.c1.arenaFailures - p.c0.arenaFailures, voiceRefusals: p.c1.voiceRefusals - p.c0.voiceRefusals,
		steals: p.c1.steals - p.c0.steals, fenceWaits: p.c1.fenceWaits - p.c0.fenceWaits, fenceWait: p.c1.fenceWait - p.c0.fenceWait,
	}
}

// prepare allocates what the plan's phases need before any frame is
// guarded.
func (d *director) prepare(r *renderer) {
	var caps [arenaCount]int
	for i, a := range r.arenas {
		caps[i] = a.Capacity()
	}
	for _, p := range d.phases {
		switch sc := p.sc.(type) {
		case *leak:
			sc.prepare(r.heap.Capacity())
		case *uploadFlood:
			sc.prepare(caps)
		case *churnStorm:
			sc.prepare(r.heap.Capacity())
		}
	}
}

// beforeBegin runs before the clock's BeginFrame: the upload flood checks
// the region the frame is about to reuse.
func (d *director) beforeBegin(r *renderer) {
	if p := d.current(); p != nil {
		if f, ok := p.sc.(*uploadFlood); ok {
			f.beforeBegin(r)
		}
	}
}

// phaseNumber returns the running phase, 1-based, or 0.
func (d *director) phaseNumber() int {
	if d.current() == nil {
		return 0
	}
	return d.cur + 1
}
