package main

import (
	"strconv"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/internal/scene"
)

const (
	// leakEvery is how many frames apart the leak's level loads come.
	leakEvery = 15
	// stormPlays is how many plays the voice storm issues in one frame.
	stormPlays = 300
	// floodFrames is how long an upload flood lasts.
	floodFrames = 120
)

// storms are the budgets a person can push past their limits from the
// keyboard, and watch fill and recover on the overlay: L starts a leak (a
// level load every leakEvery frames that never frees its textures, until
// the heap refuses) and, pressed again, fixes it (frees them all); V plays
// stormPlays sounds in one frame; U floods the upload arenas for
// floodFrames frames (each frame fills what the demo left of every
// region, and asks for one byte more, which is refused). While the leak
// holds textures, the demo's own quality swaps and rebakes wait, as a
// game would not reload while its heap is exhausted. Storage is allocated
// once; nothing allocates per frame. storms belong to the render
// goroutine.
type storms struct {
	leaking    bool
	leaked     []descriptors.Handle
	n          int
	nextLeak   uint64
	refused    uint64
	floodUntil uint64
	flooded    uint64 // flood allocations refused
	stormed    uint64 // storm plays issued
	px         []byte
}

func newStorms(capacity int) *storms {
	s := &storms{leaked: make([]descriptors.Handle, capacity), px: make([]byte, 16*16*4)}
	scene.Fill(s.px, 0x1eaf)
	return s
}

// holding reports whether leaked textures are still held.
func (s *storms) holding() bool { return s.n > 0 }

// press handles the storm keys; it reports whether k was one.
func (s *storms) press(d *demo, k byte) bool {
	switch k {
	case 'L':
		if s.leaking || s.n > 0 {
			s.fix(d)
		} else {
			s.leaking, s.nextLeak = true, d.frame
		}
	case 'V':
		for i := range stormPlays {
			d.play(i%scene.Effects, 0.2, 0)
			s.stormed++
		}
	case 'U':
		s.floodUntil = d.frame + floodFrames
	default:
		return false
	}
	return true
}

// fix frees every leaked texture: the slots go pending, then free.
func (s *storms) fix(d *demo) {
	for i := range s.n {
		_ = d.slots.Free(s.leaked[i])
		s.leaked[i] = descriptors.Handle{}
	}
	s.n, s.leaking = 0, false
}

// frame runs the leak's load when one is due.
func (s *storms) frame(d *demo) {
	if !s.leaking || d.frame < s.nextLeak {
		return
	}
	s.nextLeak = d.frame + leakEvery
	for range scene.LevelTextures {
		if s.n == len(s.leaked) {
			break
		}
		h, err := d.slots.Create(16, 16, s.px, scene.FilterLinear)
		if err != nil {
			// descriptors.ErrHeapExhausted: the heap refuses, counted.
			s.refused++
			continue
		}
		s.leaked[s.n] = h
		s.n++
	}
}

// flood fills what is left of every arena's region this frame and asks
// for one byte more, which the arena refuses and counts.
func (s *storms) flood(d *demo) {
	if d.frame >= s.floodUntil {
		return
	}
	for k := range scene.ArenaCount {
		a := d.r.Set.Arena(k)
		if n := a.Remaining(); n > 0 {
			if _, view, ok := a.TryAlloc(n, 1); ok {
				scene.Fill(view, d.frame)
			}
		}
		if _, _, ok := a.TryAlloc(256, 1); !ok {
			s.flooded++
		}
	}
}

// appendStatus appends the storms' state for the overlay.
func (s *storms) appendStatus(b []byte) []byte {
	b = append(b, "LEAKED "...)
	b = strconv.AppendInt(b, int64(s.n), 10)
	b = append(b, " REFUSED "...)
	b = strconv.AppendUint(b, s.refused, 10)
	b = append(b, "  FLOOD "...)
	b = strconv.AppendUint(b, s.flooded, 10)
	return b
}
