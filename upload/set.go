package upload

import (
	"fmt"
	"time"

	"github.com/steadyframe/steadyframe/lifetime/frame"
)

// MaxAlign is the largest alignment Alloc accepts.
const MaxAlign = 1 << 16

// ArenaDesc describes one consumer's arena. It is a plain value; NewSet
// copies what it needs.
type ArenaDesc struct {
	Name string // shown in Stats and errors
	Size int    // bytes per frame; the Set reserves Size × frames in flight
}

// SetDesc configures NewSet. The zero value of each field picks its
// default, except Arenas, which must not be empty, and Clock, which is
// required. NewSet reads it once, on the render goroutine; the caller may
// reuse it afterwards.
type SetDesc struct {
	// Arenas lists the consumers, one arena each. Their layout (how many,
	// how large) is the renderer's to choose.
	Arenas []ArenaDesc
	// Clock is the renderer's frame clock. The Set follows it: each
	// Clock.BeginFrame opens every arena in the region of the new frame,
	// after the clock has waited for the frame that last used that region,
	// and each Clock.EndFrame closes them before the frame's fence. A nil
	// Clock is ErrInvalidConfig.
	Clock *frame.Clock
	// Backend supplies the memory; nil means a CPUBackend. Fences come
	// from the Clock (for GL: frame.ClockDesc{NewFence: glfence.New}).
	Backend Backend
	// Debug scribbles recycled regions and logs each region's frame serial
	// (see Arena.CheckView). The steadyframe_debug build tag turns it on
	// for every Set.
	Debug bool
}

// Set is the upload memory of one renderer: one buffer, mapped once for
// its whole life, holding one region per arena per frame in flight, laid
// out frame-major (frame 0's arenas, then frame 1's, ...). The frame
// clock it follows fences each frame once for every arena, so a frame
// start waits at most once.
//
// A Set belongs to the render goroutine; it and its Arenas are not safe
// for concurrent use.
type Set struct {
	backend Backend
	flusher Flusher // backend, when its mapping needs flushing; else nil
	clock   *frame.Clock
	follow  follower
	mem     []byte
	stride  int // bytes per frame: every arena's region, aligned
	arenas  []Arena
	dbg     *debugLog // nil unless in debug mode

	serial     uint64 // open frame, 0 between frames
	last       uint64 // newest frame the arenas were open in: the last that may read the buffer
	region     int
	frameCount uint64
	closed     bool

	// The clock's wait counters when the Set was made, so the clock's
	// earlier waits are not charged to the arenas.
	baseWaits    uint64
	baseWaitTime time.Duration
}

// follower is the Set's frame.Follower. It is a separate type so that its
// methods, which only the clock may call, are not part of the Set's API.
type follower struct{ s *Set }

func (f *follower) Retired(uint64)           {}
func (f *follower) FrameBegun(serial uint64) { f.s.begin(serial) }
func (f *follower) FrameEnded(uint64)        { f.s.end() }

// NewSet reserves the buffer for every arena and frame in flight of the
// clock, maps it, and never allocates or maps again. It registers the Set
// with the clock; a Set made inside a frame joins that frame at once.
func NewSet(d SetDesc) (*Set, error) {
	if len(d.Arenas) == 0 {
		return nil, fmt.Errorf("%w: no arenas", ErrInvalidConfig)
	}
	if d.Clock == nil {
		return nil, fmt.Errorf("%w: nil Clock (the Set follows the renderer's frame clock)", ErrInvalidConfig)
	}
	if d.Backend == nil {
		d.Backend = NewCPUBackend(CPUBackendDesc{})
	}
	align := d.Backend.Alignment()
	if !validAlign(align) {
		return nil, fmt.Errorf("%w: backend alignment %d (want a power of two up to %d)", ErrInvalidAlign, align, MaxAlign)
	}
	s := &Set{backend: d.Backend, clock: d.Clock}
	s.flusher, _ = d.Backend.(Flusher)
	s.follow.s = s
	s.arenas = make([]Arena, len(d.Arenas))
	for i, ad := range d.Arenas {
		if ad.Size < 1 || ad.Size > 1<<30 {
			return nil, fmt.Errorf("%w: arena %d %q size %d (want 1 byte to 1 GiB)", ErrInvalidSize, i, ad.Name, ad.Size)
		}
		a := &s.arenas[i]
		*a = Arena{set: s, name: ad.Name, base: s.stride, capacity: ad.Size}
		a.refusal.a = a
		s.stride += alignUp(ad.Size, align)
	}
	n := d.Clock.InFlight()
	mem, err := d.Backend.Map(s.stride * n)
	if err != nil {
		return nil, fmt.Errorf("upload: mapping %d bytes: %w", s.stride*n, err)
	}
	if len(mem) != s.stride*n {
		_ = d.Backend.Close()
		return nil, fmt.Errorf("%w: backend mapped %d bytes, want %d", ErrInvalidConfig, len(mem), s.stride*n)
	}
	if err := d.Clock.Follow(&s.follow); err != nil {
		_ = d.Backend.Close()
		return nil, fmt.Errorf("upload: %w", err)
	}
	s.mem = mem
	if h, ok := d.Backend.(Held); ok {
		h.Hold(s.Close)
	}
	if d.Debug || isDebug {
		s.dbg = newDebugLog(n)
	}
	for i := range s.arenas {
		a := &s.arenas[i]
		a.mem = mem
		if s.dbg != nil {
			a.written = make([]int, n)
		}
	}
	st := d.Clock.Stats()
	s.baseWaits, s.baseWaitTime = st.Waits, st.WaitTime
	if serial := d.Clock.Current(); serial != 0 {
		s.begin(serial)
	}
	return s, nil
}

func alignUp(n, align int) int { return (n + align - 1) &^ (align - 1) }

// validAlign reports whether align is a power of two in [1, MaxAlign], the
// rule for both Alloc's alignment and a backend's.
func validAlign(align int) bool { return align >= 1 && align&(align-1) == 0 && align <= MaxAlign }

// Arena returns the i-th arena, in SetDesc.Arenas order. It panics if i
// is out of range, like a slice index.
func (s *Set) Arena(i int) *Arena { return &s.arenas[i] }

// ArenaNamed returns the first arena with the given name, or nil.
func (s *Set) ArenaNamed(name string) *Arena {
	for i := range s.arenas {
		if s.arenas[i].name == name {
			return &s.arenas[i]
		}
	}
	return nil
}

// Len returns the number of arenas.
func (s *Set) Len() int { return len(s.arenas) }

// Backend returns the backend, for reaching backend-specific state such as
// the GL buffer name. Closing it closes the Set: a backend that
// implements Held (CPUBackend, glbuf.Backend) refuses with ErrInFlight,
// changing nothing, while Set.Close would.
func (s *Set) Backend() Backend { return s.backend }

// Serial returns the open frame's serial, or 0 between frames.
func (s *Set) Serial() uint64 { return s.serial }

// begin opens every arena in frame serial's region. The clock has just
// waited for the frame that last used the region; if it claims otherwise,
// its bookkeeping is broken and writing the region would be the hazard
// this package exists to stop.
func (s *Set) begin(serial uint64) {
	if n := uint64(s.clock.InFlight()); serial > n && s.clock.Completed() < serial-n {
		panic(fmt.Sprintf("upload: frame %d would reuse frame %d's region, but the clock has completed only frame %d",
			serial, serial-n, s.clock.Completed()))
	}
	s.serial, s.last = serial, serial
	s.region = s.clock.Slot(serial)
	if s.dbg != nil {
		s.dbg.begin(s.region, serial)
	}
	start := s.region * s.stride
	for i := range s.arenas {
		s.arenas[i].begin(start, s.region)
	}
}

// end closes the arenas before the clock fences the frame: a view written
// after this would not be covered by the fence.
func (s *Set) end() {
	if s.serial == 0 {
		return // made inside a frame it did not join, or closed
	}
	for i := range s.arenas {
		s.arenas[i].end(s.region)
	}
	s.serial = 0
	s.frameCount++
}

// SetStats describes a Set as a whole: a plain value, safe to hand to any
// goroutine once Stats has returned it.
type SetStats struct {
	Reserved   int           // bytes mapped: every arena × frames in flight
	InFlight   int           // frames in flight (regions per arena)
	Arenas     int           // number of arenas
	Frames     uint64        // frames ended
	Serial     uint64        // open frame, 0 between frames
	FenceWaits uint64        // frame starts that blocked on a fence since NewSet
	WaitTime   time.Duration // time blocked on fences since NewSet
}

// Stats returns the Set's counters. It does not allocate.
func (s *Set) Stats() SetStats {
	waits, wait := s.waits()
	return SetStats{
		Reserved: len(s.mem), InFlight: s.clock.InFlight(), Arenas: len(s.arenas),
		Frames: s.frameCount, Serial: s.serial, FenceWaits: waits, WaitTime: wait,
	}
}

func (s *Set) waits() (uint64, time.Duration) {
	st := s.clock.Stats()
	return st.Waits - s.baseWaits, st.WaitTime - s.baseWaitTime
}

// Close unmaps and releases the buffer and stops following the clock. It
// refuses with ErrInFlight, changing nothing, while a frame that may read
// the buffer is open or has not completed on the device (it polls the
// clock first): end the frame and Drain the clock before Close. Every view
// and every Alloc after Close is invalid. Close is idempotent.
func (s *Set) Close() error {
	if s.closed {
		return nil
	}
	if s.serial != 0 {
		return fmt.Errorf("%w: Close while frame %d is open", ErrInFlight, s.serial)
	}
	if done := s.clock.Poll(); done < s.last {
		return fmt.Errorf("%w: Close while frame %d may still read the buffer (completed through %d; Drain the clock first)",
			ErrInFlight, s.last, done)
	}
	if err := s.clock.Unfollow(&s.follow); err != nil {
		return fmt.Errorf("upload: %w", err)
	}
	for i := range s.arenas {
		a := &s.arenas[i]
		a.refusal.settle()
		a.mem, a.limit = nil, 0
	}
	s.closed = true
	s.mem = nil
	return s.backend.Close()
}
