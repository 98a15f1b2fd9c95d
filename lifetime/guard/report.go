package guard

import (
	"fmt"
	"strings"
	"time"
)

// Span is a run of frames, by the guard's frame serials, First <= Last.
type Span struct{ First, Last uint64 }

// Violation is one checked span (a window, or a frame counted alone) that
// allocated or started goroutines. The values in a Report are copies the
// caller owns and may hand to any goroutine.
type Violation struct {
	// Frame and Last are the span's first and last frame, by the guard's
	// frame serial (1 for the first BeginFrame). Frame == Last when the
	// frame was counted alone (Window 1, or narrowed after a flagged
	// window), so the violation is that frame's. With Window > 1 the
	// count includes the time between the span's frames.
	Frame, Last uint64
	Allocs      uint64 // heap objects allocated process-wide during the span
	Starts      uint64 // goroutines started process-wide during the span
	// Unnamed is how many of Starts have no creator in Sites: without
	// Sites, all of them; in site mode, goroutines that had exited
	// before the guard looked.
	Unnamed uint64
	// Sites are the allocation sites and goroutine creators attributed to
	// the span, in site mode.
	Sites []Site
	// Exact reports that nothing allocated or started a goroutine outside
	// guarded spans since the last profile read and that the profile had
	// published every allocation up to the read, so Sites hold this
	// span's allocations and no others.
	Exact bool
}

// Report is a snapshot of what a Guard has seen. Its slices are
// copies owned by the caller, who may hand the report to any goroutine.
//
// Every armed frame is in exactly one checked span. Those counted alone
// (PerFrame: all of them with Window 1, else those in Narrowed) were each
// checked exactly on their own; the rest (InWindows) were checked exactly
// as part of their window, and a violation there names the window.
type Report struct {
	Frames     uint64 // frames seen
	Armed      uint64 // armed frames checked (in closed spans)
	Open       uint64 // armed frames in the window still open; Verdict and CloseWindow check them
	PerFrame   uint64 // of Armed, frames counted alone
	InWindows  uint64 // of Armed, frames counted in windows of more than one frame
	Tolerated  uint64 // checked spans whose allocations and starts were all tolerated
	Violations uint64 // checked spans that violated, including those not logged
	// Narrowed holds the first runs of frames counted alone because a
	// window before them was flagged (Window > 1), up to the log capacity;
	// NarrowedRuns counts them all.
	Narrowed     []Span
	NarrowedRuns uint64
	// Log holds the first violations, up to the log capacity.
	Log []Violation
	// Sites holds every unique site seen, in the order first seen.
	Sites []Site
	// Cost is the guard's own time per armed frame, and its reporting.
	Cost Cost
}

// Report returns a snapshot of the guard's counters, violations and sites.
// It allocates (the copies), so call it after the frames, not in one.
func (g *Guard) Report() Report {
	r := Report{
		Frames: g.frames, Armed: g.armed(), PerFrame: g.perFrame, InWindows: g.inWindows,
		Tolerated: g.tolerated, Violations: g.violations, NarrowedRuns: g.narrowedRuns,
		Narrowed: append([]Span(nil), g.narrowed...),
		Log:      make([]Violation, len(g.log)),
		Cost:     g.cost.report(g.reporting),
	}
	if g.win.open {
		r.Open = g.win.n
	}
	copy(r.Log, g.log)
	for i := range r.Log {
		// Deep: the caller owns the report, and writing to its sites must
		// not rewrite the guard's log.
		r.Log[i].Sites = append([]Site(nil), r.Log[i].Sites...)
	}
	if g.sites != nil {
		r.Sites = append([]Site(nil), g.sites.unique...)
	}
	return r
}

// span names the violation's frames: "frame 13" or "frames 6-37".
func (v Violation) span() string {
	if v.Frame == v.Last {
		return fmt.Sprintf("frame %d", v.Frame)
	}
	return fmt.Sprintf("frames %d-%d", v.Frame, v.Last)
}

func plural(n uint64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// describe is the one-line form of a violation used by Err: the span, the
// goroutines started and by whom, the allocations and their first site.
func (v Violation) describe(siteMode bool) string {
	var b strings.Builder
	b.WriteString(v.span())
	if v.Starts > 0 {
		fmt.Fprintf(&b, " started %d %s", v.Starts, plural(v.Starts, "goroutine", "goroutines"))
		if s, ok := firstUnallowed(v.Sites, func(s Site) bool { return s.Starts > 0 }); ok {
			b.WriteString(" at " + s.String())
		} else if !siteMode {
			b.WriteString(" (enable Sites to name who started them)")
		} else if v.Unnamed > 0 {
			fmt.Fprintf(&b, " (%d exited before the guard looked, so who started them is unknown)", v.Unnamed)
		}
		if v.Allocs > 0 {
			b.WriteString(" and")
		}
	}
	if v.Allocs > 0 {
		fmt.Fprintf(&b, " made %d heap %s", v.Allocs, plural(v.Allocs, "allocation", "allocations"))
		if s, ok := firstUnallowed(v.Sites, func(s Site) bool { return s.Allocs > 0 }); ok {
			b.WriteString(" at " + s.String())
		}
	}
	return b.String()
}

func firstUnallowed(sites []Site, of func(Site) bool) (Site, bool) {
	for _, s := range sites {
		if s.Allowed == "" && of(s) {
			return s, true
		}
	}
	return Site{}, false
}

func violationError(desc string) error { return fmt.Errorf("%w: %s", ErrAllocation, desc) }

// slowPace is the frame rate below which a run short of MinFrames is
// blamed on its pacing rather than its length: no interactive loop runs
// slower than this, so the pacing, not the duration, starved the guard.
const slowPace = 10.0

// tooFew builds Verdict's ErrTooFewFrames error. elapsed is the time since
// the first BeginFrame.
func (g *Guard) tooFew(elapsed time.Duration) error {
	if g.frames == 0 {
		return fmt.Errorf("%w: no frame ran; %d checked frames required (MinFrames): run too short",
			ErrTooFewFrames, g.minFrames)
	}
	armed := g.armed()
	unarmed := g.frames - armed
	if armed == 0 {
		return fmt.Errorf("%w: the guard never armed: all %d frames were settling (Settle %d) and %d checked frames are required (MinFrames): settle too long for the run, or run too short",
			ErrTooFewFrames, g.frames, g.settle, g.minFrames)
	}
	rate := float64(g.frames) / max(elapsed.Seconds(), 1e-9)
	need := time.Duration(float64(unarmed+g.minFrames) / rate * float64(time.Second))
	why := "run too short"
	if rate < slowPace {
		why = fmt.Sprintf("pacing too slow (under %.0f frames/s)", slowPace)
	}
	return fmt.Errorf("%w: %d armed frames checked, %d required (MinFrames); %d frames in %v (%.2f frames/s), %d of them unarmed (Settle %d); at this rate the run needs %v: %s",
		ErrTooFewFrames, armed, g.minFrames, g.frames, elapsed.Round(time.Millisecond), rate,
		unarmed, g.settle, need.Round(time.Millisecond), why)
}
