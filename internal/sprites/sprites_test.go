package sprites

import (
	"errors"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"

	"github.com/steadyframe/steadyframe/internal/quads"
)

func TestBounceStaysInside(t *testing.T) {
	s, err := New(200, 10, 320, 240, 1)
	if err != nil {
		t.Fatal(err)
	}
	events := 0
	for i := 0; i < 600; i++ {
		s.Step(1.0/60, 320, 240)
		events += len(s.Events())
		for k := 0; k < s.Len(); k++ {
			x, y := s.Position(k)
			if x < 0 || y < 0 || x > 310 || y > 230 {
				t.Fatalf("sprite %d left the area: (%v, %v)", k, x, y)
			}
		}
	}
	if events == 0 || uint64(events) != s.Bounces() {
		t.Errorf("%d events, %d bounces counted", events, s.Bounces())
	}
}

func TestWriteRunsByTexture(t *testing.T) {
	s, _ := New(40, 8, 100, 100, 2)
	w, _ := quads.NewWriter(8)
	_ = w.Reset(make([]byte, 40*quads.QuadBytes))
	if missed := s.Write(w, func(i int) uint32 { return uint32(i / 10) }); missed != 0 {
		t.Errorf("%d quads missed", missed)
	}
	if len(w.Runs()) != 4 {
		t.Errorf("%d runs for 4 textures in order", len(w.Runs()))
	}
}

func TestInvalid(t *testing.T) {
	for _, c := range []struct {
		n       int
		size, w float32
	}{{-1, 8, 100}, {quads.MaxQuads + 1, 8, 100}, {1, 0, 100}, {1, 200, 100}} {
		if _, err := New(c.n, c.size, c.w, 100, 1); !errors.Is(err, ErrInvalid) {
			t.Errorf("New(%d, %v, %v) = %v", c.n, c.size, c.w, err)
		}
	}
}

func TestStepWriteNoAllocs(t *testing.T) {
	s, _ := New(300, 8, 640, 480, 3)
	w, _ := quads.NewWriter(32)
	view := make([]byte, 300*quads.QuadBytes)
	tex := func(i int) uint32 { return uint32(i / 10) }
	testenv.NoAllocs(t, "a frame of sprites", 100, func() {
		s.Step(1.0/60, 640, 480)
		_ = w.Reset(view)
		s.Write(w, tex)
	})
}

func BenchmarkStepWrite(b *testing.B) {
	s, _ := New(400, 8, 640, 480, 3)
	w, _ := quads.NewWriter(64)
	view := make([]byte, 400*quads.QuadBytes)
	tex := func(i int) uint32 { return uint32(i / 10) }
	b.ReportAllocs()
	for b.Loop() {
		s.Step(1.0/60, 640, 480)
		_ = w.Reset(view)
		s.Write(w, tex)
	}
}
