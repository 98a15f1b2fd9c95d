package descriptors

import "fmt"

// Handle names one slot of a Heap: the slot index in the low 32 bits and
// the slot's generation in the high 32. Generations start at 1, so the
// zero Handle is never valid and means "no texture". A handle is a value,
// never a pointer, so Heap.Grow can move the heap's storage without
// handles dangling.
//
// A Handle is a plain value, safe to copy and pass between goroutines;
// only the goroutine that owns its Heap may resolve or free it.
type Handle uint64

func makeHandle(index int, gen uint32) Handle { return Handle(uint64(gen)<<32 | uint64(uint32(index))) }

// Index returns the slot index: the value a shader or binding table uses
// to reach the slot. It is meaningful only for a handle the heap accepts.
func (h Handle) Index() int { return int(uint32(h)) }

// Generation returns the slot generation the handle was issued with.
func (h Handle) Generation() uint32 { return uint32(h >> 32) }

// IsZero reports whether h is the zero handle.
func (h Handle) IsZero() bool { return h == 0 }

// String formats h as "slot N gen G" for logs and errors.
func (h Handle) String() string {
	if h == 0 {
		return "zero handle"
	}
	return fmt.Sprintf("slot %d gen %d", h.Index(), h.Generation())
}
