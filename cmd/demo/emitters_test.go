package main

import (
	"image"
	"testing"
)

// checkMap checks the world map in the screenshot's bottom-left corner:
// its background, the listener, lit (real) emitters and dim (virtual)
// ones, each by its colour's pixel count.
func checkMap(t *testing.T, img image.Image) {
	t.Helper()
	x0, y0 := mapOrigin(img.Bounds().Dy())
	count := map[uint32]int{}
	for y := int(y0); y < int(y0)+mapSize; y++ {
		for x := int(x0); x < int(x0)+mapSize; x++ {
			c := rgba(img, x, y)
			for _, want := range []uint32{colMapBg, colListener, colReal, colVirtual} {
				if near(c, want) {
					count[want]++
				}
			}
		}
	}
	dot := emitDot * emitDot
	for _, c := range []struct {
		name string
		col  uint32
		min  int
	}{
		{"background", colMapBg, mapSize * mapSize / 2},
		{"listener", colListener, lisDot * lisDot / 2},
		{"real emitters", colReal, 8 * dot},
		{"virtual emitters", colVirtual, 8 * dot},
	} {
		if count[c.col] < c.min {
			t.Errorf("world map: %d pixels of the %s colour %08x, want at least %d", count[c.col], c.name, c.col, c.min)
		}
	}
	t.Logf("world map pixels: background %d, listener %d, real %d, virtual %d",
		count[colMapBg], count[colListener], count[colReal], count[colVirtual])
}
