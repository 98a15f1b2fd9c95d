package upload

import (
	"fmt"
	"unsafe"
)

// Scribble is the byte debug mode writes over a region when it is
// recycled, so a view kept past its frame reads an obvious pattern.
const Scribble = 0xDB

// debugLog remembers, per region, which frame owns it now and which
// owned it before. A Set keeps one for all its arenas, whose regions of a
// frame belong to the same frame; each arena keeps only what its regions'
// last frames wrote (Arena.written). It costs Alloc nothing: what the
// open frame allocated is the bumped span [start, next), which the arena
// keeps anyway.
type debugLog struct {
	serial   []uint64 // frame that owns each region now
	previous []uint64 // frame that owned it before
}

func newDebugLog(regions int) *debugLog {
	return &debugLog{serial: make([]uint64, regions), previous: make([]uint64, regions)}
}

func (d *debugLog) begin(region int, serial uint64) {
	d.previous[region], d.serial[region] = d.serial[region], serial
}

func scribble(b []byte) {
	for i := range b {
		b[i] = Scribble
	}
}

// ViewSerial returns the serial of the frame whose allocation view lies
// in, from the debug log. It returns ErrUnknownView when debug mode is off
// or when view is not memory of this arena. A view in the open frame's
// region counts as the open frame's when it lies within what the frame has
// allocated so far (alignment padding included), and as the previous
// owner's beyond it.
func (a *Arena) ViewSerial(view []byte) (uint64, error) {
	region, off, err := a.locate(view)
	if err != nil {
		return 0, err
	}
	d := a.set.dbg
	if a.set.serial == 0 || region != a.set.region {
		return d.serial[region], nil
	}
	if off+len(view) <= a.next {
		return d.serial[region], nil
	}
	// In the open region but past what this frame allocated: it was
	// allocated when the region last belonged to an earlier frame.
	return d.previous[region], nil
}

// CheckView reports whether view may be written now: it returns nil if
// view lies inside what the open frame allocated, and an error matching
// ErrStaleView, naming the frame the view came from, if it was allocated
// in an earlier frame. It needs debug mode (SetDesc.Debug or the
// steadyframe_debug tag) and returns ErrUnknownView without it.
//
// A view kept for exactly a multiple of InFlight frames that lies within
// what the open frame has allocated cannot be told apart from it by
// address; the scribble makes such a view read Scribble bytes until it is
// rewritten.
func (a *Arena) CheckView(view []byte) error {
	serial, err := a.ViewSerial(view)
	if err != nil {
		return err
	}
	if a.set.serial == 0 {
		return fmt.Errorf("%w: view from frame %d of arena %q used between frames", ErrStaleView, serial, a.name)
	}
	if serial != a.set.serial {
		return fmt.Errorf("%w: view from frame %d of arena %q used in frame %d", ErrStaleView, serial, a.name, a.set.serial)
	}
	return nil
}

// locate maps a view to its region and absolute offset in the Set's
// buffer by address; the comparison of addresses is the only unsafe use.
func (a *Arena) locate(view []byte) (region, off int, err error) {
	if a.set.dbg == nil {
		return 0, 0, fmt.Errorf("%w: arena %q is not in debug mode", ErrUnknownView, a.name)
	}
	mem := a.set.mem
	if len(view) == 0 || len(mem) == 0 {
		return 0, 0, fmt.Errorf("%w: empty view or closed set", ErrUnknownView)
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(mem)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(view)))
	if p < base || p+uintptr(len(view)) > base+uintptr(len(mem)) {
		return 0, 0, fmt.Errorf("%w: view is not in arena %q's buffer", ErrUnknownView, a.name)
	}
	off = int(p - base)
	region = off / a.set.stride
	if in := off - region*a.set.stride - a.base; in < 0 || in+len(view) > a.capacity {
		return 0, 0, fmt.Errorf("%w: view lies in another arena than %q", ErrUnknownView, a.name)
	}
	return region, off, nil
}

// DebugBuild reports whether this binary was built with the
// steadyframe_debug tag, which turns debug mode on for every Set.
const DebugBuild = isDebug
