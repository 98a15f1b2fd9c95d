package guard

import (
	"time"

	"github.com/steadyframe/steadyframe/lifetime/frame"
)

// Cost is the guard's own time per armed frame spent counting: the time
// inside BeginFrame and EndFrame, as a distribution, so a frame loop can
// say what the guard adds to its frame times. It is a plain value.
//
// Frames that read a count (the frame that closes a window, the frame
// that opens one after a break, with Window 1 every frame) are timed with
// the monotonic clock. The frames between only increment a counter; timing them would cost more than they do (a
// clock read is 20-100 ns on a virtual machine, their bookkeeping a few),
// so they enter the distribution as 0. BenchmarkGuardFrame measures the
// whole mean, bookkeeping included.
//
// Reporting is kept out of the distribution and totalled in Reporting:
// it is paid once per flagged or tolerated span, not per frame.
type Cost struct {
	Frames uint64 // armed frames in the distribution
	Timed  uint64 // of those, frames that read a count and were timed
	Mean   time.Duration
	P50    time.Duration // frame.Histogram.Quantile: never below the true value, within about 3%
	P99    time.Duration // likewise
	Max    time.Duration
	// Reporting is the total time spent on flagged and tolerated spans
	// (in site mode forcing GCs and reading the profile and the
	// goroutines; formatting and logging) and on the site-mode baseline
	// when the guard arms. It was paid inside the frames where it
	// happened, or in CloseWindow, Resettle or Verdict.
	Reporting time.Duration
}

// costHist is the cost distribution: a frame.Histogram, which never
// allocates, and how many of its frames were timed.
type costHist struct {
	frame.Histogram
	timed uint64
}

// record adds one frame; timed says whether d was measured or the frame
// only did bookkeeping (d is then 0).
func (h *costHist) record(d time.Duration, timed bool) {
	h.Record(d)
	if timed {
		h.timed++
	}
}

func (h *costHist) report(reporting time.Duration) Cost {
	return Cost{Frames: h.Count(), Timed: h.timed, Mean: h.Mean(), P50: h.Quantile(0.50), P99: h.Quantile(0.99),
		Max: h.Max(), Reporting: reporting}
}
