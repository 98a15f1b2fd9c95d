package descriptors

import "github.com/steadyframe/steadyframe/pools"

// entry is what the heap's pool holds per slot. The heap keeps no device
// types: a backend (descriptors/gltex) keeps its objects in its own
// arrays indexed by slot. batch marks the slots one FreeN call has
// checked, so a handle repeated in the batch is caught without a second
// table.
type entry struct {
	batch uint64
}

// Handle names one slot of a Heap: a pools.Handle of the heap's slot
// table, a 32-bit slot index and the slot's generation. Its methods read
// exactly as pools.Handle's. The zero Handle is never valid and means "no
// texture"; a handle is a value, never a pointer, so Heap.Grow can move
// the heap's storage without handles dangling. A slot is reused with a
// new generation each time, and a slot whose generation is spent is
// retired for good instead of wrapping, so a stale handle never becomes
// valid again.
//
// A Handle is a plain value, safe to copy, compare and pass between
// goroutines; only the goroutine that owns its Heap may resolve or free
// it.
type Handle struct{ h pools.Handle[entry] }

// Index returns the slot index: the value a shader or binding table uses
// to reach the slot (0xFFFFFFFF for the zero Handle). It is meaningful
// only for a handle the heap accepts.
func (h Handle) Index() uint32 { return h.h.Index() }

// Generation returns the slot generation the handle was issued with: odd
// for every handle a heap issues, 0 for the zero Handle.
func (h Handle) Generation() uint32 { return h.h.Generation() }

// IsZero reports whether h is the zero Handle, which means "none".
func (h Handle) IsZero() bool { return h.h.IsZero() }

// String formats h for logs and errors: "none" for the zero Handle,
// otherwise "slot N gen G", as every steadyframe handle reads. It
// allocates the string it returns.
func (h Handle) String() string { return h.h.String() }
