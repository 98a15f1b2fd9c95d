package scene

import (
	"strconv"

	"github.com/steadyframe/steadyframe/descriptors"
)

// The debug names of the population's textures, built once when the
// package loads: the heap keeps a slot's name without copying it
// (descriptors.Heap.SetName), so naming a texture made in a steady frame
// allocates nothing. Close's leak report and the heap's exhaustion record
// show them.
var (
	levelNames   = numbered("level texture ", LevelTextures)
	qualityNames = numbered("quality texture ", QualityTextures)
	fontNames    = numbered("font page ", FontPages)
)

const whiteName = "white texel"

func numbered(prefix string, n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = prefix + strconv.Itoa(i)
	}
	return names
}

// named gives the slot of h its debug name; a zero h (a refused Create,
// already counted) is left alone.
func (t *Textures) named(h descriptors.Handle, name string) descriptors.Handle {
	if !h.IsZero() {
		if err := t.heap.SetName(h, name); err != nil {
			t.fail(err)
		}
	}
	return h
}
