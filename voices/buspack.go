package voices

// The total's word (slotTable.word) packs the voices counted against
// the total cap with up to three capped buses' counts. Play's one
// compare-and-swap on it then counts a voice against the total and its
// bus's MaxVoices at once: an atomic fewer than a count of its own.
// docs/play-speed.md (Round 4) has the figures.
const (
	totalMask   = 1<<16 - 1 // bits 0-15: the total, at most MaxVirtual
	packBits    = 16        // bits per packed bus's count
	packedBuses = 3         // buses that fit in the word beside the total
)

// busPack is a bus's place in the total's word. A bus outside it (no
// cap, a cap above totalMask, or past the third capped bus) has noPack
// and keeps its count in busShared.count. Immutable after NewEngine.
type busPack struct {
	mask uint64 // the bus's field; 0 outside the word
	full uint64 // MaxVoices in the field's place: the count is never at or above it
	unit uint64 // one voice in the field; 0 outside the word
	flag uint8  // cmdFlagBusCount inside the word, else 0
}

// noPack is the busPack of a bus outside the word: its full is never
// reached, and it counts nothing.
var noPack = busPack{full: 1}

// packBuses gives the first three buses with a cap of at most
// totalMask their fields in the total's word.
func (t *slotTable) packBuses(bs []busConfig) {
	k := 0
	for i := range t.packs {
		t.packs[i] = noPack
		if i >= len(bs) {
			continue
		}
		b := &bs[i]
		if b.maxVoices <= 0 || b.maxVoices > totalMask || k == packedBuses {
			continue
		}
		k++
		shift := uint(k * packBits)
		t.packs[i] = busPack{mask: totalMask << shift, full: uint64(b.maxVoices) << shift, unit: 1 << shift, flag: cmdFlagBusCount}
	}
}

// pack returns bus b's place in the word. A Play's bus is checked
// before; the mask keeps a bad one in the table all the same, with no
// bounds check.
func (t *slotTable) pack(b Bus) *busPack { return &t.packs[uint(b)&(MaxBuses-1)] }

// packed reports whether bus b's count is in the word.
func (t *slotTable) packed(b Bus) bool { return t.pack(b).unit != 0 }

// busFull reports whether bus b, in the word, is at its cap now: Play's
// check in playExt, before the clip's limits, so refusals keep their
// order.
func (t *slotTable) busFull(b Bus) bool {
	bp := t.pack(b)
	return t.word.Load()&bp.mask >= bp.full
}

// reserveBus counts one voice against bp's bus alone, or returns false
// leaving it unchanged: for a Play that acquire does not count against
// the total (one that must steal).
func (t *slotTable) reserveBus(bp *busPack) bool {
	if bp.unit == 0 {
		return true
	}
	for {
		w := t.word.Load()
		if w&bp.mask >= bp.full {
			return false
		}
		if t.word.CompareAndSwap(w, w+bp.unit) {
			return true
		}
	}
}

// reserveTotalBus counts one voice against the total cap and bp's bus
// in one compare-and-swap and returns the new total, or the reason it
// refused (the bus's first), leaving both unchanged.
func (t *slotTable) reserveTotalBus(bp *busPack) (int32, refusalReason) {
	for {
		w := t.word.Load()
		if w&bp.mask >= bp.full {
			return 0, reasonBusCap
		}
		n := int32(w & totalMask)
		if n >= t.cap {
			return 0, reasonCapped
		}
		if t.word.CompareAndSwap(w, w+1+bp.unit) {
			return n + 1, reasonNone
		}
	}
}

// dropTotal gives back one voice's place under the total cap.
func (t *slotTable) dropTotal() { t.word.Add(^uint64(0)) }

// counted returns the voices counted against the total cap now.
func (t *slotTable) counted() int32 { return int32(t.word.Load() & totalMask) }

// dropBus gives back one voice's place under bus b's MaxVoices, in the
// total's word or in the bus's own count, sh.
func (t *slotTable) dropBus(b Bus, sh *busShared) {
	if bp := t.pack(b); bp.unit != 0 {
		t.word.Add(-bp.unit)
		return
	}
	sh.count.Add(-1)
}

// pack's mask needs MaxBuses a power of two: this fails to compile
// otherwise.
var _ [1]struct{} = [MaxBuses&(MaxBuses-1) + 1]struct{}{}
