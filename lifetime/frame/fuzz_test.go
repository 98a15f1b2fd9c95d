package frame

import (
	"errors"
	"testing"
	"time"
)

// FuzzClockDeferred drives a Frames over manual fences and a Deferred with
// byte commands, checking them against a model of what each fence has
// really completed:
//   - serials are 1, 2, 3, ... and every failed call opens nothing;
//   - Completed never decreases and never claims a frame whose fence point
//     has not completed;
//   - a release runs only once its frame is complete, in scheduling order,
//     and every scheduled item is run, pending or refused, never lost.
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
		dq, err := NewDeferred(4)
		if err != nil {
			t.Fatal(err)
		}
		rel := &countReleaser{args: make([]uint64, 0, len(cmds))}
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
				s := fr.Current()
				if s == 0 {
					s = next - 1
				}
				err := dq.Schedule(s, rel, s)
				switch {
				case err == nil:
					scheduled = append(scheduled, s)
				case errors.Is(err, ErrDeferredFull):
					refused = append(refused, s)
				default:
					t.Fatalf("Schedule = %v", err)
				}
			case 4:
				before := len(rel.args)
				dq.Run(fr.Completed())
				for _, s := range rel.args[before:] {
					if s > fr.Completed() {
						t.Fatalf("released frame %d's item with only %d complete", s, fr.Completed())
					}
				}
			case 5:
				fr.Poll()
			case 6:
				err := fr.Drain()
				if err == nil && fr.Completed() != next-1 && fr.Current() == 0 {
					t.Fatalf("Drain succeeded with Completed %d of %d", fr.Completed(), next-1)
				}
			}
			check()
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
	})
}
