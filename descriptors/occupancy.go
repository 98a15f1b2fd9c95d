package descriptors

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"
)

// Occupancy warning levels, in percent of capacity in use (live plus
// pending: a pending slot is as unavailable as a live one). A level warns
// once when occupancy rises to it and re-arms only when occupancy falls
// Hysteresis points below it, so a heap hovering at a level does not
// flood the log.
const (
	WarnLevel1 = 75
	WarnLevel2 = 90
	Hysteresis = 5
)

var warnLevels = [...]int{WarnLevel1, WarnLevel2}

// occupancy holds the heap's logging state.
type occupancy struct {
	log      *slog.Logger
	interval time.Duration
	now      func() time.Time
	last     time.Time
	armed    [len(warnLevels)]bool
	warnings uint64
	lines    uint64
}

func (o *occupancy) init(d HeapDesc) {
	o.log = d.Logger
	if o.log == nil {
		o.log = slog.Default()
	}
	o.interval = d.LogInterval
	o.now = d.Now
	if o.now == nil {
		o.now = time.Now
	}
	for i := range o.armed {
		o.armed[i] = true
	}
}

// over reports whether inUse is at or above pct percent of capacity,
// in integers so that 768 of 1024 is exactly 75%.
func over(inUse, capacity, pct int) bool { return inUse*100 >= pct*capacity }

// rise warns for each armed level that occupancy has reached.
func (o *occupancy) rise(h *Heap) {
	inUse := h.live + h.pending
	for i, lvl := range warnLevels {
		if o.armed[i] && over(inUse, len(h.gen), lvl) {
			o.armed[i] = false
			o.warnings++
			s := h.Stats()
			o.log.LogAttrs(context.Background(), slog.LevelWarn,
				fmt.Sprintf("descriptors: heap %q crossed %d%% occupancy", h.name, lvl), s.attrs()...)
		}
	}
}

// fall re-arms each level occupancy has dropped clearly below.
func (o *occupancy) fall(h *Heap) {
	inUse := h.live + h.pending
	for i, lvl := range warnLevels {
		if !o.armed[i] && !over(inUse, len(h.gen), lvl-Hysteresis) {
			o.armed[i] = true
		}
	}
}

// tick logs the periodic occupancy line when it is due.
func (o *occupancy) tick(h *Heap) {
	if o.interval == 0 {
		return
	}
	now := o.now()
	if !o.last.IsZero() && now.Sub(o.last) < o.interval {
		return
	}
	o.last = now
	o.lines++
	o.log.LogAttrs(context.Background(), slog.LevelInfo, "descriptors: occupancy", h.Stats().attrs()...)
}

// Stats is a snapshot of a heap's occupancy and counters: a plain value,
// safe to hand to any goroutine once Heap.Stats (on the render goroutine)
// has returned it.
type Stats struct {
	Name      string
	Capacity  int
	Live      int // slots with valid handles
	Pending   int // freed slots waiting for their frames to complete
	Peak      int // most slots live at once
	HighWater int // slots ever used; never-used slots lie above it
	Free      int // slots Alloc can hand out now: Capacity - Live - Pending

	Allocs    uint64 // slots handed out
	Recycled  uint64 // of which came from the free list
	Frees     uint64 // handles freed
	Retired   uint64 // freed slots returned to the free list
	Refused   uint64 // Alloc/AllocN calls refused with ErrHeapExhausted
	Warnings  uint64 // occupancy warnings logged
	LogLines  uint64 // periodic occupancy lines logged
	Frame     uint64 // serial from the last BeginFrame
	FreeStack int    // retired slots waiting on the free list
}

// Stats returns the heap's counters. It does not allocate.
func (h *Heap) Stats() Stats {
	return Stats{
		Name: h.name, Capacity: len(h.gen), Live: h.live, Pending: h.pending, Peak: h.peak,
		HighWater: h.highWater, Free: len(h.gen) - h.live - h.pending,
		Allocs: h.allocs, Recycled: h.recycled, Frees: h.frees, Retired: h.retired, Refused: h.refused,
		Warnings: h.occupancy.warnings, LogLines: h.occupancy.lines, Frame: h.serial, FreeStack: len(h.free),
	}
}

// InUse returns the slots that Alloc cannot hand out: live plus pending.
func (s Stats) InUse() int { return s.Live + s.Pending }

// Percent returns InUse as a percentage of Capacity.
func (s Stats) Percent() float64 {
	if s.Capacity == 0 {
		return 0
	}
	return 100 * float64(s.InUse()) / float64(s.Capacity)
}

// String formats the stats as one fixed-width line that reads well when
// printed every second:
//
//	textures  239/1024 ( 23.3%) [#####...............] live 239 pending   0 peak 275 high-water 275 recycled 43
func (s Stats) String() string {
	const width = 20
	filled := s.InUse() * width / max(s.Capacity, 1)
	bar := strings.Repeat("#", filled) + strings.Repeat(".", width-filled)
	w := len(fmt.Sprint(s.Capacity))
	return fmt.Sprintf("%-9s %*d/%d (%5.1f%%) [%s] live %*d pending %*d peak %*d high-water %*d recycled %d",
		s.Name, w, s.InUse(), s.Capacity, s.Percent(), bar, w, s.Live, w, s.Pending, w, s.Peak, w, s.HighWater, s.Recycled)
}

// attrs are the structured fields of the warnings and the periodic line,
// in a fixed order so consecutive lines line up.
func (s Stats) attrs() []slog.Attr {
	return []slog.Attr{
		slog.String("heap", s.Name),
		slog.String("in_use", fmt.Sprintf("%d/%d", s.InUse(), s.Capacity)),
		slog.String("pct", fmt.Sprintf("%.1f", s.Percent())),
		slog.Int("live", s.Live),
		slog.Int("pending", s.Pending),
		slog.Int("peak", s.Peak),
		slog.Int("high_water", s.HighWater),
		slog.Uint64("recycled", s.Recycled),
		slog.Uint64("frame", s.Frame),
	}
}
