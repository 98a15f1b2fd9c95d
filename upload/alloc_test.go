package upload_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/steadyframe/steadyframe/upload"
)

func wantNoAllocs(t *testing.T, name string, f func()) {
	t.Helper()
	if raceEnabled {
		t.Skip("the race detector allocates; allocation counts are checked without -race")
	}
	if n := testing.AllocsPerRun(1000, f); n != 0 {
		t.Errorf("%s: %v allocations per run, want 0", name, n)
	}
}

func TestSteadyFramesDoNotAllocate(t *testing.T) {
	for _, debug := range []bool{false, true} {
		s := newSet(t, upload.SetDesc{Arenas: upload.StandardArenas(), Debug: debug})
		a := s.Arena(upload.StandardSprites)
		p := s.Arena(upload.StandardParticles)
		tag := fmt.Sprintf("debug=%t", debug)
		wantNoAllocs(t, tag+" frame", func() {
			if _, err := s.BeginFrame(); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 64; i++ {
				if _, v, err := a.Alloc(64+i, 16); err != nil || len(v) != 64+i {
					t.Fatal(err)
				}
			}
			_ = a.Stats()
			_ = s.Stats()
			if err := s.EndFrame(); err != nil {
				t.Fatal(err)
			}
		})
		// A full arena's refusal must not allocate either: an overflowing
		// particle system fails many times a frame.
		begin(t, s)
		if _, _, err := p.Alloc(p.Capacity(), 1); err != nil {
			t.Fatal(err)
		}
		wantNoAllocs(t, tag+" full", func() {
			if _, _, err := p.Alloc(16, 16); !errors.Is(err, upload.ErrArenaFull) {
				t.Fatal(err)
			}
		})
		end(t, s)
	}
}
