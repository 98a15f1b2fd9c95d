package scene_test

import (
	"testing"

	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/upload"
)

// The layout reserves 27 MiB over three frames in flight, names its
// arenas where the index constants say, and never needs more memory
// however full every arena is in every frame.
func TestLayoutReserves27MiB(t *testing.T) {
	clock, err := frame.NewClock(frame.ClockDesc{})
	if err != nil {
		t.Fatal(err)
	}
	defer clock.Close()
	s, err := upload.NewSet(upload.SetDesc{Arenas: scene.Arenas(), Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st := s.Stats()
	if scene.Reserved != 27<<20 || st.Reserved != scene.Reserved {
		t.Fatalf("reserved %d bytes, want %d (27 MiB)", st.Reserved, 27<<20)
	}
	if st.InFlight != 3 || st.Arenas != scene.ArenaCount {
		t.Fatalf("InFlight %d, Arenas %d; want 3 and %d", st.InFlight, st.Arenas, scene.ArenaCount)
	}
	for i, want := range []struct {
		name string
		size int
	}{scene.ArenaRenderer: {"renderer", 4 << 20}, scene.ArenaSprites: {"sprites", 4 << 20}, scene.ArenaParticles: {"particles", 1 << 20}} {
		if a := s.Arena(i); a.Name() != want.name || a.Capacity() != want.size || s.ArenaNamed(want.name) != a {
			t.Errorf("arena %d: %q of %d bytes, want %q of %d", i, a.Name(), a.Capacity(), want.name, want.size)
		}
	}
	for f := 0; f < 9; f++ {
		if _, err := clock.BeginFrame(); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < s.Len(); i++ {
			a := s.Arena(i)
			if _, _, err := a.Alloc(a.Capacity(), 1); err != nil {
				t.Fatal(err)
			}
		}
		if err := clock.EndFrame(); err != nil {
			t.Fatal(err)
		}
	}
	if got := s.Stats().Reserved; got != 27<<20 {
		t.Fatalf("reserved grew to %d", got)
	}
}
