package voices

import (
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
