package voices

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Plays from 8 goroutines on capped buses while the mixer ends voices:
// no bus ever mixes more voices than its cap, places are reused, and
// every count returns to 0. Under PolicySteal (the total full, so Plays
// take the stealing path) and StartLatency (Plays counted on the bus
// but not the total until they start) too.
func TestBusCapConcurrent(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    EngineDesc
	}{
		{"refuse", EngineDesc{MaxVoices: 1024}},
		{"steal", EngineDesc{MaxVoices: 8, Policy: PolicySteal}},
		{"latency", EngineDesc{MaxVoices: 1024, StartLatency: 5 * time.Millisecond}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.d
			d.QueueSize = 1 << 14
			d.Buses = []BusDesc{{Name: "big", MaxVoices: 1 << 16}, {Name: "a", MaxVoices: 5},
				{Name: "b", MaxVoices: 7}, {Name: "c", MaxVoices: 3}, {Name: "d", MaxVoices: 6}}
			e, dev := offlineEngine(t, d)
			_, clip := clipOf(t, e, "short", mono48f, dcPCM(mono48f, 300, 0.1), ClipDesc{})
			caps := []int{0, 1 << 16, 5, 7, 3, 6} // Master first
			var played [6]atomic.Int64
			var over atomic.Value
			// A packed bus's count (buspack.go) never passes its cap: the
			// compare-and-swap checks it. An unpacked one's may, for a
			// moment, as a losing Play adds and takes back; the voices
			// the mixer has on it never do. "big" (above totalMask) and
			// "d" (the fourth capped bus) are unpacked, a, b and c packed.
			for i, want := range []bool{false, false, true, true, true, false} {
				if e.slots.packed(Bus(i)) != want {
					t.Fatalf("bus %d packed %v, want %v", i, !want, want)
				}
			}
			check := func() {
				for i, n := range busCounts(e) {
					if e.slots.packed(Bus(i)) && n > caps[i] {
						over.Store(fmt.Sprintf("bus %d: %d voices counted, cap %d", i, n, caps[i]))
					}
				}
			}
			checkMix := func() {
				s := e.Stats()
				for i := 1; i < len(caps); i++ {
					if n := s.Buses[i].Voices; n > caps[i] {
						over.Store(fmt.Sprintf("bus %d: %d voices mixed, cap %d", i, n, caps[i]))
					}
				}
			}
			var blocks atomic.Int64 // renders done
			stop := make(chan struct{})
			var mixing sync.WaitGroup
			mixing.Add(1)
			go func() { // the device: ends the short voices as Plays come in
				defer mixing.Done()
				b := make([]byte, 256*8)
				for {
					select {
					case <-stop:
						return
					default:
					}
					if _, err := dev.Render(b); err != nil {
						t.Error(err)
						return
					}
					check()
					checkMix()
					blocks.Add(1)
				}
			}()
			var wg sync.WaitGroup
			for g := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					// Until the mixer has ended voices many times over:
					// 40 renders of 256 frames from its start, the clip
					// being 300.
					// Under StartLatency a voice starts by its Play's
					// wall-clock time, so on a loaded machine 40 renders
					// may pass before the first places free: go on, up to
					// 10 s, until every capped bus has reused a place.
					b0, start := blocks.Load(), time.Now()
					reused := func() bool {
						for j := 2; j < len(caps); j++ {
							if played[j].Load() <= int64(caps[j]) {
								return false
							}
						}
						return true
					}
					for i := 0; (i < 2000 || blocks.Load() < b0+40 || !reused()) && time.Since(start) < 10*time.Second; i++ {
						b := Bus(1 + (g+i)%5)
						_, err := e.Play(clip, PlayDesc{Bus: b})
						switch {
						case err == nil:
							played[b].Add(1)
						case !errors.Is(err, ErrNoVoice) && !errors.Is(err, ErrQueueFull):
							t.Errorf("Play on bus %d: %v", b, err)
							return
						}
						check()
					}
				}()
			}
			wg.Wait()
			close(stop)
			mixing.Wait()
			if s, ok := over.Load().(string); ok {
				t.Fatal(s)
			}
			for i := 2; i < 6; i++ {
				if played[i].Load() <= int64(caps[i]) {
					t.Errorf("bus %d: %d Plays, no more than its cap %d: the mixer freed no places", i, played[i].Load(), caps[i])
				}
			}
			if r := e.Stats().LastRefusal; r.Reason == "" {
				t.Error("no Play was refused")
			}
			renderMix(t, e, dev, 48000)
			for i, n := range busCounts(e) {
				if n != 0 {
					t.Errorf("bus %d: %d voices counted once every voice ended", i, n)
				}
			}
			if n := e.slots.counted(); n != 0 {
				t.Errorf("total: %d voices counted once every voice ended", n)
			}
		})
	}
}
