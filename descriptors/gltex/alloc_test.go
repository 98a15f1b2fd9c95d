package gltex_test

import (
	"testing"

	"github.com/steadyframe/steadyframe/descriptors/gltex"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/gltest"
	"github.com/steadyframe/steadyframe/internal/testenv"
)

// Texture churn happens in steady frames (font rebakes, quality swaps), so
// a frame that creates, frees and retires a GL texture must not allocate.
// A GL name taken by address from a local escapes through cgo; this test
// failed with 1 allocation per Create and per delete before the names were
// written straight into the Manager's table.
func TestChurnFrameDoesNotAllocate(t *testing.T) {
	testenv.SkipUnderRace(t)
	gltest.Run(t, func(*glctx.Context) error {
		r, err := newRenderer(true)
		if err != nil {
			return err
		}
		pixels := solid(8, 8, [4]byte{9, 8, 7, 6})
		var failed error
		frame := func() {
			if err := r.begin(); err != nil {
				failed = err
				return
			}
			h, err := r.tex.Create(8, 8, gltex.FormatRGBA8, pixels)
			if err == nil {
				err = r.tex.Free(h)
			}
			if err == nil {
				err = r.end()
			}
			if err != nil && failed == nil {
				failed = err
			}
		}
		for range 8 { // settle: every frame slot used once
			frame()
		}
		if n := testing.AllocsPerRun(200, frame); n != 0 {
			t.Errorf("a frame creating, freeing and retiring a texture made %.1f allocations, want 0", n)
		}
		if failed != nil {
			return failed
		}
		if st := r.tex.Stats(); st.Deleted == 0 {
			t.Errorf("no texture was deleted during the churn: %+v", st)
		}
		return r.close()
	})
}
