package descriptors_test

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/flatlog"
	"github.com/steadyframe/steadyframe/internal/testenv"
)

// Three slots leaked on purpose, among slots freed and one never named:
// Close refuses, changing nothing, and names each live slot with its
// index and creation frame; after they are freed and the clock drained,
// Close succeeds.
func TestCloseNamesLiveSlots(t *testing.T) {
	r := newRig(t, descriptors.HeapDesc{Name: "level", Capacity: 16})
	named := map[string]descriptors.Handle{}
	for _, names := range [][]string{{"hero", "freed"}, {"font page 2"}, {"skybox", ""}} {
		r.begin()
		for _, name := range names {
			hs := r.alloc(1)
			if err := r.heap.SetName(hs[0], name); err != nil {
				t.Fatal(err)
			}
			named[name] = hs[0]
		}
		r.end()
	}
	r.gpuCatchUp()
	r.begin()
	if err := r.heap.Free(named["freed"]); err != nil {
		t.Fatal(err)
	}
	r.end()
	r.drain()
	err := r.heap.Close()
	t.Logf("Close with four live slots: %v", err)
	if !errors.Is(err, descriptors.ErrInUse) {
		t.Fatalf("Close: %v, want ErrInUse", err)
	}
	for _, want := range []string{
		`heap "level" has 4 live and 0 pending slots`,
		`"hero": slot 0, created in frame 1`,
		`"font page 2": slot 2, created in frame 2`,
		`"skybox": slot 3, created in frame 3`,
		`"(unnamed)": slot 4, created in frame 3`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("leak report lacks %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "freed") {
		t.Errorf("leak report names a freed slot:\n%v", err)
	}
	live := r.heap.AppendLive(nil)
	if len(live) != 4 || live[0].Name != "hero" || live[3].Created != 3 {
		t.Fatalf("AppendLive: %v", live)
	}
	if err := r.heap.SetName(named["freed"], "stale"); !errors.Is(err, descriptors.ErrStaleHandle) {
		t.Errorf("SetName of a freed slot: %v", err)
	}
	r.begin()
	for _, l := range live {
		if err := r.heap.Free(l.Handle); err != nil {
			t.Fatal(err)
		}
	}
	r.end()
	r.drain()
	if err := r.heap.Close(); err != nil {
		t.Errorf("Close after freeing: %v", err)
	}
}

// A full heap logs one exhaustion record naming its three oldest live
// slots (slot order among slots of one frame), whatever the refusals
// that follow, until a slot is handed out again.
func TestExhaustionRecordNamesTheOldest(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(flatlog.New(&buf, flatlog.FormatText, nil))
	r := newRig(t, descriptors.HeapDesc{Name: "tiny", Capacity: 4, Logger: log})
	r.begin()
	hs := r.alloc(4)
	for i, name := range []string{"w", "x", "y", "z"} {
		if err := r.heap.SetName(hs[i], name); err != nil {
			t.Fatal(err)
		}
	}
	r.end()
	r.begin()
	if err := r.heap.FreeN(hs[:2]); err != nil {
		t.Fatal(err)
	}
	r.end()
	r.drain()
	r.begin()
	for _, name := range []string{"new1", "new2"} {
		h := r.alloc(1)[0]
		if err := r.heap.SetName(h, name); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		if _, err := r.heap.Alloc(); !errors.Is(err, descriptors.ErrHeapExhausted) {
			t.Fatalf("Alloc on a full heap: %v", err)
		}
	}
	r.end()
	// y and z are from frame 1; new2 took slot 0 (last in, first out:
	// x's slot 1 went to new1), both in frame 3.
	want := `msg="descriptors: heap exhausted" heap=tiny capacity=4 live=4 oldest_frame=1 oldest_1=y oldest_2=z oldest_3=new2`
	if got := countLines(&buf, "heap exhausted"); got != 1 || !strings.Contains(buf.String(), want) {
		t.Errorf("%d exhaustion records, want one holding %s:\n%s", got, want, buf.String())
	}
	r.begin()
	for _, l := range r.heap.AppendLive(nil) {
		if err := r.heap.Free(l.Handle); err != nil {
			t.Fatal(err)
		}
	}
	r.end()
}

// Naming, refusing on a full heap and its exhaustion record all run in
// steady frames: none allocates (with flatlog as the handler).
func TestNamesDoNotAllocate(t *testing.T) {
	log := slog.New(flatlog.New(io.Discard, flatlog.FormatText, nil))
	r := newRig(t, descriptors.HeapDesc{Capacity: 2, Logger: log})
	held := r.alloc(1)[0]
	testenv.NoAllocs(t, "a frame of Alloc, SetName, a refused Alloc with its record, Free", 200, func() {
		r.begin()
		h, err := r.heap.Alloc()
		if err == nil {
			err = r.heap.SetName(h, "sprite")
		}
		if _, refused := r.heap.Alloc(); refused == nil {
			t.Error("a full heap handed out a slot")
		}
		if err == nil {
			err = r.heap.Free(h)
		}
		if err != nil {
			t.Error(err)
		}
		r.end()
		r.gpuCatchUp()
	})
	if err := r.heap.Free(held); err != nil {
		t.Fatal(err)
	}
}
