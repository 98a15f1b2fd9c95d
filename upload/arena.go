package upload

import (
	"fmt"
	"time"
)

// Arena is one consumer's per-frame upload memory: a bump allocator over
// the region the open frame owns inside its Set's buffer. Allocation is a
// few instructions; BeginFrame reclaims the whole region at once.
//
// An Arena belongs to the render goroutine that owns its Set; it is not
// safe for concurrent use.
type Arena struct {
	set      *Set
	name     string
	base     int // offset of this arena's region within a frame
	capacity int // usable bytes per frame

	start int // absolute offset of the open frame's region
	used  int // bytes bumped in the open (or last) frame

	peak     int
	allocs   uint64
	failures uint64
	inFrame  int // failures in the open frame, for the error message

	full fullError
	dbg  *debugLog
}

// Alloc reserves size bytes aligned to align (a power of two up to
// MaxAlign) in the open frame's region. It returns the byte offset of the
// reservation in the Set's buffer, which is what a draw binds (for GL:
// glBindBufferRange(target, index, buffer, offset, size)), and a view of
// exactly size bytes to write into.
//
// The view is valid for exactly this frame: write it before EndFrame and
// never keep it. After EndFrame the device reads it; InFlight frames later
// BeginFrame hands the same bytes to another allocation. Cache a view and
// you will overwrite a later frame's data, or read it.
//
// A region without room returns an error matching ErrArenaFull: nothing is
// overwritten, nothing grows, and the failure is counted. A size below 1 or
// above Capacity returns ErrInvalidSize, a bad align ErrInvalidAlign,
// and a call outside a frame ErrNoFrame. Alloc is O(1) and does not
// allocate, on success or on ErrArenaFull.
func (a *Arena) Alloc(size, align int) (offset int, view []byte, err error) {
	if a.set.serial == 0 {
		return 0, nil, a.noFrame()
	}
	if size < 1 || size > a.capacity {
		return 0, nil, fmt.Errorf("%w: %d bytes from arena %q (want 1..%d)", ErrInvalidSize, size, a.name, a.capacity)
	}
	if !validAlign(align) {
		return 0, nil, fmt.Errorf("%w: %d for arena %q (want a power of two up to %d)", ErrInvalidAlign, align, a.name, MaxAlign)
	}
	// Align the absolute buffer offset, not the offset in the region, so
	// an alignment above the backend's still holds where the device looks.
	off := alignUp(a.start+a.used, align)
	end := off + size
	if end > a.start+a.capacity {
		a.failures++
		a.inFrame++
		a.full = fullError{arena: a.name, size: size, align: align, used: a.used, capacity: a.capacity,
			serial: a.set.serial, failuresInFrame: a.inFrame}
		return 0, nil, &a.full
	}
	a.used = end - a.start
	a.allocs++
	if a.dbg != nil {
		a.dbg.record(off, end)
	}
	return off, a.set.mem[off:end:end], nil
}

func (a *Arena) noFrame() error {
	if a.set.closed {
		return fmt.Errorf("%w: Alloc on arena %q", ErrClosed, a.name)
	}
	return fmt.Errorf("%w: Alloc on arena %q (call Set.BeginFrame first)", ErrNoFrame, a.name)
}

// begin starts the arena in the region for serial. In debug mode it first
// scribbles what the region's previous frame wrote, so a view kept from
// that frame reads Scribble bytes instead of plausible data.
func (a *Arena) begin(setStart, region int, serial uint64) {
	a.start = setStart + a.base
	if a.dbg != nil {
		scribble(a.set.mem[a.start : a.start+a.dbg.used[region]])
		a.dbg.begin(region, serial)
	}
	a.used, a.inFrame = 0, 0
}

func (a *Arena) end(region int) {
	if a.dbg != nil {
		a.dbg.used[region] = a.used
	}
	if a.used > a.peak {
		a.peak = a.used
	}
}

// Name returns the arena's name.
func (a *Arena) Name() string { return a.name }

// Capacity returns the bytes available per frame.
func (a *Arena) Capacity() int { return a.capacity }

// Remaining returns the bytes still free in the open frame's region,
// before alignment padding.
func (a *Arena) Remaining() int { return a.capacity - a.used }

// Stats is a snapshot of one arena's counters: a plain value, safe to hand
// to any goroutine once Arena.Stats (on the render goroutine) has returned it.
type Stats struct {
	Name     string
	Used     int    // bytes used in the open frame (between frames: the last one)
	Peak     int    // most bytes any ended frame used
	Capacity int    // bytes per frame
	Allocs   uint64 // successful Allocs since creation
	Failures uint64 // Allocs refused with ErrArenaFull since creation
	// FenceWaits and WaitTime count the BeginFrames that blocked on a
	// fence. One fence covers every arena of a Set, so they are the Set's.
	FenceWaits uint64
	WaitTime   time.Duration
}

// Stats returns the arena's counters. It does not allocate.
func (a *Arena) Stats() Stats {
	waits, wait := a.set.waits()
	return Stats{
		Name: a.name, Used: a.used, Peak: a.peak, Capacity: a.capacity,
		Allocs: a.allocs, Failures: a.failures, FenceWaits: waits, WaitTime: wait,
	}
}
