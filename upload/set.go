package upload

import (
	"fmt"
	"time"

	"github.com/steadyframe/steadyframe/lifetime/frame"
)

// MaxAlign is the largest alignment Alloc accepts.
const MaxAlign = 1 << 16

// Indices of the arenas in StandardArenas.
const (
	StandardRenderer  = 0
	StandardSprites   = 1
	StandardParticles = 2
)

// StandardReserved is the upload memory the standard configuration
// reserves at start-up and never exceeds: (4 + 4 + 1) MiB per frame times
// three frames in flight.
const StandardReserved = 27 << 20

// StandardArenas returns the standard consumers: the renderer and the
// sprite batch take 4 MiB per frame each, particles 1 MiB. With the default
// three frames in flight a Set of them reserves StandardReserved bytes.
func StandardArenas() []ArenaDesc {
	return []ArenaDesc{
		StandardRenderer:  {Name: "renderer", Size: 4 << 20},
		StandardSprites:   {Name: "sprites", Size: 4 << 20},
		StandardParticles: {Name: "particles", Size: 1 << 20},
	}
}

// ArenaDesc describes one consumer's arena. It is a plain value; NewSet
// copies what it needs.
type ArenaDesc struct {
	Name string // shown in Stats and errors
	Size int    // bytes per frame; the Set reserves Size × frames in flight
}

// SetDesc configures NewSet. The zero value of each field picks its
// default, except Arenas, which must not be empty. NewSet reads it once,
// on the render goroutine; the caller may reuse it afterwards.
type SetDesc struct {
	Arenas []ArenaDesc
	// Backend supplies memory and fences; nil means a CPUBackend.
	Backend Backend
	// Frames is the renderer's frame clock, shared so that one fence per
	// frame covers the arenas and everything else the renderer fences.
	// With Frames set, call Frames.BeginFrame before Set.BeginFrame and
	// Frames.EndFrame after Set.EndFrame. Nil means the Set makes and
	// owns a clock with the backend's fences and
	// frame.DefaultInFlight frames.
	Frames *frame.Clock
	// InFlight is used only when the Set owns its clock; 0 means
	// frame.DefaultInFlight.
	InFlight int
	// Timeout bounds BeginFrame's fence wait when the Set owns its clock;
	// 0 means frame.DefaultFenceTimeout. A shared clock has its own.
	Timeout time.Duration
	// Debug scribbles recycled regions and logs each allocation's frame
	// serial (see Arena.CheckView). The steadyframe_debug build tag turns
	// it on for every Set.
	Debug bool
}

// Set is the upload memory of one renderer: one buffer, mapped once for
// its whole life, holding one region per arena per frame in flight, laid
// out frame-major (frame 0's arenas, then frame 1's, ...). One fence per
// frame covers every arena, so BeginFrame waits at most once.
//
// A Set belongs to the render goroutine; it and its Arenas are not safe
// for concurrent use.
type Set struct {
	backend    Backend
	frames     *frame.Clock
	ownsFrames bool
	mem        []byte
	stride     int // bytes per frame: every arena's region, aligned
	arenas     []Arena

	serial     uint64 // open frame, 0 between frames
	lastSerial uint64
	region     int
	frameCount uint64
	closed     bool

	// Frames' wait counters when the Set was made, so a shared clock's
	// earlier waits are not charged to the arenas.
	baseWaits    uint64
	baseWaitTime time.Duration
}

// NewSet reserves the buffer for every arena and frame in flight, maps it,
// and never allocates or maps again.
func NewSet(d SetDesc) (*Set, error) {
	if len(d.Arenas) == 0 {
		return nil, fmt.Errorf("%w: no arenas", ErrInvalidConfig)
	}
	if d.Backend == nil {
		d.Backend = NewCPUBackend(CPUBackendDesc{})
	}
	align := d.Backend.Alignment()
	if !validAlign(align) {
		return nil, fmt.Errorf("%w: backend alignment %d (want a power of two up to %d)", ErrInvalidAlign, align, MaxAlign)
	}
	s := &Set{backend: d.Backend}
	s.arenas = make([]Arena, len(d.Arenas))
	for i, ad := range d.Arenas {
		if ad.Size < 1 || ad.Size > 1<<30 {
			return nil, fmt.Errorf("%w: arena %d %q size %d (want 1 byte to 1 GiB)", ErrInvalidSize, i, ad.Name, ad.Size)
		}
		s.arenas[i] = Arena{set: s, name: ad.Name, base: s.stride, capacity: ad.Size}
		s.stride += alignUp(ad.Size, align)
	}
	if err := s.attachFrames(d); err != nil {
		return nil, err
	}
	n := s.frames.InFlight()
	mem, err := d.Backend.Map(s.stride * n)
	if err != nil {
		if s.ownsFrames {
			_ = s.frames.Close()
		}
		return nil, fmt.Errorf("upload: mapping %d bytes: %w", s.stride*n, err)
	}
	if len(mem) != s.stride*n {
		if s.ownsFrames {
			_ = s.frames.Close()
		}
		_ = d.Backend.Close()
		return nil, fmt.Errorf("%w: backend mapped %d bytes, want %d", ErrInvalidConfig, len(mem), s.stride*n)
	}
	s.mem = mem
	for i := range s.arenas {
		a := &s.arenas[i]
		if d.Debug || isDebug {
			a.dbg = newDebugLog(n)
		}
	}
	st := s.frames.Stats()
	s.baseWaits, s.baseWaitTime = st.Waits, st.WaitTime
	return s, nil
}

func (s *Set) attachFrames(d SetDesc) error {
	if d.Frames != nil {
		s.frames = d.Frames
		return nil
	}
	f, err := frame.NewClock(frame.ClockDesc{InFlight: d.InFlight, NewFence: d.Backend.NewFence, Timeout: d.Timeout})
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	s.frames, s.ownsFrames = f, true
	return nil
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

// Frames returns the frame clock the Set uses (its own or the shared one),
// for a renderer that keys other deferred work to the same serials.
func (s *Set) Frames() *frame.Clock { return s.frames }

// Backend returns the backend, for reaching backend-specific state such as
// the GL buffer name.
func (s *Set) Backend() Backend { return s.backend }

// Serial returns the open frame's serial, or 0 between frames.
func (s *Set) Serial() uint64 { return s.serial }

// BeginFrame opens the next frame. A Set that owns its clock first waits
// for the fence of the frame that last used the regions about to be reused;
// with a shared clock that wait has already happened in Frames.BeginFrame,
// and BeginFrame checks it did. Each arena then starts empty in its region
// for this frame. BeginFrame does not allocate.
func (s *Set) BeginFrame() (uint64, error) {
	if s.closed {
		return 0, fmt.Errorf("%w: BeginFrame", ErrClosed)
	}
	if s.serial != 0 {
		return 0, fmt.Errorf("%w: BeginFrame while frame %d is open", ErrFrameOrder, s.serial)
	}
	serial, err := s.openSerial()
	if err != nil {
		return 0, err
	}
	s.serial, s.lastSerial = serial, serial
	s.region = s.frames.Slot(serial)
	start := s.region * s.stride
	for i := range s.arenas {
		s.arenas[i].begin(start, s.region, serial)
	}
	return serial, nil
}

func (s *Set) openSerial() (uint64, error) {
	if s.ownsFrames {
		serial, err := s.frames.BeginFrame()
		if err != nil {
			return 0, fmt.Errorf("upload: %w", err)
		}
		return serial, nil
	}
	serial := s.frames.Current()
	if serial == 0 {
		return 0, fmt.Errorf("%w: the shared Frames has no open frame (call Frames.BeginFrame first)", ErrFrameOrder)
	}
	if serial <= s.lastSerial {
		return 0, fmt.Errorf("%w: frame %d already begun on this Set", ErrFrameOrder, serial)
	}
	// The region for serial was last written in serial-InFlight. Frames
	// waited for that fence; if it claims otherwise the region is still in
	// use and writing it would be the hazard this package exists to stop.
	if n := uint64(s.frames.InFlight()); serial > n && s.frames.Completed() < serial-n {
		return 0, fmt.Errorf("%w: frame %d would reuse frame %d's region, but only frame %d has completed",
			ErrFrameOrder, serial, serial-n, s.frames.Completed())
	}
	return serial, nil
}

// EndFrame closes the open frame. A Set that owns its clock fences the
// frame; with a shared clock, call Frames.EndFrame next. Views allocated in
// the frame must not be written after EndFrame. EndFrame does not allocate.
func (s *Set) EndFrame() error {
	if s.closed {
		return fmt.Errorf("%w: EndFrame", ErrClosed)
	}
	if s.serial == 0 {
		return fmt.Errorf("%w: EndFrame with no open frame", ErrFrameOrder)
	}
	for i := range s.arenas {
		s.arenas[i].end(s.region)
	}
	s.serial = 0
	s.frameCount++
	if s.ownsFrames {
		if err := s.frames.EndFrame(); err != nil {
			return fmt.Errorf("upload: %w", err)
		}
	}
	return nil
}

// SetStats describes a Set as a whole: a plain value, safe to hand to any
// goroutine once Stats has returned it.
type SetStats struct {
	Reserved   int           // bytes mapped: every arena × frames in flight
	InFlight   int           // frames in flight (regions per arena)
	Arenas     int           // number of arenas
	Frames     uint64        // frames ended
	Serial     uint64        // open frame, 0 between frames
	FenceWaits uint64        // BeginFrames that blocked on a fence
	WaitTime   time.Duration // time blocked on fences
}

// Stats returns the Set's counters. It does not allocate.
func (s *Set) Stats() SetStats {
	waits, wait := s.waits()
	return SetStats{
		Reserved: len(s.mem), InFlight: s.frames.InFlight(), Arenas: len(s.arenas),
		Frames: s.frameCount, Serial: s.serial, FenceWaits: waits, WaitTime: wait,
	}
}

func (s *Set) waits() (uint64, time.Duration) {
	st := s.frames.Stats()
	return st.Waits - s.baseWaits, st.WaitTime - s.baseWaitTime
}

// Close releases the buffer. A Set that owns its clock drains it first;
// with a shared clock the caller must Drain it before Close, because the
// device may still read the regions. Close with a frame open fails. Every
// view and every call after Close is invalid. Close is idempotent.
func (s *Set) Close() error {
	if s.closed {
		return nil
	}
	if s.serial != 0 {
		return fmt.Errorf("%w: Close while frame %d is open", ErrFrameOrder, s.serial)
	}
	if s.ownsFrames {
		if err := s.frames.Drain(); err != nil {
			return fmt.Errorf("upload: draining before Close: %w", err)
		}
		_ = s.frames.Close()
	}
	s.closed = true
	s.mem = nil
	return s.backend.Close()
}
