package upload

import "time"

// Arena is one consumer's per-frame upload memory: a bump allocator over
// the region the open frame owns inside its Set's buffer. TryAlloc is a
// few instructions and inlines into its caller. The frame's start
// reclaims the whole region at once.
//
// An Arena belongs to the render goroutine that owns its Set; it is not
// safe for concurrent use.
type Arena struct {
	set      *Set
	name     string
	base     int // offset of this arena's region within a frame
	capacity int // usable bytes per frame
	start    int // absolute offset of the open (or last) frame's region

	peak        int
	refusedOpen uint64 // refused when the open frame began
	refusal     refusal
	written     []int // debug mode only: bytes each region's last ended frame wrote, what begin scribbles
	flushed     int   // absolute offset Flush has reached in the open frame

	// The fields TryAlloc reads and writes. TryAlloc is kept under the
	// compiler's inlining budget (TestAllocInlines): every check is one
	// comparison, and a refusal only records its request and counts it.
	// What it was is worked out when it is read (refusal).
	// They come last: BenchmarkArenaAlloc4KiB/impl=ours, which stores
	// into a new page each op, ran 22-25 ns with them at the start of
	// the struct and 14-16 ns with 80 bytes or more before them, on the
	// same instructions (measured on Emerald Rapids; the cause is not
	// established: not the inlining, the cache line split, nor huge pages).
	mem   []byte // the Set's whole buffer; nil once the Set is closed
	next  int    // absolute offset of the first free byte of the open region
	limit int    // absolute end of the open region; 0 between frames, so every TryAlloc refuses
	// allocs counts granted requests and refused the refused ones, of
	// any kind; size and align are the last refused request.
	allocs, refused uint64
	size, align     int
}

// Alloc reserves size bytes aligned to align (a power of two up to
// MaxAlign) in the open frame's region. It returns the byte offset of the
// reservation in the Set's buffer and a view of exactly size bytes to
// write into. The offset is what a draw binds; for GL:
// glBindBufferRange(target, index, buffer, offset, size).
//
// The view is valid for exactly this frame. Write it before the clock's
// EndFrame and never keep it. After EndFrame the device reads it, and
// InFlight frames later BeginFrame hands the same bytes to another
// allocation. A cached view overwrites a later frame's data, or reads it.
//
// A refusal changes nothing and returns a bare sentinel:
//
//   - ErrArenaFull: the region has no room. Nothing is overwritten and
//     nothing grows.
//   - ErrInvalidSize: a size below 1 or above Capacity.
//   - ErrInvalidAlign: an align that is not a power of two up to MaxAlign.
//   - ErrNoFrame: a call outside a frame.
//   - ErrClosed: a call after Set.Close.
//
// So ==, a switch and errors.Is test it without allocating, and it never
// changes. LastRefusal has the detail. Every refusal is counted in
// Stats.Failures. Alloc is O(1) and does not allocate, refusals included.
// It is not inlined; TryAlloc is the inlined form for the hottest loops.
func (a *Arena) Alloc(size, align int) (offset int, view []byte, err error) {
	if off, v, ok := a.TryAlloc(size, align); ok {
		return off, v, nil
	}
	return 0, nil, a.refusal.settle()
}

// TryAlloc is Alloc for the hottest loops: the same reservation, the same
// checks and counters, inlined into its caller. It reports a refusal as
// ok false instead of an error. LastRefusal().Err is then the sentinel
// Alloc would have returned. Its view is valid as Alloc's is: for exactly
// this frame.
func (a *Arena) TryAlloc(size, align int) (offset int, view []byte, ok bool) {
	m := align - 1
	off := (a.next + m) &^ m
	end := off + size
	// align&m is zero only for a power of two, m>>16 only up to MaxAlign
	// (and a negative m, from align < 1, shifts to -1). Comparing end
	// unsigned refuses an end that overflowed, and every end between
	// frames, when limit is 0.
	if size < 1 || (align&m|m>>16) != 0 || uint(end) > uint(a.limit) {
		a.size, a.align = size, align
		a.refused++
		return 0, nil, false
	}
	a.next = end
	a.allocs++
	return off, a.mem[off:end:end], true
}

// begin starts the arena in the region at setStart. In
// debug mode it first scribbles what the region's previous frame wrote,
// so a view kept from that frame reads Scribble bytes instead of
// plausible data.
func (a *Arena) begin(setStart, region int) {
	a.refusal.settle()
	a.start = setStart + a.base
	if a.written != nil {
		scribble(a.mem[a.start : a.start+a.written[region]])
	}
	a.next, a.limit = a.start, a.start+a.capacity
	a.flushed = a.start
	a.refusedOpen = a.refused
}

func (a *Arena) end(region int) {
	a.refusal.settle()
	a.limit = 0
	used := a.next - a.start
	if a.written != nil {
		a.written[region] = used
	}
	if used > a.peak {
		a.peak = used
	}
}

// InFrame reports whether the arena's frame is open, so that Alloc may
// grant memory. It is false between frames and after Set.Close. A caller
// with a fallback (gltex's direct upload) asks it first. Then a call it
// never meant to make is not counted in Stats.Failures.
func (a *Arena) InFrame() bool { return a.limit != 0 }

// LastRefusal describes the arena's latest refused Alloc or TryAlloc, or
// is the zero Refusal if none. Its Err is the bare sentinel. It does not
// allocate. After a TryAlloc refusal, read it before the next grant of
// the frame: its Used counts the bytes granted when it is read.
func (a *Arena) LastRefusal() Refusal { return a.refusal.state() }

// Name returns the arena's name.
func (a *Arena) Name() string { return a.name }

// Capacity returns the bytes available per frame.
func (a *Arena) Capacity() int { return a.capacity }

// Remaining returns the bytes still free in the open frame's region,
// before alignment padding.
func (a *Arena) Remaining() int { return a.capacity - (a.next - a.start) }

// Stats is a snapshot of one arena's counters. It is a plain value, safe
// to hand to any goroutine once Arena.Stats has returned it.
type Stats struct {
	Name     string
	Used     int    // bytes used in the open frame (between frames: the last one)
	Peak     int    // most bytes any ended frame used
	Capacity int    // bytes per frame
	Allocs   uint64 // Allocs and TryAllocs granted since creation
	// Failures counts the Allocs and TryAllocs refused since creation. A
	// full arena (ErrArenaFull) is the usual cause. Requests that were
	// invalid or made outside a frame count too.
	Failures uint64
	// FenceWaits and WaitTime count the BeginFrames that blocked on a
	// fence since the Set was made. One fence per frame covers every
	// arena, so they are the Set's.
	FenceWaits uint64
	WaitTime   time.Duration
}

// Stats returns the arena's counters. It does not allocate.
func (a *Arena) Stats() Stats {
	waits, wait := a.set.waits()
	return Stats{
		Name: a.name, Used: a.next - a.start, Peak: a.peak, Capacity: a.capacity,
		Allocs: a.allocs, Failures: a.refused, FenceWaits: waits, WaitTime: wait,
	}
}
