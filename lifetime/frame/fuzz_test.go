package frame

import (
	"errors"
	"testing"
	"time"
)

// FuzzClockDeferred drives a Clock over manual fences and a Deferred that
// follows it with byte commands, checking them against a model of what
// each fence has really completed:
//   - serials are 1, 2, 3, ... and every failed call opens nothing;
//   - Completed never decreases and never claims a frame whose fence point
//     has not completed;
//   - an item is keyed to the newest frame when it is scheduled, and its
//     release runs only once that frame is complete, in scheduling order;
//   - every scheduled item is run, pending or refused, never lost, and
//     Close refuses while any is pending;
//   - once every fence completes, a Drain runs every pending item.
func FuzzClockDeferred(f *testing.F) {
	f.Add([]byte{0, 1, 0, 1, 0, 1, 0, 2, 3, 4})
	f.Add([]byte{0, 3, 3, 3, 1, 0, 1, 0, 1, 0, 1, 2, 5, 4, 6, 4})
	f.Add([]byte{0, 1, 0, 1, 0, 1, 6, 2, 0x12, 0x22, 6, 4, 0, 3, 1, 0, 1})
	f.Fuzz(func(t *testing.T, cmds []byte) {
		var fences []*CPUFence
		fr, err := NewClock(ClockDesc{
			InFlight: 3,
			Timeout:  time.Nanosecond, // a stuck fence fails at once
			NewFence: func() (Fence, error) {
				fc := NewCPUFence(true)
				fences = append(fences, fc)
				return fc, nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		dq, err := NewDeferred(fr, 4)
		if err != nil {
			t.Fatal(err)
		}
		rel := &keyReleaser{clock: fr, t: t}
		type point struct {
			fence *CPUFence
			armed uint64
		}
		points := map[uint64]point{} // ended serial -> its fence point
		done := func(s uint64) bool {
			p, ok := points[s]
			return ok && p.fence.completed.Load() >= p.armed
		}
		var next, lastCompleted uint64 = 1, 0
		var scheduled, refused []uint64 // serials, in scheduling order
		check := func() {
			c := fr.Completed()
			if c < lastCompleted {
				t.Fatalf("Completed went back from %d to %d", lastCompleted, c)
			}
			for s := lastCompleted + 1; s <= c; s++ {
				if !done(s) {
					t.Fatalf("Completed = %d claims frame %d, whose fence has not completed", c, s)
				}
			}
			lastCompleted = c
		}
		// live checks, after a clock call, that every item whose frame the
		// clock has completed has been released: keys never decrease in
		// scheduling order, so those are a prefix.
		live := func() {
			want := 0
			for want < len(scheduled) && scheduled[want] <= fr.Completed() {
				want++
			}
			if len(rel.args) != want {
				t.Fatalf("%d items released with frame %d complete, want %d (scheduled %v)",
					len(rel.args), fr.Completed(), want, scheduled)
			}
		}
		closed := false
		for _, b := range cmds {
			switch b & 0x0f % 7 {
			case 0:
				s, err := fr.BeginFrame()
				switch {
				case err == nil && s != next:
					t.Fatalf("BeginFrame = %d, want %d", s, next)
				case err == nil:
					next++
				case fr.Current() != 0 && !errors.Is(err, ErrFrameOrder):
					t.Fatalf("BeginFrame with a frame open = %v", err)
				case fr.Current() == 0 && !errors.Is(err, ErrFenceTimeout):
					t.Fatalf("BeginFrame = %v, want ErrFenceTimeout", err)
				}
			case 1:
				cur := fr.Current()
				if err := fr.EndFrame(); err == nil {
					fc := fences[fr.Slot(cur)]
					points[cur] = point{fc, fc.armed.Load()}
				} else if cur != 0 || !errors.Is(err, ErrFrameOrder) {
					t.Fatalf("EndFrame (open %d) = %v", cur, err)
				}
			case 2:
				fences[int(b>>4)%len(fences)].Complete()
			case 3:
				key := fr.Current()
				if key == 0 {
					key = next - 1
				}
				err := dq.Schedule(rel, key)
				switch {
				case closed:
					if !errors.Is(err, ErrClosed) {
						t.Fatalf("Schedule after Close = %v, want ErrClosed", err)
					}
				case err == nil:
					scheduled = append(scheduled, key)
				case errors.Is(err, ErrDeferredFull):
					refused = append(refused, key)
				default:
					t.Fatalf("Schedule = %v", err)
				}
			case 4:
				pending := dq.Pending()
				err := dq.Close()
				switch {
				case pending > 0 && !errors.Is(err, ErrPending):
					t.Fatalf("Close with %d pending = %v, want ErrPending", pending, err)
				case pending == 0 && err != nil:
					t.Fatalf("Close with nothing pending = %v", err)
				}
				closed = closed || pending == 0
			case 5:
				fr.Poll()
			case 6:
				err := fr.Drain()
				if err == nil && fr.Completed() != next-1 && fr.Current() == 0 {
					t.Fatalf("Drain succeeded with Completed %d of %d", fr.Completed(), next-1)
				}
			}
			check()
			if c := b & 0x0f % 7; c == 0 || c == 5 || c == 6 {
				live()
			}
		}
		for i, s := range rel.args {
			if s != scheduled[i] {
				t.Fatalf("release %d was frame %d's, want scheduling order %v", i, s, scheduled)
			}
		}
		st := dq.Stats()
		if len(rel.args)+dq.Pending() != len(scheduled) || st.Full != uint64(len(refused)) {
			t.Fatalf("ran %d + pending %d != scheduled %d, or refusals %d != %d",
				len(rel.args), dq.Pending(), len(scheduled), st.Full, len(refused))
		}
		// The device finishes everything: a drain then runs every item.
		if fr.Current() != 0 {
			if err := fr.EndFrame(); err != nil {
				t.Fatal(err)
			}
		}
		for _, fc := range fences {
			fc.Complete()
		}
		if err := fr.Drain(); err != nil {
			t.Fatal(err)
		}
		if dq.Pending() != 0 || len(rel.args) != len(scheduled) {
			t.Fatalf("after a full drain %d pending, %d of %d released", dq.Pending(), len(rel.args), len(scheduled))
		}
		if err := dq.Close(); err != nil {
			t.Fatal(err)
		}
		if err := fr.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

// keyReleaser records the keys it releases, in order, and fails the test
// when one is released before the clock has completed its frame.
type keyReleaser struct {
	clock *Clock
	t     *testing.T
	args  []uint64
}

func (r *keyReleaser) Release(key uint64) {
	if key > r.clock.Completed() {
		r.t.Fatalf("released frame %d's item with only %d complete", key, r.clock.Completed())
	}
	r.args = append(r.args, key)
}
