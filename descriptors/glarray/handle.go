package glarray

import (
	"strconv"

	"github.com/steadyframe/steadyframe/descriptors"
)

// Handle names one texture of a Manager: the class (which array) and the
// slot of that class's heap (which layer). The zero Handle is never valid
// and means "no texture".
//
// A Handle is a plain value, safe to copy, compare and pass between
// goroutines; only the goroutine that owns its Manager may resolve or
// free it.
type Handle struct {
	h     descriptors.Handle
	class uint32
}

// Class returns the index of the handle's class in Desc.Classes: the
// array texture (Manager.Texture, Manager.Bind) that holds the texture.
func (h Handle) Class() int { return int(h.class) }

// Layer returns the layer of the class's array that holds the texture,
// which is the slot index of the class's heap: the value a shader passes
// as the third texture coordinate. It is 0xFFFFFFFF for the zero Handle
// and meaningful only for a handle the Manager accepts (Manager.Layer
// checks it).
func (h Handle) Layer() uint32 { return h.h.Index() }

// Slot returns the descriptors handle of the class's heap.
func (h Handle) Slot() descriptors.Handle { return h.h }

// IsZero reports whether h is the zero Handle, which means "none".
func (h Handle) IsZero() bool { return h.h.IsZero() }

// String formats h for logs and errors: "none" for the zero Handle,
// otherwise "class C slot N gen G". It allocates the string it returns.
func (h Handle) String() string {
	if h.IsZero() {
		return "none"
	}
	return "class " + strconv.Itoa(int(h.class)) + " " + h.h.String()
}
