package main

import (
	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/lifetime/frame"
)

// Slot states for the slot map.
const (
	slotUnused  = iota // never handed out
	slotFree           // used before, back on the free list
	slotLive           // holds a texture
	slotPending        // freed, waiting for the frames that could see it
)

// slotTracker is the demo's Texturer: it passes every call to the scene's
// and keeps each slot's state for the slot map. The heap reclaims a slot
// freed while frame N was the clock's newest once the clock reports frame
// N complete, so a freed slot reads pending until then and free after.
// Its tables are allocated once, for the heap's capacity. A slotTracker
// belongs to the render goroutine.
type slotTracker struct {
	tx      scene.Texturer
	clock   *frame.Clock
	live    []bool
	used    []bool
	freedAt []uint64 // the clock's newest frame when the slot was freed
}

func newSlotTracker(tx scene.Texturer, clock *frame.Clock, capacity int) *slotTracker {
	return &slotTracker{tx: tx, clock: clock, live: make([]bool, capacity), used: make([]bool, capacity),
		freedAt: make([]uint64, capacity)}
}

func (s *slotTracker) Create(w, h int, rgba []byte, f scene.Filter) (descriptors.Handle, error) {
	hd, err := s.tx.Create(w, h, rgba, f)
	if err == nil {
		if i := int(hd.Index()); i < len(s.live) {
			s.live[i], s.used[i] = true, true
		}
	}
	return hd, err
}

func (s *slotTracker) Free(hd descriptors.Handle) error {
	err := s.tx.Free(hd)
	if i := int(hd.Index()); err == nil && i < len(s.live) {
		s.live[i] = false
		s.freedAt[i] = s.clock.Stats().Last
	}
	return err
}

func (s *slotTracker) Name(hd descriptors.Handle) uint32 { return s.tx.Name(hd) }

// state returns slot i's state; completed is the clock's completed frame.
func (s *slotTracker) state(i int, completed uint64) int {
	switch {
	case s.live[i]:
		return slotLive
	case !s.used[i]:
		return slotUnused
	case s.freedAt[i] > completed:
		return slotPending
	}
	return slotFree
}
