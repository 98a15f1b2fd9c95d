package voices

import (
	"fmt"
	"sync/atomic"
)

// Handle names one playing voice: a slot index and the slot's generation
// when the voice started. It is a plain value, safe to copy and use from
// any goroutine. The zero Handle means "none" and is never valid. A handle
// goes stale, for good, once its voice ends: the slot's generation moves
// on, so a later voice in the same slot has a different handle, and a slot
// whose 2^32 generations are spent is retired instead of reused
// (Stats.Retired), so no generation is ever issued twice.
type Handle uint64

func makeHandle(slot, gen uint32) Handle { return Handle(uint64(gen)<<32 | uint64(slot+1)) }

func (h Handle) slot() (uint32, bool) {
	s := uint32(h)
	return s - 1, s != 0
}

func (h Handle) gen() uint32 { return uint32(h >> 32) }

// String formats h as "slot N gen G", or "none" for the zero Handle: the
// form pools.Handle uses, so logs read the same for both.
func (h Handle) String() string {
	if h == 0 {
		return "none"
	}
	s, _ := h.slot()
	return fmt.Sprintf("slot %d gen %d", s, h.gen())
}

// lastGen is the last generation a slot issues. Retiring the slot there,
// rather than letting the counter wrap to 0, keeps every handle it ever
// issued stale for good.
const lastGen = ^uint32(0)

// slotState is the part of a voice slot that producers may read: its
// generation and whether it is reserved or playing. The mixer owns the
// rest (the voice struct).
type slotState struct {
	gen  atomic.Uint32
	live atomic.Bool
	next atomic.Uint32 // free-stack link: slot index + 1, 0 ends the stack
	bank atomic.Pointer[Bank]
}

// formatPool is the set of voice slots preconfigured for one source
// format. Producers pop free slots from a lock-free stack (Treiber, with a
// tag against ABA); the mixer pushes them back when a voice ends.
type formatPool struct {
	format Format
	fi     int    // format index, the position in Stats.Formats
	base   uint32 // first slot index
	size   uint32 // slots, including the steal reserve
	cap    int32  // most voices counted against this format at once
	active atomic.Int32
	peak   atomic.Int32
	head   atomic.Uint64 // tag<<32 | (slot index + 1)
	// retired counts slots whose generations are spent: they are never
	// pushed back, so the pool has size-retired slots left.
	retired atomic.Int32
}

// slotTable holds every voice slot's shared state and the per-format
// pools. Safe for concurrent use by producers and the mixer.
type slotTable struct {
	states []slotState
	pools  [NumFormats]formatPool
	total  atomic.Int32 // voices counted against the total cap
	peak   atomic.Int32 // most voices counted against the total cap at once
	cap    int32
	// retired counts slots retired for good, over every pool.
	retired atomic.Int32
}

// newSlotTable lays out pools of caps[i]*mult slots each (mult is 2 when
// stealing, so a stolen voice can fade out while its replacement plays).
func newSlotTable(total int, caps [NumFormats]int, mult int) *slotTable {
	t := &slotTable{cap: int32(total)}
	n := 0
	for i := range caps {
		n += caps[i] * mult
	}
	t.states = make([]slotState, n)
	base := uint32(0)
	for i := range t.pools {
		p := &t.pools[i]
		p.format, p.fi = formatAt(i), i
		p.base, p.size, p.cap = base, uint32(caps[i]*mult), int32(caps[i])
		// Push in reverse so the lowest slot is popped first: with the same
		// commands, the same slots are used, which keeps handles
		// deterministic too.
		for s := p.base + p.size; s > p.base; s-- {
			t.push(p, s-1)
		}
		base += p.size
	}
	return t
}

// reserve counts one voice against the total and format caps, or returns
// false leaving both unchanged. Every count that rises goes through a
// compare-and-swap against its cap, so no count, and so no peak, can ever
// pass its cap, however producers and the mixer interleave; and a peak is
// raised only once the whole reservation holds, so refused attempts do
// not inflate it.
func (t *slotTable) reserve(p *formatPool) bool {
	mine, ok := p.reserveFormat()
	if !ok {
		return false
	}
	for {
		n := t.total.Load()
		if n >= t.cap {
			p.active.Add(-1)
			return false
		}
		if t.total.CompareAndSwap(n, n+1) {
			raisePeak(&t.peak, n+1)
			raisePeak(&p.peak, mine)
			return true
		}
	}
}

// reserveFormat counts one voice against p's cap only, and returns p's
// count with it, or false. It leaves the peak to its caller, which raises
// it once the voice is sure to play. The mixer uses it alone when a steal
// hands the victim's place in the total to a voice of another format.
func (p *formatPool) reserveFormat() (int32, bool) {
	for {
		n := p.active.Load()
		if n >= p.cap {
			return 0, false
		}
		if p.active.CompareAndSwap(n, n+1) {
			return n + 1, true
		}
	}
}

// unreserve gives back a place reserve took: the voice was refused, or
// has ended.
func (t *slotTable) unreserve(p *formatPool) {
	p.active.Add(-1)
	t.total.Add(-1)
}

// raisePeak records n in peak if that is a new peak.
func raisePeak(peak *atomic.Int32, n int32) {
	for {
		pk := peak.Load()
		if n <= pk || peak.CompareAndSwap(pk, n) {
			return
		}
	}
}

// pop takes a free slot of p.
func (t *slotTable) pop(p *formatPool) (uint32, bool) {
	for {
		h := p.head.Load()
		idx := uint32(h)
		if idx == 0 {
			return 0, false
		}
		next := t.states[idx-1].next.Load()
		if p.head.CompareAndSwap(h, (h>>32+1)<<32|uint64(next)) {
			return idx - 1, true
		}
	}
}

// push returns slot s to p's free stack.
func (t *slotTable) push(p *formatPool, s uint32) {
	for {
		h := p.head.Load()
		t.states[s].next.Store(uint32(h))
		if p.head.CompareAndSwap(h, (h>>32+1)<<32|uint64(s+1)) {
			return
		}
	}
}

// liveHandle reports whether h names a reserved or playing voice, and
// returns its slot.
func (t *slotTable) liveHandle(h Handle) (uint32, bool) {
	s, ok := h.slot()
	if !ok || int(s) >= len(t.states) {
		return 0, false
	}
	st := &t.states[s]
	return s, st.gen.Load() == h.gen() && st.live.Load()
}

// retire ends the voice in slot s: its handle goes stale, then the slot
// is free again, unless it has just used its last generation: then it is
// retired for good, never reissued, and counted (Stats.Retired), so the
// pool is visibly one slot smaller. The barrier holder alone calls it.
func (t *slotTable) retire(p *formatPool, s uint32) {
	st := &t.states[s]
	st.bank.Store(nil)
	if st.gen.Load() == lastGen {
		st.live.Store(false)
		p.retired.Add(1)
		t.retired.Add(1)
		return
	}
	st.gen.Add(1)
	st.live.Store(false)
	t.push(p, s)
}
