package descriptors_test

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/lifetime/frame"
)

// A slot is reused with a new generation each time until its generation
// is spent (2^31-1 uses); then pools retires it for good instead of
// wrapping, so no stale handle can become valid again, and Stats counts
// it. Spending a generation takes 2^31-1 alloc/free/reclaim cycles, over a
// minute, so the test runs only with STEADYFRAME_LONG=1; pools' own tests
// cover the retirement rule in every build.
func TestSpentSlotRetiresForGood(t *testing.T) {
	if os.Getenv("STEADYFRAME_LONG") != "1" {
		t.Skip("2^31 alloc/free cycles; set STEADYFRAME_LONG=1 to run")
	}
	clock, err := frame.NewClock(frame.ClockDesc{})
	if err != nil {
		t.Fatal(err)
	}
	// Two slots: slot 0 cycles at 50% occupancy, below the warnings, and
	// slot 1 is what Alloc takes once slot 0 has retired.
	h, err := descriptors.NewHeap(descriptors.HeapDesc{Capacity: 2, Clock: clock, Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	first, _ := h.Alloc()
	last, uses := first, 1
	var next descriptors.Handle
	for {
		if err := h.Free(last); err != nil {
			t.Fatalf("use %d: Free(%v): %v", uses, last, err)
		}
		clock.Poll() // frame 0 is complete: the slot is reclaimed, or retired
		if next, err = h.Alloc(); err != nil {
			t.Fatalf("use %d: Alloc: %v", uses+1, err)
		}
		if next.Index() != 0 {
			break
		}
		if next.Generation() != last.Generation()+2 {
			t.Fatalf("use %d: %v after %v", uses+1, next, last)
		}
		last, uses = next, uses+1
	}
	t.Logf("%d uses of slot 0 in %v; the last handle was %v", uses, time.Since(start), last)
	if uses != 1<<31-1 {
		t.Errorf("slot 0 retired after %d uses, want 2^31-1", uses)
	}
	if st := h.Stats(); st.Retired != 1 || st.Free != 0 || st.Live != 1 || st.Pending != 0 || st.Capacity != 2 {
		t.Errorf("stats after slot 0 retired: %+v", st)
	}
	if _, err := h.Alloc(); !errors.Is(err, descriptors.ErrHeapExhausted) {
		t.Errorf("Alloc with slot 0 retired and slot 1 live: %v, want ErrHeapExhausted", err)
	}
	if last := h.LastRefusal(); last.Retired != 1 || !strings.Contains(last.String(), "retired 1") {
		t.Errorf("the exhaustion does not name the retired slot: %v", last)
	}
	for _, old := range []descriptors.Handle{first, last} {
		if h.Valid(old) {
			t.Errorf("%v valid after its slot retired", old)
		}
		if err := h.Free(old); !errors.Is(err, descriptors.ErrStaleHandle) {
			t.Errorf("Free(%v) after its slot retired: %v, want ErrStaleHandle", old, err)
		}
	}
	if err := h.Free(next); err != nil {
		t.Fatal(err)
	}
	if err := clock.Drain(); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if err := clock.Close(); err != nil {
		t.Fatal(err)
	}
}
