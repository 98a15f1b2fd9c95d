package main

import (
	"time"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/voices"
)

// histLen is how many frames the overlay's graphs show: the last four
// seconds at 60 Hz.
const histLen = 240

// histSample is one frame of the overlay's history.
type histSample struct {
	live, pending, highWater, capacity int
	frameTime                          time.Duration
	arenaPct                           [scene.ArenaCount]float32
	voices, maxVoices                  int
}

// history is a ring of the last histLen frames, allocated with the demo:
// adding a frame allocates nothing. It belongs to the render goroutine.
type history struct {
	ring [histLen]histSample
	n    int // frames added, capped at histLen
	next int // where the next frame goes
}

// add records one frame.
func (h *history) add(hs descriptors.Stats, dt time.Duration, arenas *[scene.ArenaCount]float32, vs *voices.Stats) {
	h.ring[h.next] = histSample{
		live: hs.Live, pending: hs.Pending, highWater: hs.HighWater, capacity: hs.Capacity,
		frameTime: dt, arenaPct: *arenas, voices: vs.Active, maxVoices: vs.MaxVoices,
	}
	h.next = (h.next + 1) % histLen
	h.n = min(h.n+1, histLen)
}

// at returns the i-th oldest frame kept (0 ≤ i < len).
func (h *history) at(i int) *histSample {
	return &h.ring[(h.next-h.n+i+histLen)%histLen]
}

// len returns the frames kept.
func (h *history) len() int { return h.n }
