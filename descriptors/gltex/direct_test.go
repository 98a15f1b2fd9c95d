package gltex_test

import (
	"fmt"
	"testing"

	"github.com/steadyframe/steadyframe/descriptors/gltex"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/gltest"
)

// TestCreateOutsideFrameIsNoStagingFailure creates textures between
// frames on a Manager with a staging arena: they take the documented
// direct path, and the arena must not count them as failed Allocs. One
// inside a frame still goes through the arena.
func TestCreateOutsideFrameIsNoStagingFailure(t *testing.T) {
	gltest.Run(t, func(*glctx.Context) error {
		r, err := newRenderer(true)
		if err != nil {
			return err
		}
		var freed []func() error
		for i := range 3 {
			h, err := r.tex.Create(4, 4, gltex.FormatRGBA8, solid(4, 4, [4]byte{byte(i), 1, 2, 3}))
			if err != nil {
				return err
			}
			freed = append(freed, func() error { return r.tex.Free(h) })
		}
		st, arena := r.tex.Stats(), r.set.Arena(0).Stats()
		if st.Direct != 3 || st.Staged != 0 || arena.Failures != 0 || arena.Allocs != 0 {
			t.Errorf("3 textures between frames: direct %d, staged %d, arena failures %d, allocs %d; want 3, 0, 0, 0",
				st.Direct, st.Staged, arena.Failures, arena.Allocs)
		}
		if err := r.begin(); err != nil {
			return err
		}
		h, err := r.tex.Create(4, 4, gltex.FormatRGBA8, solid(4, 4, [4]byte{9, 9, 9, 9}))
		if err != nil {
			return err
		}
		freed = append(freed, func() error { return r.tex.Free(h) })
		if st, arena := r.tex.Stats(), r.set.Arena(0).Stats(); st.Staged != 1 || arena.Allocs != 1 || arena.Failures != 0 {
			return fmt.Errorf("a texture inside a frame: staged %d, arena allocs %d, failures %d; want 1, 1, 0",
				st.Staged, arena.Allocs, arena.Failures)
		}
		for _, free := range freed {
			if err := free(); err != nil {
				return err
			}
		}
		if err := r.end(); err != nil {
			return err
		}
		return r.close()
	})
}
