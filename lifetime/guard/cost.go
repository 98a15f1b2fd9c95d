package guard

import (
	"math/bits"
	"time"
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
	P50    time.Duration // upper edge of the histogram bucket (within 12.5%)
	P99    time.Duration // upper edge of the histogram bucket (within 12.5%)
	Max    time.Duration
	// Reporting is the total time spent on flagged and tolerated spans
	// (in site mode forcing GCs and reading the profile and the
	// goroutines; formatting and logging) and on the site-mode baseline
	// when the guard arms. It was paid inside the frames where it
	// happened, or in CloseWindow, Resettle or Verdict.
	Reporting time.Duration
}

// costSub is the number of buckets per power of two: 8 keeps a quantile
// within 12.5% of the true value.
const (
	costSubBits = 3
	costSub     = 1 << costSubBits
	// costBuckets covers 0 to 2^40 ns (18 minutes), far past any frame.
	costBuckets = (40-costSubBits+1)*costSub + costSub
)

// costHist is a fixed log-linear histogram of nanoseconds. It lives inside
// the Guard so recording never allocates.
type costHist struct {
	counts [costBuckets]uint64
	n      uint64
	timed  uint64
	sum    time.Duration
	max    time.Duration
}

func costBucket(ns uint64) int {
	if ns < costSub {
		return int(ns)
	}
	e := bits.Len64(ns) - 1 // e >= costSubBits
	m := (ns >> (e - costSubBits)) & (costSub - 1)
	i := (e-costSubBits+1)*costSub + int(m)
	return min(i, costBuckets-1)
}

// costUpper is the largest value bucket i holds.
func costUpper(i int) time.Duration {
	if i < costSub {
		return time.Duration(i)
	}
	e := i/costSub + costSubBits - 1
	m := uint64(i % costSub)
	return time.Duration(((costSub+m+1)<<(e-costSubBits))-1) * time.Nanosecond
}

// record adds one frame; timed says whether d was measured or the frame
// only did bookkeeping (d is then 0).
func (h *costHist) record(d time.Duration, timed bool) {
	if d < 0 {
		d = 0
	}
	h.counts[costBucket(uint64(d))]++
	h.n++
	h.sum += d
	h.max = max(h.max, d)
	if timed {
		h.timed++
	}
}

func (h *costHist) quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := uint64(q*float64(h.n-1)) + 1
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			return min(costUpper(i), h.max)
		}
	}
	return h.max
}

func (h *costHist) report(reporting time.Duration) Cost {
	c := Cost{Frames: h.n, Timed: h.timed, Max: h.max, Reporting: reporting}
	if h.n > 0 {
		c.Mean = h.sum / time.Duration(h.n)
		c.P50 = h.quantile(0.50)
		c.P99 = h.quantile(0.99)
	}
	return c
}
