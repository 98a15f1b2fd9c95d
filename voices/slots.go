package voices

import (
	"fmt"
	"sync/atomic"

	"github.com/steadyframe/steadyframe/lifetime/syncs"
)

// Handle names one playing voice: a slot index and the slot's
// generation when the voice started. It is a plain value, safe to copy
// and use from any goroutine. The zero Handle means "none" and is never
// valid. A handle goes stale, for good, once its voice ends. The slot's
// generation moves on, so a later voice in the same slot has a
// different handle. A slot whose 2^32 generations are spent is retired
// instead of reused (Stats.Retired). So no generation is ever issued
// twice.
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

// retiredGen is the generation of a retired slot: above every uint32, so
// no handle carries it.
const retiredGen = uint64(lastGen) + 1

// slotState is the part of a voice slot that producers may read: its
// generation, its free-stack link and the bank its voice reads. The mixer
// owns the rest (the voice struct).
type slotState struct {
	// gen is the generation the slot's voice's handle carries, or, while
	// the slot is free, the one its next voice's will: retire moves it on
	// as the voice ends, so the handle is stale from then on and a slot
	// needs no flag saying it is in use (setting one cost Play an atomic
	// store, 7 ns). A retired slot holds retiredGen.
	gen  atomic.Uint64
	next atomic.Uint32 // free-stack link: slot index + 1, 0 ends the stack
	bank atomic.Pointer[Bank]
}

// A pool's state word packs its free stack and its count, so that Play
// pops a slot and counts the voice against the format's cap in one
// compare-and-swap instead of two: tag<<32 | count<<20 | (top slot + 1).
// The tag changes with every push and pop, against ABA; the count changes
// alone through atomic adds (the mixer's, as voices end), which leave the
// stack and the tag as they are.
const (
	poolTopMask    = 1<<20 - 1 // top slot + 1, 0 for an empty stack: slots number at most MaxFormats × 2 × 1024 < 2^20
	poolCountShift = 20
	poolCountMask  = 1<<12 - 1 // the count never passes a cap, at most 1024
	poolCountOne   = uint64(1) << poolCountShift
	poolTagShift   = 32
)

// formatPool is the set of voice slots preconfigured for one source
// format. Producers pop free slots from a lock-free stack (Treiber, with a
// tag against ABA); the mixer pushes them back when a voice ends.
type formatPool struct {
	// state is the free stack and the count of voices counted against
	// cap (see poolTopMask).
	state atomic.Uint64
	peak  atomic.Int32
	// retired counts slots whose generations are spent: they are never
	// pushed back, so the pool has size-retired slots left.
	retired atomic.Int32
	format  Format
	fi      int    // format index, the position in Stats.Formats
	base    uint32 // first slot index
	size    uint32 // slots, including the steal reserve
	cap     int32  // most voices counted against this format at once
	// A cache line between one pool's state and the next's, so Plays of
	// one format and the mixer ending voices of another do not contend.
	_ [64]byte
}

// count returns the voices counted against p's cap now.
func (p *formatPool) count() int32 { return int32(p.state.Load()>>poolCountShift) & poolCountMask }

// addCount adds d to p's count, leaving its stack alone.
func (p *formatPool) addCount(d int32) { p.state.Add(uint64(int64(d)) << poolCountShift) }

// slotTable holds every voice slot's shared state and the per-format
// pools. Safe for concurrent use by producers and the mixer.
type slotTable struct {
	states []slotState
	cap    int32
	// word and peak have a cache line of their own: every Play reads and
	// writes word, and nothing else here changes often.
	_ [64]byte
	// word counts the voices under the total cap and up to three capped
	// buses' voices (buspack.go).
	word  atomic.Uint64
	peak  atomic.Int32 // most voices counted against the total cap at once
	_     [56]byte
	pools []formatPool      // one per format the engine pools, in EngineDesc.Formats order
	packs [MaxBuses]busPack // each bus's place in word (buspack.go)
}

// newSlotTable lays out pools of caps[i]*mult slots each (mult is 2 when
// stealing, so a stolen voice can fade out while its replacement plays).
func newSlotTable(total int, formats []Format, caps []int, mult int) *slotTable {
	t := &slotTable{cap: int32(total), pools: make([]formatPool, len(formats))}
	n := 0
	for i := range caps {
		n += caps[i] * mult
	}
	t.states = make([]slotState, n)
	base := uint32(0)
	for i := range t.pools {
		p := &t.pools[i]
		p.format, p.fi = formats[i], i
		p.base, p.size, p.cap = base, uint32(caps[i]*mult), int32(caps[i])
		// Push in reverse so the lowest slot is popped first: with the same
		// commands, the same slots are used, which keeps handles
		// deterministic too.
		for s := p.base + p.size; s > p.base; s-- {
			t.push(p, s-1, 0)
		}
		base += p.size
	}
	return t
}

// pool returns the pool of format f, or nil if the engine does not pool
// f. A scan of at most MaxFormats: no map, nothing allocated.
func (t *slotTable) pool(f Format) *formatPool {
	for i := range t.pools {
		if t.pools[i].format == f {
			return &t.pools[i]
		}
	}
	return nil
}

// acquire is Play's reservation: it pops a free slot of p and counts the
// voice against p's cap and the total cap. Under both caps it returns
// the slot, its generation (the new voice's) and no flags. Past one, it
// returns reasonCapped, leaving everything as it was, unless steal is
// set: then it returns the slot, uncounted, with cmdFlagSteal, for the
// mixer to find the voice a place or refuse it. With no free slot it
// returns reasonBusy. A voice on bus b, if b counts in the total's word
// (buspack.go), is counted against b's MaxVoices in the same
// compare-and-swap, and its flags carry cmdFlagBusCount. Past that cap it
// returns reasonBusCap, stealing or not.
//
// Every count that rises goes through a compare-and-swap against its cap,
// so no count, and so no peak, can ever pass its cap, however producers
// and the mixer interleave; and a peak is raised only once the whole
// reservation holds, so refused attempts do not inflate it. Two
// compare-and-swaps when the caps allow the voice: the format's count
// rides on the pop.
func (t *slotTable) acquire(p *formatPool, steal bool, b Bus) (uint32, uint32, uint8, refusalReason) {
	bp := t.pack(b)
	var w, gen uint64
	var n int32
	var own bool
	for {
		w = p.state.Load()
		n = int32(w>>poolCountShift) & poolCountMask
		own = n < p.cap
		if !own && !steal {
			return 0, 0, 0, reasonCapped
		}
		top := uint32(w & poolTopMask)
		if top == 0 {
			return 0, 0, 0, reasonBusy
		}
		// Read before the swap, the slot's link and generation hold if it
		// succeeds: the slot stayed on the stack (a pop or push in
		// between changes the tag), and a free slot's generation moves
		// only while it is off the stack.
		st := &t.states[top-1]
		gen = st.gen.Load()
		nw := (w>>poolTagShift+1)<<poolTagShift | w&(poolCountMask<<poolCountShift) | uint64(st.next.Load())
		if own {
			nw += poolCountOne
		}
		if p.state.CompareAndSwap(w, nw) {
			break
		}
	}
	s := uint32(w&poolTopMask) - 1
	if !own {
		if !t.reserveBus(bp) {
			t.push(p, s, 0)
			return 0, 0, 0, reasonBusCap
		}
		return s, uint32(gen), cmdFlagSteal | bp.flag, reasonNone
	}
	total, why := t.reserveTotalBus(bp)
	if why == reasonNone {
		syncs.StoreMaxInt32(&t.peak, total)
		syncs.StoreMaxInt32(&p.peak, n+1)
		return s, uint32(gen), bp.flag, reasonNone
	}
	if steal && why == reasonCapped {
		if t.reserveBus(bp) {
			p.addCount(-1)
			return s, uint32(gen), cmdFlagSteal | bp.flag, reasonNone
		}
		why = reasonBusCap
	}
	t.push(p, s, -1)
	return 0, 0, 0, why
}

// giveBack returns slot s to p's free stack with its generation as it
// is and, if counted, its places under the caps: for a Play that could
// not queue its command (no handle was issued, so the generation stays),
// and for retire once it has moved the generation on.
func (t *slotTable) giveBack(p *formatPool, s uint32, counted bool) {
	if !counted {
		t.push(p, s, 0)
		return
	}
	t.dropTotal()
	t.push(p, s, -1)
}

// reserveTotal counts one voice against the total cap and returns the new
// total, or returns false leaving it unchanged: reserveTotalBus with no
// bus, whose noPack field never fills.
func (t *slotTable) reserveTotal() (int32, bool) {
	n, why := t.reserveTotalBus(&noPack)
	return n, why == reasonNone
}

// reserve counts one voice against the total and format caps, without
// taking a slot, or returns false leaving both unchanged: the mixer's
// first try when it starts a Play that was refused a place.
func (t *slotTable) reserve(p *formatPool) bool {
	mine, ok := p.reserveFormat()
	if !ok {
		return false
	}
	total, ok := t.reserveTotal()
	if !ok {
		p.addCount(-1)
		return false
	}
	syncs.StoreMaxInt32(&t.peak, total)
	syncs.StoreMaxInt32(&p.peak, mine)
	return true
}

// reserveFormat counts one voice against p's cap only, and returns p's
// count with it, or false. It leaves the peak to its caller, which raises
// it once the voice is sure to play. The mixer uses it alone when a steal
// hands the victim's place in the total to a voice of another format.
func (p *formatPool) reserveFormat() (int32, bool) {
	for {
		w := p.state.Load()
		n := int32(w>>poolCountShift) & poolCountMask
		if n >= p.cap {
			return 0, false
		}
		if p.state.CompareAndSwap(w, w+poolCountOne) {
			return n + 1, true
		}
	}
}

// push returns slot s to p's free stack and adds dcount to p's count, in
// one compare-and-swap.
func (t *slotTable) push(p *formatPool, s uint32, dcount int32) {
	for {
		w := p.state.Load()
		t.states[s].next.Store(uint32(w & poolTopMask))
		count := uint64(int64(int32(w>>poolCountShift)&poolCountMask + dcount))
		if p.state.CompareAndSwap(w, (w>>poolTagShift+1)<<poolTagShift|count<<poolCountShift|uint64(s+1)) {
			return
		}
	}
}

// liveHandle reports whether h names a reserved or playing voice, and
// returns its slot. A free slot's generation is the one its next voice
// will carry, which no Play has handed out yet.
func (t *slotTable) liveHandle(h Handle) (uint32, bool) {
	s, ok := h.slot()
	if !ok || int(s) >= len(t.states) {
		return 0, false
	}
	return s, t.states[s].gen.Load() == uint64(h.gen())
}

// retire ends the voice in slot s: its handle goes stale, then the slot
// is free again, unless it has just used its last generation: then it is
// retired for good, never reissued, and counted (Stats.Retired), so the
// pool is visibly one slot smaller. With counted, the voice's places
// under the caps are given back too. The barrier holder alone calls it.
func (t *slotTable) retire(p *formatPool, s uint32, counted bool) {
	st := &t.states[s]
	st.bank.Store(nil)
	if g := st.gen.Load(); g < uint64(lastGen) {
		st.gen.Store(g + 1)
		t.giveBack(p, s, counted)
		return
	}
	st.gen.Store(retiredGen)
	if counted {
		t.dropTotal()
		p.addCount(-1)
	}
	p.retired.Add(1)
}
