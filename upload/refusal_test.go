package upload_test

import (
	"testing"

	"github.com/steadyframe/steadyframe/internal/guardtest"
	"github.com/steadyframe/steadyframe/upload"
)

// sentinels is every error this package returns.
var sentinels = []error{upload.ErrArenaFull, upload.ErrInvalidSize, upload.ErrInvalidAlign, upload.ErrNoFrame,
	upload.ErrInFlight, upload.ErrInvalidConfig, upload.ErrClosed, upload.ErrStaleView, upload.ErrUnknownView}

// lastRefusal makes a refused Alloc and returns the arena's
// LastRefusal().Err, or nil if the Alloc was granted.
func lastRefusal(a *upload.Arena, size, align int) error {
	if _, _, err := a.Alloc(size, align); err == nil {
		return nil
	}
	return a.LastRefusal().Err
}

// TestLastRefusalDescribesEachKind checks that LastRefusal names every
// kind of refusal with its bare sentinel, quotes the request and the
// frame, and reads as Alloc's error did.
func TestLastRefusalDescribesEachKind(t *testing.T) {
	r := newRig(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "p", Size: 1024}}})
	a := r.set.Arena(0)
	if got := a.LastRefusal(); got != (upload.Refusal{}) || got.String() != "none" {
		t.Errorf("LastRefusal before any refusal: %+v (%s), want the zero Refusal (none)", got, got)
	}
	check := func(size, align int, want upload.Refusal) {
		t.Helper()
		_, _, err := a.Alloc(size, align)
		if err == nil {
			t.Fatalf("Alloc(%d, %d) was granted", size, align)
		}
		got := a.LastRefusal()
		if got != want {
			t.Errorf("Alloc(%d, %d): LastRefusal %+v, want %+v", size, align, got, want)
		}
		if got.String() != err.Error() {
			t.Errorf("Alloc(%d, %d): LastRefusal reads %q, the error %q", size, align, got, err)
		}
	}
	check(8, 16, upload.Refusal{Err: upload.ErrNoFrame, Arena: "p", Size: 8, Align: 16, Capacity: 1024, InFrame: 1})
	serial := r.begin()
	if _, _, err := a.Alloc(1000, 1); err != nil {
		t.Fatal(err)
	}
	check(100, 16, upload.Refusal{Err: upload.ErrArenaFull, Arena: "p", Size: 100, Align: 16, Used: 1000, Capacity: 1024,
		Frame: serial, InFrame: 1})
	check(0, 16, upload.Refusal{Err: upload.ErrInvalidSize, Arena: "p", Size: 0, Align: 16, Used: 1000, Capacity: 1024,
		Frame: serial, InFrame: 2})
	check(2000, 16, upload.Refusal{Err: upload.ErrInvalidSize, Arena: "p", Size: 2000, Align: 16, Used: 1000, Capacity: 1024,
		Frame: serial, InFrame: 3})
	check(8, 3, upload.Refusal{Err: upload.ErrInvalidAlign, Arena: "p", Size: 8, Align: 3, Used: 1000, Capacity: 1024,
		Frame: serial, InFrame: 4})
	last := a.LastRefusal()
	r.end()
	// The frame's end settles it: the next frame does not change it.
	r.begin()
	if got := a.LastRefusal(); got != last {
		t.Errorf("LastRefusal in the next frame: %+v, want %+v", got, last)
	}
	r.end()
	if err := r.set.Close(); err != nil {
		t.Fatal(err)
	}
	check(8, 16, upload.Refusal{Err: upload.ErrClosed, Arena: "p", Size: 8, Align: 16, Capacity: 1024, InFrame: 1})
}

// TestRefusalCheckNeverAllocates tests every kind of refused Alloc, read
// through LastRefusal().Err, with ==, a switch and errors.Is against
// every sentinel, under AllocsPerRun and millions of times in guarded
// frames. Alloc's own error is the arena's value and may allocate under
// errors.Is (docs/refusals.md).
func TestRefusalCheckNeverAllocates(t *testing.T) {
	r := newRig(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "p", Size: 1024}}})
	a := r.set.Arena(0)
	between := newRig(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "b", Size: 1024}}}).set.Arena(0)
	closed := newRig(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "c", Size: 1024}}})
	if err := closed.set.Close(); err != nil {
		t.Fatal(err)
	}
	c := closed.set.Arena(0)
	r.begin()
	if _, _, err := a.Alloc(1000, 1); err != nil {
		t.Fatal(err)
	}
	guardtest.Refusals(t, sentinels, []guardtest.Refusal{
		{Name: "Alloc on a full arena", Want: upload.ErrArenaFull, Call: func() error { return lastRefusal(a, 100, 16) }},
		{Name: "Alloc of 0 bytes", Want: upload.ErrInvalidSize, Call: func() error { return lastRefusal(a, 0, 16) }},
		{Name: "Alloc past the capacity", Want: upload.ErrInvalidSize, Call: func() error { return lastRefusal(a, 2000, 16) }},
		{Name: "Alloc with a bad align", Want: upload.ErrInvalidAlign, Call: func() error { return lastRefusal(a, 8, 3) }},
		{Name: "Alloc between frames", Want: upload.ErrNoFrame, Call: func() error { return lastRefusal(between, 8, 16) }},
		{Name: "Alloc after Close", Want: upload.ErrClosed, Call: func() error { return lastRefusal(c, 8, 16) }},
	}, 1_000_000)
	if st := a.Stats(); st.Used != 1000 || st.Allocs != 1 {
		t.Errorf("the refusals changed the arena: %+v", st)
	}
	r.end()
}
