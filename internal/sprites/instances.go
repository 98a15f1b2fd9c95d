package sprites

import (
	"encoding/binary"
	"math"
)

// InstanceBytes is the size of one sprite instance WriteInstances
// writes: position (2 × float32, pixels, y down), size (float32, pixels),
// layer (uint32, the texture array layer) and tint (4 × uint8, RGBA).
const InstanceBytes = 20

// WriteInstances writes one instance per sprite into dst, sampling array
// layer layer(i), for one instanced draw of every sprite. This is the
// texture array path: the layer a sprite samples is streamed with it,
// instead of a texture being bound per run. It writes as many sprites as
// dst holds and returns how many it wrote. It does not allocate.
func (s *Sim) WriteInstances(dst []byte, layer func(i int) uint32) int {
	n := min(len(s.x), len(dst)/InstanceBytes)
	for i := range n {
		o := dst[i*InstanceBytes : (i+1)*InstanceBytes]
		binary.LittleEndian.PutUint32(o[0:], math.Float32bits(s.x[i]))
		binary.LittleEndian.PutUint32(o[4:], math.Float32bits(s.y[i]))
		binary.LittleEndian.PutUint32(o[8:], math.Float32bits(s.size))
		binary.LittleEndian.PutUint32(o[12:], layer(i))
		binary.BigEndian.PutUint32(o[16:], s.tint[i]) // bytes R, G, B, A in memory
	}
	return n
}
