package upload_test

import (
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/internal/guardtest"
	"github.com/steadyframe/steadyframe/upload"
)

// sentinels is every error this package returns.
var sentinels = []error{upload.ErrArenaFull, upload.ErrInvalidSize, upload.ErrInvalidAlign, upload.ErrNoFrame,
	upload.ErrInFlight, upload.ErrInvalidConfig, upload.ErrClosed, upload.ErrStaleView, upload.ErrUnknownView}

// alloc returns Alloc's error itself.
func alloc(a *upload.Arena, size, align int) error {
	_, _, err := a.Alloc(size, align)
	return err
}

// tryRefusal makes a refused TryAlloc and returns the arena's
// LastRefusal().Err, or nil if the TryAlloc was granted.
func tryRefusal(a *upload.Arena, size, align int) error {
	if _, _, ok := a.TryAlloc(size, align); ok {
		return nil
	}
	return a.LastRefusal().Err
}

// TestLastRefusalDescribesEachKind checks that Alloc returns every kind
// of refusal as its bare sentinel, and that LastRefusal names it and
// quotes the request and the frame, after Alloc and after TryAlloc.
func TestLastRefusalDescribesEachKind(t *testing.T) {
	r := newRig(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "p", Size: 1024}}})
	a := r.set.Arena(0)
	if got := a.LastRefusal(); got != (upload.Refusal{}) || got.String() != "none" {
		t.Errorf("LastRefusal before any refusal: %+v (%s), want the zero Refusal (none)", got, got)
	}
	check := func(size, align int, want upload.Refusal) {
		t.Helper()
		_, _, err := a.Alloc(size, align)
		if err != want.Err {
			t.Fatalf("Alloc(%d, %d): %v, want the bare %v", size, align, err, want.Err)
		}
		got := a.LastRefusal()
		if got != want {
			t.Errorf("Alloc(%d, %d): LastRefusal %+v, want %+v", size, align, got, want)
		}
		if s := got.String(); !strings.HasPrefix(s, err.Error()+": ") {
			t.Errorf("Alloc(%d, %d): LastRefusal reads %q, want it to start with %q", size, align, s, err)
		}
		// TryAlloc refuses the same way and counts one more.
		if _, _, ok := a.TryAlloc(size, align); ok {
			t.Fatalf("TryAlloc(%d, %d) was granted", size, align)
		}
		want.InFrame++
		if got := a.LastRefusal(); got != want {
			t.Errorf("TryAlloc(%d, %d): LastRefusal %+v, want %+v", size, align, got, want)
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
		Frame: serial, InFrame: 3})
	check(2000, 16, upload.Refusal{Err: upload.ErrInvalidSize, Arena: "p", Size: 2000, Align: 16, Used: 1000, Capacity: 1024,
		Frame: serial, InFrame: 5})
	check(8, 3, upload.Refusal{Err: upload.ErrInvalidAlign, Arena: "p", Size: 8, Align: 3, Used: 1000, Capacity: 1024,
		Frame: serial, InFrame: 7})
	check(8, -4, upload.Refusal{Err: upload.ErrInvalidAlign, Arena: "p", Size: 8, Align: -4, Used: 1000, Capacity: 1024,
		Frame: serial, InFrame: 9})
	check(8, 2*upload.MaxAlign, upload.Refusal{Err: upload.ErrInvalidAlign, Arena: "p", Size: 8, Align: 2 * upload.MaxAlign,
		Used: 1000, Capacity: 1024, Frame: serial, InFrame: 11})
	// An error already returned does not change when the arena refuses
	// again for another reason.
	_, _, full := a.Alloc(100, 16)
	_, _, _ = a.Alloc(0, 16)
	if full != upload.ErrArenaFull || full.Error() != "upload: arena full" {
		t.Errorf("an earlier refusal now reads %v", full)
	}
	last := a.LastRefusal()
	if last.Err != upload.ErrInvalidSize || last.Size != 0 {
		t.Errorf("LastRefusal after the last Alloc: %+v", last)
	}
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

// TestRefusalCheckNeverAllocates tests every kind of refused Alloc, its
// error itself and TryAlloc's LastRefusal().Err, with ==, a switch and
// errors.Is against every sentinel. Each form runs under AllocsPerRun and
// millions of times in guarded frames.
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
	refusals := []struct {
		name       string
		want       error
		a          *upload.Arena
		size, algn int
	}{
		{"on a full arena", upload.ErrArenaFull, a, 100, 16},
		{"of 0 bytes", upload.ErrInvalidSize, a, 0, 16},
		{"past the capacity", upload.ErrInvalidSize, a, 2000, 16},
		{"with a bad align", upload.ErrInvalidAlign, a, 8, 3},
		{"between frames", upload.ErrNoFrame, between, 8, 16},
		{"after Close", upload.ErrClosed, c, 8, 16},
	}
	var rs []guardtest.Refusal
	for _, f := range refusals {
		rs = append(rs,
			guardtest.Refusal{Name: "Alloc " + f.name, Want: f.want, Call: func() error { return alloc(f.a, f.size, f.algn) }},
			guardtest.Refusal{Name: "TryAlloc " + f.name, Want: f.want, Call: func() error { return tryRefusal(f.a, f.size, f.algn) }})
	}
	guardtest.Refusals(t, sentinels, rs, 1_000_000)
	if st := a.Stats(); st.Used != 1000 || st.Allocs != 1 {
		t.Errorf("the refusals changed the arena: %+v", st)
	}
	r.end()
}
