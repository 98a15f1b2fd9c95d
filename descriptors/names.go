package descriptors

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
)

// note is what the heap remembers of a slot for its leak report and its
// exhaustion record: the handle last issued for it (the slot is live
// while the pool accepts it), the frame open at Alloc, and the debug name
// SetName gave it, the caller's string, kept and never copied.
type note struct {
	h    Handle
	born uint64
	name string
}

// noted records a slot Alloc or AllocN has just handed out. It is two
// stores, so the allocation paths stay as cheap as they were
// (BenchmarkChurn).
func (h *Heap) noted(hd Handle) {
	h.notes[hd.Index()] = note{h: hd, born: h.clock.Current()}
}

// SetName gives the live slot hd a debug name, which the leak report
// (Close, AppendLive) and the exhaustion record show. The heap keeps the
// string the caller passed, without copying it, so naming allocates
// nothing in steady frames; pass a string that does not change (a
// constant, or one built at load time). A stale or foreign handle returns
// the heap's error and changes nothing. It does not allocate.
func (h *Heap) SetName(hd Handle, name string) error {
	if h.closed {
		return h.refuse(ErrClosed, "SetName", hd)
	}
	if !h.pool.Valid(hd.h) {
		return h.badHandle("SetName", hd)
	}
	h.notes[hd.Index()].name = name
	return nil
}

// Live describes one live slot for a leak report: a plain value.
type Live struct {
	Handle Handle
	Name   string // as given to SetName; "" when never named
	// Created is the frame open when the slot was allocated (the clock's
	// Current); 0 when it was allocated between frames.
	Created uint64
}

// String formats l as the leak report lists it: the name, the slot and
// the frame it was created in. It allocates.
func (l Live) String() string {
	name := l.Name
	if name == "" {
		name = "(unnamed)"
	}
	when := "outside a frame"
	if l.Created != 0 {
		when = fmt.Sprintf("in frame %d", l.Created)
	}
	return fmt.Sprintf("%q: slot %d, created %s", name, l.Handle.Index(), when)
}

// AppendLive appends every live slot to dst in slot order and returns
// the extended slice. It allocates only when dst has no room; call it
// outside steady frames, since it visits every slot.
func (h *Heap) AppendLive(dst []Live) []Live {
	for _, n := range h.notes {
		if !h.closed && h.pool.Valid(n.h.h) {
			dst = append(dst, Live{Handle: n.h, Name: n.name, Created: n.born})
		}
	}
	return dst
}

// leaks formats the leak report Close returns: each live slot on a line
// of its own.
func (h *Heap) leaks() string {
	var b strings.Builder
	for _, l := range h.AppendLive(nil) {
		b.WriteString("\n\t")
		b.WriteString(l.String())
	}
	return b.String()
}

// exhaustedMsg is the message of the exhaustion record.
const exhaustedMsg = "descriptors: heap exhausted"

// logExhausted logs, at Warn, a refusal of a full heap, with its live
// count and its three oldest live slots by creation frame (slot order
// among equals): a full heap usually means slots that are never freed,
// and the oldest live ones are the likeliest leaks. It logs once per run
// of refusals (until a slot is handed out again), not once per refusal.
// The record carries five attributes, which a slog.Record holds without
// allocating, so with a handler that does not allocate (package flatlog)
// it may fire inside guarded frames. The scan over the slots runs on the
// first refusal of a run only.
func (h *Heap) logExhausted(allocs uint64, live int) {
	if h.exhaustedAt == allocs+1 {
		return
	}
	h.exhaustedAt = allocs + 1
	ctx := context.Background()
	if !h.occupancy.log.Enabled(ctx, slog.LevelWarn) {
		return
	}
	var oldest [3]int
	n := 0
	for i, s := range h.notes {
		if !h.pool.Valid(s.h.h) {
			continue
		}
		j := n
		if j < len(oldest) {
			n++
		} else if s.born >= h.notes[oldest[j-1]].born {
			continue
		} else {
			j--
		}
		for ; j > 0 && h.notes[oldest[j-1]].born > s.born; j-- {
			oldest[j] = oldest[j-1]
		}
		oldest[j] = i
	}
	var names [3]string
	var first uint64
	for k := range n {
		if names[k] = h.notes[oldest[k]].name; names[k] == "" {
			names[k] = "(unnamed)"
		}
	}
	if n > 0 {
		first = h.notes[oldest[0]].born
	}
	h.occupancy.log.LogAttrs(ctx, slog.LevelWarn, exhaustedMsg,
		slog.Int("live", live),
		slog.Uint64("oldest_frame", first),
		slog.String("oldest_1", names[0]),
		slog.String("oldest_2", names[1]),
		slog.String("oldest_3", names[2]))
}
