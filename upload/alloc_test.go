package upload_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/upload"
)

func TestSteadyFramesDoNotAllocate(t *testing.T) {
	for _, debug := range []bool{false, true} {
		r := newRig(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "sprites", Size: 1 << 20}, {Name: "particles", Size: 4096}},
			Debug: debug})
		a, p := r.set.Arena(0), r.set.Arena(1)
		tag := fmt.Sprintf("debug=%t", debug)
		testenv.NoAllocs(t, tag+" frame", 1000, func() {
			if _, err := r.clock.BeginFrame(); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 64; i++ {
				if _, v, err := a.Alloc(64+i, 16); err != nil || len(v) != 64+i {
					t.Fatal(err)
				}
				if _, v, ok := a.TryAlloc(64+i, 16); !ok || len(v) != 64+i {
					t.Fatal(a.LastRefusal())
				}
			}
			_ = a.Stats()
			_ = r.set.Stats()
			if err := r.clock.EndFrame(); err != nil {
				t.Fatal(err)
			}
		})
		// A refusal must not allocate either, whatever its kind: an
		// overflowing particle system fails many times a frame.
		r.begin()
		if _, _, err := p.Alloc(p.Capacity(), 1); err != nil {
			t.Fatal(err)
		}
		testenv.NoAllocs(t, tag+" refusals", 1000, func() {
			if _, _, err := p.Alloc(16, 16); !errors.Is(err, upload.ErrArenaFull) {
				t.Fatal(err)
			}
			if _, _, err := p.Alloc(0, 16); !errors.Is(err, upload.ErrInvalidSize) {
				t.Fatal(err)
			}
			if _, _, err := p.Alloc(16, 3); !errors.Is(err, upload.ErrInvalidAlign) {
				t.Fatal(err)
			}
			if _, _, ok := p.TryAlloc(16, 16); ok || p.LastRefusal().Err != upload.ErrArenaFull {
				t.Fatal(p.LastRefusal())
			}
		})
		r.end()
		testenv.NoAllocs(t, tag+" refusal between frames", 1000, func() {
			if _, _, err := p.Alloc(16, 16); !errors.Is(err, upload.ErrNoFrame) {
				t.Fatal(err)
			}
		})
	}
}
