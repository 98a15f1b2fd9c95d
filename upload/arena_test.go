package upload_test

import (
	"bytes"
	"errors"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/upload"
)

// rig is a Set and the frame clock it follows, as a renderer holds them.
type rig struct {
	t     testing.TB
	clock *frame.Clock
	set   *upload.Set
}

// newRig makes a Set on a clock of automatic CPU fences (frames complete
// when they end), or on d.Clock when the test brings its own.
func newRig(t testing.TB, d upload.SetDesc) *rig {
	t.Helper()
	if d.Clock == nil {
		c, err := frame.NewClock(frame.ClockDesc{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		d.Clock = c
	}
	s, err := upload.NewSet(d)
	if err != nil {
		t.Fatal(err)
	}
	// Cleanups run last-in first-out: the Set closes before its clock.
	t.Cleanup(func() { _ = s.Close() })
	return &rig{t: t, clock: d.Clock, set: s}
}

func (r *rig) begin() uint64 {
	r.t.Helper()
	serial, err := r.clock.BeginFrame()
	if err != nil {
		r.t.Fatal(err)
	}
	return serial
}

func (r *rig) end() {
	r.t.Helper()
	if err := r.clock.EndFrame(); err != nil {
		r.t.Fatal(err)
	}
}

func TestAllocBumpsAlignsAndBoundsViews(t *testing.T) {
	r := newRig(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 4096}, {Name: "b", Size: 1000}}})
	s := r.set
	a := s.Arena(0)
	r.begin()
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
	if s.ArenaNamed("b") != s.Arena(1) || s.ArenaNamed("nope") != nil || s.Len() != 2 {
		t.Error("ArenaNamed or Len do not find the arenas by their names")
	}
	r.end()
}

func TestRegionsAreFrameMajorAndRotate(t *testing.T) {
	r := newRig(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 1000}, {Name: "b", Size: 300}}})
	s := r.set
	stride := 1024 + 512 // each region rounded up to the 256-byte alignment
	for f := 0; f < 7; f++ {
		serial := r.begin()
		region := int(serial % 3)
		offA, _, _ := s.Arena(0).Alloc(8, 8)
		offB, _, _ := s.Arena(1).Alloc(8, 8)
		if offA != region*stride || offB != region*stride+1024 {
			t.Errorf("frame %d: offsets %d, %d; want %d, %d", serial, offA, offB, region*stride, region*stride+1024)
		}
		r.end()
	}
}

func TestFullArenaRefusesCountsAndKeepsData(t *testing.T) {
	r := newRig(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "particles", Size: 1024}}})
	s := r.set
	a := s.Arena(0)
	r.begin()
	_, first, err := a.Alloc(1000, 1)
	if err != nil {
		t.Fatal(err)
	}
	copy(first, bytes.Repeat([]byte{7}, 1000))
	for i := 0; i < 3; i++ {
		_, view, err := a.Alloc(64, 1)
		if err != upload.ErrArenaFull || view != nil {
			t.Fatalf("Alloc past the end: %v, view %d bytes; want the bare ErrArenaFull and no view", err, len(view))
		}
		if d := a.LastRefusal().String(); !strings.Contains(d, `"particles"`) || !strings.Contains(d, "1000 of 1024") {
			t.Errorf("LastRefusal %q does not name the arena and its use", d)
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
	r.end()
	if st := a.Stats(); st.Peak != 1024 || st.Capacity != 1024 {
		t.Errorf("peak %d capacity %d, want 1024 and 1024", st.Peak, st.Capacity)
	}
}

func TestInvalidRequestsHaveTheirOwnErrors(t *testing.T) {
	r := newRig(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 512}}})
	s := r.set
	a := s.Arena(0)
	r.begin()
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
	// Bad requests take nothing; they are counted with the refusals.
	if st := a.Stats(); st.Used != 0 || st.Failures != 8 || st.Allocs != 0 {
		t.Errorf("bad requests changed the arena: %+v, want nothing used and 8 failures", st)
	}
	r.end()
}

func TestAllocOnlyInsideAFrame(t *testing.T) {
	r := newRig(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 512}}})
	s := r.set
	a := s.Arena(0)
	if _, _, err := a.Alloc(8, 1); !errors.Is(err, upload.ErrNoFrame) {
		t.Errorf("Alloc before BeginFrame: %v, want ErrNoFrame", err)
	}
	r.begin()
	if _, _, err := a.Alloc(8, 1); err != nil {
		t.Errorf("Alloc inside a frame: %v", err)
	}
	r.end()
	_, _, err := a.Alloc(8, 1)
	if !errors.Is(err, upload.ErrNoFrame) {
		t.Errorf("Alloc after EndFrame: %v, want ErrNoFrame", err)
	}
	// The refusal still reads as what it was once the next frame began.
	r.begin()
	if !errors.Is(err, upload.ErrNoFrame) || errors.Is(err, upload.ErrArenaFull) {
		t.Errorf("the refusal made between frames reads %v in the next frame", err)
	}
	r.end()
}

// A Set made inside a frame joins it: its arenas are open at once.
func TestSetMadeInsideAFrameJoinsIt(t *testing.T) {
	c, err := frame.NewClock(frame.ClockDesc{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	serial, _ := c.BeginFrame()
	r := newRig(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 512}}, Clock: c})
	if _, _, err := r.set.Arena(0).Alloc(8, 1); err != nil || r.set.Serial() != serial {
		t.Fatalf("Alloc in the frame the Set was made in: %v (serial %d, want %d)", err, r.set.Serial(), serial)
	}
	r.end()
	if err := r.set.Close(); err != nil {
		t.Fatal(err)
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
		{"no clock", upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 8}}}, upload.ErrInvalidConfig},
	}
	clock, err := frame.NewClock(frame.ClockDesc{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.name != "no clock" {
			c.d.Clock = clock
		}
		if _, err := upload.NewSet(c.d); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	// A refused NewSet leaves nothing following the clock.
	if err := clock.Close(); err != nil {
		t.Errorf("closing the clock after refused NewSets: %v", err)
	}
}

func TestCloseEndsEverything(t *testing.T) {
	r := newRig(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 64}}})
	s := r.set
	r.begin()
	if err := s.Close(); !errors.Is(err, upload.ErrInFlight) || !strings.Contains(err.Error(), "frame 1 is open") {
		t.Errorf("Close with a frame open: %v, want ErrInFlight", err)
	}
	r.end()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if r.clock.Followers() != 0 {
		t.Errorf("the closed Set still follows the clock")
	}
	r.begin() // the clock runs on without the Set
	if _, _, err := s.Arena(0).Alloc(8, 1); !errors.Is(err, upload.ErrClosed) {
		t.Errorf("Alloc after Close: %v", err)
	}
	r.end()
}

func TestErrorsArePrefixedAndDistinct(t *testing.T) {
	errs := []error{upload.ErrArenaFull, upload.ErrInvalidSize, upload.ErrInvalidAlign, upload.ErrNoFrame,
		upload.ErrInFlight, upload.ErrInvalidConfig, upload.ErrClosed, upload.ErrStaleView, upload.ErrUnknownView}
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

// TestAllocInlines builds the package with -gcflags=-m=2 and checks that
// TryAlloc still fits the compiler's inlining budget: its speed comes
// from inlining, and one more statement in it can silently undo that.
// docs/refusals.md states the cost and why Alloc is not inlined.
func TestAllocInlines(t *testing.T) {
	out, err := testenv.Go(t, nil, "build", "-gcflags=-m=2", "-o", os.DevNull, ".")
	if err != nil {
		t.Fatalf("go build -gcflags=-m=2: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`can inline \(\*Arena\)\.TryAlloc with cost (\d+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("(*Arena).TryAlloc is no longer inlinable:\n%s", grepLines(out, "(*Arena).TryAlloc"))
	}
	cost, _ := strconv.Atoi(string(m[1]))
	if cost >= 80 {
		t.Errorf("(*Arena).TryAlloc inline cost %d, want under 80", cost)
	} else {
		t.Logf("(*Arena).TryAlloc inline cost %d of 80", cost)
	}
	doc, err := os.ReadFile("../docs/refusals.md")
	if err != nil {
		t.Fatal(err)
	}
	d := regexp.MustCompile(`\| TryAlloc: the bump returning ` + "`ok bool`" + ` \| (\d+) \|`).FindSubmatch(doc)
	if d == nil {
		t.Errorf("docs/refusals.md no longer states TryAlloc's cost (want %d)", cost)
	} else if string(d[1]) != strconv.Itoa(cost) {
		t.Errorf("docs/refusals.md states TryAlloc's cost as %s; the compiler says %d", d[1], cost)
	}
	// Alloc returns a sentinel it must classify, which no design fits in
	// the budget; the docs say it is not inlined, so it must not be.
	if regexp.MustCompile(`can inline \(\*Arena\)\.Alloc with`).Match(out) {
		t.Errorf("(*Arena).Alloc is inlinable now; update docs/refusals.md and the README's arena figure")
	}
}

func grepLines(out []byte, sub string) string {
	var keep []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, sub) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
