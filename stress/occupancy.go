package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/upload"
)

// occupancyLog writes the descriptor occupancy line users watch, through
// log/slog (text or JSON). It runs inside guarded frames, so it is built
// not to allocate: the message, with the capacity in it, is formatted once
// at start-up, and each line carries five attributes, which slog.Record
// stores inline (a sixth would spill to the heap). The heap's own periodic
// line (descriptors.HeapDesc.LogInterval) is allocation-free too but
// carries only the heap's numbers; this one adds arena use, so the stress
// tool leaves the heap's off and logs this one.
//
// An occupancyLog belongs to the render goroutine.
type occupancyLog struct {
	log    *slog.Logger
	msg    string
	arena  string
	every  time.Duration
	next   time.Duration
	arenas []*upload.Arena
	lines  uint64
}

func newOccupancyLog(log *slog.Logger, capacity int, every time.Duration, arenas []*upload.Arena) *occupancyLog {
	return &occupancyLog{
		log:    log,
		msg:    fmt.Sprintf("descriptor occupancy (capacity %d)", capacity),
		arena:  "upload arenas (bytes this frame: renderer, sprites, particles)",
		every:  every,
		next:   every,
		arenas: arenas,
	}
}

// Due reports whether a line is due at elapsed.
func (o *occupancyLog) Due(elapsed time.Duration) bool { return o.every > 0 && elapsed >= o.next }

// Write logs the line for s and the arenas' use in the open frame. It
// does not allocate once slog's buffer pool is warm.
func (o *occupancyLog) Write(elapsed time.Duration, s descriptors.Stats) {
	o.next = nextTick(o.next, o.every, elapsed)
	o.lines++
	ctx := context.Background()
	o.log.LogAttrs(ctx, slog.LevelInfo, o.msg,
		slog.Int("live", s.Live),
		slog.Int("pending", s.Pending),
		slog.Int("peak", s.Peak),
		slog.Int("high_water", s.HighWater),
		slog.Float64("pct", float64(int(s.Percent()*10))/10),
	)
	if len(o.arenas) == arenaCount {
		o.log.LogAttrs(ctx, slog.LevelInfo, o.arena,
			slog.Int("renderer", o.arenas[0].Stats().Used),
			slog.Int("sprites", o.arenas[1].Stats().Used),
			slog.Int("particles", o.arenas[2].Stats().Used),
			slog.Uint64("frame", s.Frame),
		)
	}
}
