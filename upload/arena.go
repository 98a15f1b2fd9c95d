package upload

import "time"

// Arena is one consumer's per-frame upload memory: a bump allocator over
// the region the open frame owns inside its Set's buffer. Alloc is a few
// instructions and inlines into its caller; the frame's start reclaims
// the whole region at once.
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

	// The fields Alloc reads and writes. Alloc is kept under the
	// compiler's inlining budget (TestAllocInlines): every check is one
	// comparison, and a refusal records its request and returns the
	// arena's prebuilt error, whose message is built only when read.
	// They come last: BenchmarkArenaAlloc4KiB/impl=ours, which stores
	// into a new page each op, ran 22-25 ns with them at the start of
	// the struct and 14-16 ns with 80 bytes or more before them, on the
	// same instructions (measured on Emerald Rapids; the cause is not
	// established: not the inlining, the cache line split, nor huge pages).
	mem   []byte // the Set's whole buffer; nil once the Set is closed
	next  int    // absolute offset of the first free byte of the open region
	limit int    // absolute end of the open region; 0 between frames, so every Alloc refuses
	// allocs counts granted Allocs and refused the refused ones, of any
	// kind; size and align are the last refused request.
	allocs, refused uint64
	size, align     int
	err             error // &refusal, made once
}

// Alloc reserves size bytes aligned to align (a power of two up to
// MaxAlign) in the open frame's region. It returns the byte offset of the
// reservation in the Set's buffer, which is what a draw binds (for GL:
// glBindBufferRange(target, index, buffer, offset, size)), and a view of
// exactly size bytes to write into.
//
// The view is valid for exactly this frame: write it before the clock's
// EndFrame and never keep it. After EndFrame the device reads it;
// InFlight frames later BeginFrame hands the same bytes to another
// allocation. Cache a view and you will overwrite a later frame's data,
// or read it.
//
// A region without room returns an error matching ErrArenaFull: nothing
// is overwritten and nothing grows. A size below 1 or above Capacity
// returns ErrInvalidSize, a bad align ErrInvalidAlign, a call outside a
// frame ErrNoFrame, and one after Set.Close ErrClosed. Every refusal is
// counted in Stats.Failures. Alloc is O(1) and does not allocate,
// refusals included: the error is the arena's own, and describes its
// latest refusal until the next one, so read it before the arena refuses
// again. errors.Is on it may allocate once per process, at a random
// call. In a guarded frame, test LastRefusal().Err instead: a bare
// sentinel, which ==, a switch and errors.Is test without allocating.
func (a *Arena) Alloc(size, align int) (offset int, view []byte, err error) {
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
		return 0, nil, a.err
	}
	a.next = end
	a.allocs++
	return off, a.mem[off:end:end], nil
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
// grant memory: false between frames and after Set.Close. A caller with a
// fallback (gltex's direct upload) asks it first, so that a call it never
// meant to make is not counted in Stats.Failures.
func (a *Arena) InFrame() bool { return a.limit != 0 }

// LastRefusal describes the arena's latest refused Alloc (the zero
// Refusal if none). Its Err is the bare sentinel. It does not allocate.
func (a *Arena) LastRefusal() Refusal { return a.refusal.state() }

// Name returns the arena's name.
func (a *Arena) Name() string { return a.name }

// Capacity returns the bytes available per frame.
func (a *Arena) Capacity() int { return a.capacity }

// Remaining returns the bytes still free in the open frame's region,
// before alignment padding.
func (a *Arena) Remaining() int { return a.capacity - (a.next - a.start) }

// Stats is a snapshot of one arena's counters: a plain value, safe to hand
// to any goroutine once Arena.Stats (on the render goroutine) has returned it.
type Stats struct {
	Name     string
	Used     int    // bytes used in the open frame (between frames: the last one)
	Peak     int    // most bytes any ended frame used
	Capacity int    // bytes per frame
	Allocs   uint64 // Allocs granted since creation
	// Failures counts the Allocs refused since creation: a full arena
	// (ErrArenaFull) above all, and requests that were invalid or made
	// outside a frame.
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
