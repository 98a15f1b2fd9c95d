package frame

import (
	"math/bits"
	"time"
)

// histSub is the number of linear sub-buckets per power of two: a
// quantile is kept within 1/histSub (about 3%) of its true value, finer
// than frame-time jitter, and the whole histogram fits one fixed array.
const (
	histSubBits = 5
	histSub     = 1 << histSubBits
	// histBuckets covers every int64 nanosecond value: the largest,
	// 2^63-1, has 63 bits.
	histBuckets = (63 - histSubBits + 1) * histSub
)

// Histogram is a fixed-size log-linear histogram of durations. It is for
// the per-frame figures a renderer reports: frame time, or the time a
// manager or the allocation guard adds to a frame. Record never allocates,
// so it may run inside a guarded frame. Quantiles are within about 3% of
// the exact ones. The zero value is ready to use; it is about 15 KiB, so
// embed it in a long-lived struct rather than on a goroutine's stack.
//
// A Histogram belongs to the goroutine that records into it; it is not
// safe for concurrent use.
type Histogram struct {
	counts [histBuckets]uint64
	n      uint64
	min    time.Duration
	max    time.Duration
	sum    time.Duration
}

func histIndex(v uint64) int {
	if v < histSub {
		return int(v)
	}
	shift := bits.Len64(v) - histSubBits - 1
	return (shift+1)*histSub + int((v>>uint(shift))&(histSub-1))
}

// histLower returns the smallest value that lands in bucket i.
func histLower(i int) uint64 {
	if i < histSub {
		return uint64(i)
	}
	shift := i/histSub - 1
	return (uint64(histSub) | uint64(i%histSub)) << uint(shift)
}

// Record adds one duration. Negative durations count as zero.
func (h *Histogram) Record(d time.Duration) {
	if d < 0 {
		d = 0
	}
	h.counts[histIndex(uint64(d))]++
	if h.n == 0 || d < h.min {
		h.min = d
	}
	h.n++
	h.sum += d
	h.max = max(h.max, d)
}

// Count returns the number of recorded durations.
func (h *Histogram) Count() uint64 { return h.n }

// Max returns the largest recorded duration, exactly.
func (h *Histogram) Max() time.Duration { return h.max }

// Mean returns the mean recorded duration, exactly (0 when empty).
func (h *Histogram) Mean() time.Duration {
	if h.n == 0 {
		return 0
	}
	return h.sum / time.Duration(h.n)
}

// Quantile returns the q-quantile (q in 0..1) as the largest value of the
// bucket holding it, clamped to the exact minimum and maximum: never
// below the true quantile, and at most one bucket (about 3%) above it.
// Quantile(0) and Quantile(1) are the exact minimum and maximum; an empty
// histogram returns 0.
func (h *Histogram) Quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	if q <= 0 {
		return h.min
	}
	if q >= 1 {
		return h.max
	}
	rank := uint64(q*float64(h.n-1)) + 1
	var seen uint64
	for i, c := range h.counts {
		if seen += c; seen >= rank {
			upper := h.max
			if i+1 < histBuckets {
				upper = min(time.Duration(histLower(i+1)-1), h.max)
			}
			return max(upper, h.min)
		}
	}
	return h.max
}

// Reset clears the histogram for reuse without allocating.
func (h *Histogram) Reset() { *h = Histogram{} }
