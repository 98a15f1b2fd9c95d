package sprites

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

// Each instance holds the sprite's position, size, layer and tint, in
// the layout the texture-array shader reads; a short dst takes a prefix.
func TestWriteInstancesLayout(t *testing.T) {
	s, _ := New(5, 8, 100, 100, 3)
	dst := make([]byte, 5*InstanceBytes)
	if n := s.WriteInstances(dst, func(i int) uint32 { return uint32(40 + i) }); n != 5 {
		t.Fatalf("wrote %d of 5", n)
	}
	for i := range 5 {
		o := dst[i*InstanceBytes:]
		x, y := s.Position(i)
		f := func(k int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(o[k:])) }
		if f(0) != x || f(4) != y || f(8) != 8 || binary.LittleEndian.Uint32(o[12:]) != uint32(40+i) ||
			binary.BigEndian.Uint32(o[16:]) != s.tint[i] {
			t.Errorf("instance %d: % x (sprite at %v,%v tint %08x)", i, o[:InstanceBytes], x, y, s.tint[i])
		}
	}
	if n := s.WriteInstances(dst[:2*InstanceBytes+3], func(int) uint32 { return 0 }); n != 2 {
		t.Errorf("a 2.15-instance dst took %d", n)
	}
	layer := func(i int) uint32 { return uint32(i) }
	testenv.NoAllocs(t, "WriteInstances", 100, func() { s.WriteInstances(dst, layer) })
}
