package syncs

import (
	"runtime"
	"sync/atomic"
	"time"
)

// StoreMaxUint64 raises a to v unless it already holds v or more, and
// reports whether it stored. It is the high-water-mark update of the
// module, with StoreMaxInt64 and StoreMaxInt32 for the other widths. A
// plain Load-compare-Store would let two racing writers store their values
// out of order. The mark would move backwards: a fence un-completing a
// frame, a peak that shrinks. It never allocates, inlines into its
// caller, and may be called from any goroutine.
//
// There is one function per type rather than one generic over the
// atomic types: a generic one calls Load and CompareAndSwap through its
// dictionary, cannot inline, and cost voices' Play about 4 ns for its two
// peak updates.
func StoreMaxUint64(a *atomic.Uint64, v uint64) bool {
	for {
		old := a.Load()
		if old >= v {
			return false
		}
		if a.CompareAndSwap(old, v) {
			return true
		}
	}
}

// StoreMaxInt64 is StoreMaxUint64 for an atomic.Int64.
func StoreMaxInt64(a *atomic.Int64, v int64) bool {
	for {
		old := a.Load()
		if old >= v {
			return false
		}
		if a.CompareAndSwap(old, v) {
			return true
		}
	}
}

// StoreMaxInt32 is StoreMaxUint64 for an atomic.Int32.
func StoreMaxInt32(a *atomic.Int32, v int32) bool {
	for {
		old := a.Load()
		if old >= v {
			return false
		}
		if a.CompareAndSwap(old, v) {
			return true
		}
	}
}

// Backoff paces a poll loop by its iteration count spin (0, 1, 2, ...).
// The first iterations re-check at once, since the other side is usually
// a few nanoseconds away. Then it calls runtime.Gosched, so a goroutine
// being waited for can run when it shares this P. Then it sleeps, growing
// by 10 µs up to 200 µs. So a long wait costs little CPU and still reacts
// within a fraction of a millisecond. It does not allocate once the
// calling goroutine's timer exists (its first time.Sleep makes it).
func Backoff(spin int) {
	switch {
	case spin < 16:
	case spin < 64:
		// time.Sleep(0) returns at once without yielding.
		runtime.Gosched()
	default:
		d := time.Duration(spin-63) * 10 * time.Microsecond
		if d > 200*time.Microsecond {
			d = 200 * time.Microsecond
		}
		time.Sleep(d)
	}
}
