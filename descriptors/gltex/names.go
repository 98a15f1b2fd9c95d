package gltex

import (
	"fmt"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/glcaps"
)

// CreateNamed is Create with a debug name. The heap keeps name for its
// slot (descriptors.Heap.SetName), so the leak report of Close and the
// heap's exhaustion record show it. Where the context has KHR_debug, the
// GL texture carries it as its label (glObjectLabel), so GL debuggers
// show it too. The string is kept, not copied: pass one that
// does not change. CreateNamed allocates nothing more than Create.
func (m *Manager) CreateNamed(width, height int, f Format, pixels []byte, name string) (descriptors.Handle, error) {
	h, err := m.Create(width, height, f, pixels)
	if err != nil {
		return h, err
	}
	if err := m.heap.SetName(h, name); err != nil {
		panic(fmt.Sprintf("gltex: the heap refused to name %v it had just handed out: %v", h, err))
	}
	if m.labelled {
		glcaps.Label(gl.TEXTURE, m.names[h.Index()], name)
	}
	return h, nil
}
