package glarray

import (
	"fmt"
	"strings"

	"github.com/steadyframe/steadyframe/descriptors"
)

// Live describes one live texture for a leak report: a plain value.
type Live struct {
	Handle  Handle
	Class   string // the class's Name
	Name    string // the name given to Create
	Created uint64 // the frame open at Create; 0 when none was open
}

// String formats l as the leak report lists it: the name, the layer and
// class, and the frame it was created in. It allocates.
func (l Live) String() string {
	name := l.Name
	if name == "" {
		name = "(unnamed)"
	}
	when := "outside a frame"
	if l.Created != 0 {
		when = fmt.Sprintf("in frame %d", l.Created)
	}
	return fmt.Sprintf("%q: layer %d of class %q, created %s", name, l.Handle.Layer(), l.Class, when)
}

// AppendLive appends every live texture to dst, class by class and
// layer by layer, and returns the extended slice. It allocates only when
// dst has no room; call it outside steady frames, since it visits every
// layer.
func (m *Manager) AppendLive(dst []Live) []Live {
	for i := range m.classes {
		cl := &m.classes[i]
		m.live = cl.heap.AppendLive(m.live[:0])
		for _, l := range m.live {
			dst = append(dst, Live{Handle: Handle{h: l.Handle, class: uint32(i)}, Class: cl.Name, Name: l.Name, Created: l.Created})
		}
	}
	return dst
}

// Close deletes the arrays and closes the heaps. While textures are live
// it refuses and changes nothing. Its error matches descriptors.ErrInUse
// and lists each live texture's name, layer, class and creation frame.
// That list is formatted here, outside frames, so Create keeps only the
// caller's string. While layers are pending it refuses, naming the count
// (Drain the clock first). Close the Manager before the clock.
// Close is idempotent.
func (m *Manager) Close() error {
	if m.closed {
		return nil
	}
	if live := m.AppendLive(nil); len(live) > 0 {
		var b strings.Builder
		for _, l := range live {
			b.WriteString("\n\t")
			b.WriteString(l.String())
		}
		return fmt.Errorf("glarray: Close with %d live texture(s) (free them, then Drain the clock): %w:%s",
			len(live), descriptors.ErrInUse, b.String())
	}
	if st := m.Stats(); st.Pending > 0 {
		return fmt.Errorf("glarray: Close with %d freed layer(s) waiting for their frames (Drain the clock first): %w",
			st.Pending, descriptors.ErrInUse)
	}
	for i := range m.classes {
		if err := m.classes[i].heap.Close(); err != nil {
			panic(fmt.Sprintf("glarray: heap %d refused Close with no live or pending slot: %v", i, err))
		}
	}
	m.destroy()
	m.closed = true
	return nil
}
