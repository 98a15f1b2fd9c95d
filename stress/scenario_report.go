package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// scenarioSection is one -scenario phase in the report: when it ran, its
// frame times, what the owners counted during it, and its verdict.
type scenarioSection struct {
	Phase        int      `json:"phase"`
	Name         string   `json:"name"`
	FirstFrame   uint64   `json:"first_frame"`
	LastFrame    uint64   `json:"last_frame"`
	Start        float64  `json:"start_seconds"`
	End          float64  `json:"end_seconds"`
	Frames       int      `json:"frames"`
	FrameP50     ms       `json:"frame_p50_ms"`
	FrameP99     ms       `json:"frame_p99_ms"`
	FrameMax     ms       `json:"frame_max_ms"`
	Warnings     uint64   `json:"occupancy_warnings"`
	HeapRefused  uint64   `json:"heap_refusals"`
	ArenaRefused uint64   `json:"arena_refusals"`
	VoiceRefused uint64   `json:"voice_refusals"`
	Steals       uint64   `json:"voice_steals"`
	FenceWaits   uint64   `json:"fence_waits"`
	Passed       bool     `json:"passed"`
	Verdict      string   `json:"verdict"`
	Problems     []string `json:"problems,omitempty"`
}

// judge checks every phase after the run, writes the report's scenario
// sections and returns one error per phase that failed or never
// completed.
func (d *director) judge(rep *report) []error {
	if d == nil {
		return nil
	}
	var errs []error
	for i, p := range d.phases {
		s := scenarioSection{Phase: i + 1, Name: p.sc.name()}
		var problems []string
		var summary string
		switch {
		case !p.begun:
			problems = []string{"never ran: the run ended first (give it more -duration or -frames, or none)"}
		case !p.done && p.last == 0:
			problems = []string{"did not complete: the run ended first"}
			// Its closing counters were never taken: count nothing rather
			// than subtract from zero (a wrapped refusal count).
			p.last, p.at1, p.c1 = rep.Frames, 0, p.c0
		case !p.done:
			problems = []string{fmt.Sprintf("did not complete within %d frames", phaseFrameLimit)}
		}
		if p.begun {
			if p.last == 0 {
				p.c1 = p.c0
			}
			var more []string
			more, summary = p.sc.verdict(p)
			if p.done {
				problems = append(problems, more...)
			}
			dl := p.delta()
			s.FirstFrame, s.LastFrame, s.Start, s.End, s.Frames = p.first, p.last, p.at0.Seconds(), p.at1.Seconds(), p.frames
			s.FrameP50, s.FrameP99, s.FrameMax = toMS(p.hist.Quantile(0.5)), toMS(p.hist.Quantile(0.99)), toMS(p.hist.Max())
			s.Warnings, s.HeapRefused, s.ArenaRefused = dl.warnings, dl.heapRefused, dl.arenaFailures
			s.VoiceRefused, s.Steals, s.FenceWaits = dl.voiceRefusals, dl.steals, dl.fenceWaits
		}
		if !p.done && rep.Interrupted != "" {
			// Cut short by a signal: not a failure of the budget; the run
			// is marked interrupted.
			s.Verdict = "INTERRUPTED by " + rep.Interrupted + ": " + strings.Join(problems, "; ")
			rep.Scenarios = append(rep.Scenarios, s)
			continue
		}
		s.Problems = problems
		s.Passed = len(problems) == 0
		if s.Passed {
			s.Verdict = "PASS: " + summary
		} else {
			s.Verdict = "FAIL: " + strings.Join(problems, "; ")
			if summary != "" {
				s.Verdict += " (" + summary + ")"
			}
			errs = append(errs, fmt.Errorf("stress: scenario %s (phase %d): %s", s.Name, s.Phase, strings.Join(problems, "; ")))
		}
		rep.Scenarios = append(rep.Scenarios, s)
	}
	if len(errs) > 1 {
		return []error{errors.Join(errs...)}
	}
	return errs
}

// writeScenarios prints one verdict line per phase.
func (r *report) writeScenarios(w io.Writer) {
	for _, s := range r.Scenarios {
		fmt.Fprintf(w, "  scenario   %d %-12s frames %d-%d (%.1f-%.1f s), p50 %.2f ms, p99 %.2f ms; %d warnings, %d heap + %d arena + %d voice refusals, %d steals\n",
			s.Phase, s.Name, s.FirstFrame, s.LastFrame, s.Start, s.End, s.FrameP50, s.FrameP99,
			s.Warnings, s.HeapRefused, s.ArenaRefused, s.VoiceRefused, s.Steals)
		fmt.Fprintf(w, "             verdict %s %s\n", s.Name, s.Verdict)
	}
}
