package upload_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/upload"
)

func newSet(t testing.TB, d upload.SetDesc) *upload.Set {
	t.Helper()
	s, err := upload.NewSet(d)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func begin(t testing.TB, s *upload.Set) uint64 {
	t.Helper()
	serial, err := s.BeginFrame()
	if err != nil {
		t.Fatal(err)
	}
	return serial
}

func end(t testing.TB, s *upload.Set) {
	t.Helper()
	if err := s.EndFrame(); err != nil {
		t.Fatal(err)
	}
}

func TestStandardConfigReserves27MiB(t *testing.T) {
	s := newSet(t, upload.SetDesc{Arenas: upload.StandardArenas()})
	st := s.Stats()
	if upload.StandardReserved != 27<<20 || st.Reserved != upload.StandardReserved {
		t.Fatalf("reserved %d bytes, want %d (27 MiB)", st.Reserved, 27<<20)
	}
	if st.InFlight != 3 || st.Arenas != 3 {
		t.Fatalf("InFlight %d, Arenas %d; want 3 and 3", st.InFlight, st.Arenas)
	}
	want := map[string]int{"renderer": 4 << 20, "sprites": 4 << 20, "particles": 1 << 20}
	for name, size := range want {
		a := s.ArenaNamed(name)
		if a == nil || a.Capacity() != size {
			t.Errorf("arena %q: %v, want capacity %d", name, a, size)
		}
	}
	if s.ArenaNamed("nope") != nil {
		t.Error("ArenaNamed found a missing arena")
	}
	// Filling every arena in every frame for many frames must never need
	// more memory than was reserved.
	for f := 0; f < 9; f++ {
		begin(t, s)
		for i := 0; i < s.Len(); i++ {
			a := s.Arena(i)
			if _, _, err := a.Alloc(a.Capacity(), 1); err != nil {
				t.Fatal(err)
			}
		}
		end(t, s)
	}
	if got := s.Stats().Reserved; got != 27<<20 {
		t.Fatalf("reserved grew to %d", got)
	}
}

func TestAllocBumpsAlignsAndBoundsViews(t *testing.T) {
	s := newSet(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 4096}, {Name: "b", Size: 1000}}})
	a := s.Arena(0)
	begin(t, s)
	prevEnd := -1
	for _, c := range []struct{ size, align int }{{3, 1}, {16, 16}, {1, 1}, {64, 64}, {5, 4}, {100, 256}} {
		off, view, err := a.Alloc(c.size, c.align)
		if err != nil {
			t.Fatal(err)
		}
		if off%c.align != 0 {
			t.Errorf("offset %d not aligned to %d", off, c.align)
		}
		if off < prevEnd {
			t.Errorf("offset %d overlaps the previous allocation ending at %d", off, prevEnd)
		}
		if len(view) != c.size || cap(view) != c.size {
			t.Errorf("view len %d cap %d, want both %d (append must not spill)", len(view), cap(view), c.size)
		}
		prevEnd = off + c.size
	}
	// Arena b's region starts after a's, aligned to the backend, in the
	// region of frame 1 (serial 1 uses region 1 of 3; a frame is 5120 bytes).
	off, _, err := s.Arena(1).Alloc(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := 5120 + 4096; off != want {
		t.Errorf("arena b's first offset %d, want %d", off, want)
	}
	end(t, s)
}

func TestRegionsAreFrameMajorAndRotate(t *testing.T) {
	s := newSet(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 1000}, {Name: "b", Size: 300}}})
	stride := 1024 + 512 // each region rounded up to the 256-byte alignment
	for f := 0; f < 7; f++ {
		serial := begin(t, s)
		region := int(serial % 3)
		offA, _, _ := s.Arena(0).Alloc(8, 8)
		offB, _, _ := s.Arena(1).Alloc(8, 8)
		if offA != region*stride || offB != region*stride+1024 {
			t.Errorf("frame %d: offsets %d, %d; want %d, %d", serial, offA, offB, region*stride, region*stride+1024)
		}
		end(t, s)
	}
}

func TestFullArenaRefusesCountsAndKeepsData(t *testing.T) {
	s := newSet(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "particles", Size: 1024}}})
	a := s.Arena(0)
	begin(t, s)
	_, first, err := a.Alloc(1000, 1)
	if err != nil {
		t.Fatal(err)
	}
	copy(first, bytes.Repeat([]byte{7}, 1000))
	for i := 0; i < 3; i++ {
		_, view, err := a.Alloc(64, 1)
		if !errors.Is(err, upload.ErrArenaFull) || view != nil {
			t.Fatalf("Alloc past the end: %v, view %d bytes; want ErrArenaFull and no view", err, len(view))
		}
		if !strings.Contains(err.Error(), `"particles"`) || !strings.Contains(err.Error(), "1000 of 1024") {
			t.Errorf("error %q does not name the arena and its use", err)
		}
	}
	if !bytes.Equal(first, bytes.Repeat([]byte{7}, 1000)) {
		t.Error("a refused Alloc touched earlier data")
	}
	// What still fits is still granted.
	if _, _, err := a.Alloc(24, 1); err != nil {
		t.Errorf("Alloc of the last 24 bytes: %v", err)
	}
	st := a.Stats()
	if st.Failures != 3 || st.Used != 1024 || st.Allocs != 2 {
		t.Errorf("stats %+v, want 3 failures, 1024 used, 2 allocs", st)
	}
	end(t, s)
	if st := a.Stats(); st.Peak != 1024 || st.Capacity != 1024 {
		t.Errorf("peak %d capacity %d, want 1024 and 1024", st.Peak, st.Capacity)
	}
}

func TestInvalidRequestsHaveTheirOwnErrors(t *testing.T) {
	s := newSet(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 512}}})
	a := s.Arena(0)
	begin(t, s)
	for _, size := range []int{0, -1, 513} {
		if _, _, err := a.Alloc(size, 1); !errors.Is(err, upload.ErrInvalidSize) {
			t.Errorf("Alloc(%d, 1): %v, want ErrInvalidSize", size, err)
		}
	}
	for _, align := range []int{0, -4, 3, 12, upload.MaxAlign * 2} {
		if _, _, err := a.Alloc(8, align); !errors.Is(err, upload.ErrInvalidAlign) {
			t.Errorf("Alloc(8, %d): %v, want ErrInvalidAlign", align, err)
		}
	}
	if st := a.Stats(); st.Used != 0 || st.Failures != 0 || st.Allocs != 0 {
		t.Errorf("bad requests changed the arena: %+v", st)
	}
	end(t, s)
}

func TestAllocOnlyInsideAFrame(t *testing.T) {
	s := newSet(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 512}}})
	a := s.Arena(0)
	if _, _, err := a.Alloc(8, 1); !errors.Is(err, upload.ErrNoFrame) {
		t.Errorf("Alloc before BeginFrame: %v, want ErrNoFrame", err)
	}
	begin(t, s)
	if _, err := s.BeginFrame(); !errors.Is(err, upload.ErrFrameOrder) {
		t.Errorf("second BeginFrame: %v, want ErrFrameOrder", err)
	}
	end(t, s)
	if err := s.EndFrame(); !errors.Is(err, upload.ErrFrameOrder) {
		t.Errorf("second EndFrame: %v, want ErrFrameOrder", err)
	}
	if _, _, err := a.Alloc(8, 1); !errors.Is(err, upload.ErrNoFrame) {
		t.Errorf("Alloc after EndFrame: %v, want ErrNoFrame", err)
	}
}

func TestNewSetRejectsBadConfig(t *testing.T) {
	cases := []struct {
		name string
		d    upload.SetDesc
		want error
	}{
		{"no arenas", upload.SetDesc{}, upload.ErrInvalidConfig},
		{"zero size", upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a"}}}, upload.ErrInvalidSize},
		{"odd alignment", upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 8}},
			Backend: upload.NewCPUBackend(upload.CPUBackendDesc{Alignment: 48})}, upload.ErrInvalidAlign},
		{"too many frames", upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 8}}, InFlight: 99}, upload.ErrInvalidConfig},
	}
	for _, c := range cases {
		if _, err := upload.NewSet(c.d); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

func TestCloseEndsEverything(t *testing.T) {
	s, err := upload.NewSet(upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 64}}})
	if err != nil {
		t.Fatal(err)
	}
	begin(t, s)
	if err := s.Close(); !errors.Is(err, upload.ErrFrameOrder) {
		t.Errorf("Close with a frame open: %v, want ErrFrameOrder", err)
	}
	end(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := s.BeginFrame(); !errors.Is(err, upload.ErrClosed) {
		t.Errorf("BeginFrame after Close: %v", err)
	}
	if err := s.EndFrame(); !errors.Is(err, upload.ErrClosed) {
		t.Errorf("EndFrame after Close: %v", err)
	}
	if _, _, err := s.Arena(0).Alloc(8, 1); !errors.Is(err, upload.ErrClosed) {
		t.Errorf("Alloc after Close: %v", err)
	}
}

func TestErrorsArePrefixedAndDistinct(t *testing.T) {
	errs := []error{upload.ErrArenaFull, upload.ErrInvalidSize, upload.ErrInvalidAlign, upload.ErrNoFrame,
		upload.ErrFrameOrder, upload.ErrInvalidConfig, upload.ErrClosed, upload.ErrStaleView, upload.ErrUnknownView}
	for i, a := range errs {
		if !strings.HasPrefix(a.Error(), "upload: ") {
			t.Errorf("%q lacks the package prefix", a)
		}
		for j, b := range errs {
			if i != j && errors.Is(a, b) {
				t.Errorf("%v matches %v", a, b)
			}
		}
	}
}
