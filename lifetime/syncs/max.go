package syncs

import (
	"runtime"
	"time"
)

// Integer is an integer type held by one of sync/atomic's typed values.
type Integer interface {
	~int32 | ~int64 | ~uint32 | ~uint64
}

// Atomic is the part of sync/atomic's typed integers (*atomic.Int32,
// *atomic.Uint64, ...) that StoreMax needs.
type Atomic[V Integer] interface {
	Load() V
	CompareAndSwap(old, new V) bool
}

// StoreMax raises a to v unless it already holds v or more, and reports
// whether it stored. It is the one high-water-mark update of the module:
// a plain Load-compare-Store would let two racing writers store their
// values out of order and move the mark backwards (a fence un-completing a
// frame, a peak that shrinks). It never allocates and may be called from
// any goroutine.
func StoreMax[V Integer, A Atomic[V]](a A, v V) bool {
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

// Backoff paces a poll loop by its iteration count spin (0, 1, 2, ...):
// a tight re-check for the first iterations, where the other side is
// usually a few nanoseconds away, then runtime.Gosched so a goroutine
// being waited for can run when it shares this P, then sleeps growing by
// 10 µs up to 200 µs, so a long wait costs little CPU and still reacts
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
