package voices

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// busCounts returns each bus's count against its MaxVoices, from the
// total's word for a packed bus and from its own count otherwise.
func busCounts(e *Engine) []int {
	w := e.slots.word.Load()
	n := make([]int, len(e.buses))
	for i := range e.buses {
		if p := e.slots.pack(Bus(i)); p.unit != 0 {
			n[i] = int((w & p.mask) / p.unit)
		} else {
			n[i] = int(e.busSh[i].count.Load())
		}
	}
	return n
}

// The first three capped buses with caps up to totalMask ride in the
// total's word; a bus capped above it and a fourth capped bus do not.
func TestBusPackLayout(t *testing.T) {
	e, _ := offlineEngine(t, EngineDesc{Buses: []BusDesc{
		{Name: "big", MaxVoices: totalMask + 1}, {Name: "free"}, {Name: "a", MaxVoices: 5},
		{Name: "b", MaxVoices: totalMask}, {Name: "c", MaxVoices: 1}, {Name: "d", MaxVoices: 6}}})
	wantUnit := []uint64{0, 0, 0, 1 << 16, 1 << 32, 1 << 48, 0}
	for i := range MaxBuses {
		p, want := e.slots.pack(Bus(i)), uint64(0)
		if i < len(wantUnit) {
			want = wantUnit[i]
		}
		if p.unit != want {
			t.Errorf("bus %d: unit %#x, want %#x", i, p.unit, want)
		}
		if p.unit != 0 && p.flag != cmdFlagBusCount || p.unit == 0 && (p.flag != 0 || *p != noPack) {
			t.Errorf("bus %d: %+v", i, *p)
		}
	}
}

// Plays from 8 goroutines on capped buses, packed and not, while the
// mixer ends voices: no bus ever passes its cap, refusals are the bus's,
// and every count returns to 0. Under PolicySteal (the total full, so
// Plays take the stealing path) and StartLatency (Plays counted on the
// bus but not the total until they start) too.
func TestBusPackConcurrentCaps(t *testing.T) {
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
			d.Buses = []BusDesc{{Name: "big", MaxVoices: totalMask + 1}, {Name: "a", MaxVoices: 5},
				{Name: "b", MaxVoices: 7}, {Name: "c", MaxVoices: 3}, {Name: "d", MaxVoices: 6}}
			e, dev := offlineEngine(t, d)
			_, clip := clipOf(t, e, "short", mono48f, dcPCM(mono48f, 300, 0.1), ClipDesc{})
			caps := []int{0, totalMask + 1, 5, 7, 3, 6} // Master first
			var played [6]atomic.Int64
			var over atomic.Value
			// A packed bus's count never passes its cap: the
			// compare-and-swap checks it. An unpacked one's may, for a
			// moment, as a losing Play adds and takes back; the voices
			// the mixer has on it never do.
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
					b0 := blocks.Load()
					for i := 0; i < 2000 || blocks.Load() < b0+40 && i < 1<<22; i++ {
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

// A packed bus refuses with its own reason before a clip's cooldown
// does, as an unpacked bus does, and a refusal leaves its count alone.
func TestBusPackRefusalOrder(t *testing.T) {
	for _, buses := range [][]BusDesc{
		{{Name: "x", MaxVoices: 1}},
		{{Name: "p1", MaxVoices: 1}, {Name: "p2", MaxVoices: 1}, {Name: "p3", MaxVoices: 1}, {Name: "x", MaxVoices: 1}},
	} {
		e, _ := offlineEngine(t, EngineDesc{Buses: buses})
		x, _ := e.Bus("x")
		packed := e.slots.packed(x)
		_, clip := clipOf(t, e, "cd", mono48f, dcPCM(mono48f, 48000, 0.1), ClipDesc{Cooldown: time.Second})
		if _, err := e.Play(clip, PlayDesc{Bus: x}); err != nil {
			t.Fatal(err)
		}
		_, err := e.Play(clip, PlayDesc{Bus: x})
		if r := e.Stats().LastRefusal; err != ErrNoVoice || r.Reason != reasons[reasonBusCap].text {
			t.Errorf("packed %v: second Play: %v, %v; want the bus cap's refusal", packed, err, r)
		}
		if n := busCounts(e)[x]; n != 1 {
			t.Errorf("packed %v: %d counted on the bus, want 1", packed, n)
		}
		if c := e.Stats().Cooldowns; c != 0 {
			t.Errorf("packed %v: %d cooldown refusals, want 0", packed, c)
		}
	}
}
