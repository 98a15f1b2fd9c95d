package main

import (
	"fmt"
	"strings"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/internal/scene"
)

// leakEvery is how many frames apart the leaking level transitions come.
const leakEvery = 12

// leakRoundsExhausted is how many transitions keep trying once the heap
// is exhausted, each refused texture by texture.
const leakRoundsExhausted = 4

// Leak stages, in order.
const (
	leakClimb     = iota // a level load every leakEvery frames, never freeing the last
	leakExhausted        // the heap refuses; the loads go on and are counted
	leakFixing           // the fix freed every leaked texture: wait for the slots to retire
	leakRearm            // leak again to 75%: the warning must fire again
	leakRearmFree        // free those too and wait
	leakDone
)

// leak is a level transition that forgets to free its textures, repeated
// until the heap is exhausted: the 75% and 90% warnings must each fire
// once on the crossing, the exhaustion error must quote live, peak and
// capacity, refused creations are counted, and frames keep their pace.
// Then the fix frees them, occupancy falls back, and hysteresis re-arms
// the warnings: a leak to 75% warns again. It creates its textures
// through the scene's Texturer (GL textures in a window), not the scene's
// population, which is left alone. A leak belongs to the render goroutine.
type leak struct {
	handles []descriptors.Handle
	n       int
	px      []byte
	stage   int
	next    int // the frame of the phase at which the next load comes
	w0      uint64
	base    int // slots in use when the phase began
	cap     int

	maxInUse    int
	rounds      int
	created     uint64
	refused     uint64
	exhaustedAt int // rounds
	err         error
	errStats    descriptors.Stats   // the heap when it refused last
	last        descriptors.Refusal // the heap's account of that refusal
	// mismatch is the first load after which the heap had warned a
	// number of times other than the levels crossed: its round, slots in
	// use, and the count got and wanted (round 0: none).
	mismatch [4]int
	// warnedAt is the slots in use after the load that raised the
	// warnings to 1 and to 2; 0 if never.
	warnedAt    [2]int
	fixedFrames int
	fixedInUse  int
	rearmInUse  int
	rearmWarn   uint64
	otherErr    error
}

func (*leak) name() string { return "leak" }

func (l *leak) start(r *renderer) {
	st := r.heap.Stats()
	l.cap = st.Capacity
	if l.handles == nil || len(l.handles) < l.cap {
		// Sized once, at construction, for the heap the renderer has;
		// start only resets it (see newRenderer's prepare).
		panic("stress: leak scenario not prepared")
	}
	l.w0, l.base = st.Warnings, st.Live+st.Pending
}

// prepare allocates the leak's storage before any frame is guarded.
func (l *leak) prepare(capacity int) {
	l.handles = make([]descriptors.Handle, capacity)
	l.px = make([]byte, 16*16*4)
	scene.Fill(l.px, 0x1eaf)
}

func (l *leak) frame(r *renderer, i int) bool {
	switch l.stage {
	case leakClimb, leakExhausted:
		if i < l.next {
			return false
		}
		l.next = i + leakEvery
		l.load(r, scene.LevelTextures, l.cap)
		l.rounds++
		if l.stage == leakExhausted {
			l.exhaustedAt++
			if l.exhaustedAt >= leakRoundsExhausted {
				l.freeAll(r)
				l.stage = leakFixing
				l.next = i
			}
		} else if l.refused > 0 {
			l.stage = leakExhausted
		}
	case leakFixing, leakRearmFree:
		st := r.heap.Stats()
		l.fixedFrames++
		if st.Pending == 0 && st.Live+st.Pending <= l.base {
			if l.stage == leakRearmFree {
				l.stage = leakDone
				return true
			}
			l.fixedInUse = st.Live + st.Pending
			l.stage = leakRearm
		}
	case leakRearm:
		// One frame's loads up to the 75% level exactly.
		want := (descriptors.WarnLevel1*l.cap + 99) / 100
		st := r.heap.Stats()
		l.load(r, want-(st.Live+st.Pending), want)
		st = r.heap.Stats()
		l.rearmInUse, l.rearmWarn = st.Live+st.Pending, st.Warnings-l.w0
		l.freeAll(r)
		l.stage = leakRearmFree
	}
	return false
}

// load creates up to n textures, stopping short of limit slots in use,
// and keeps them: nothing frees them. A refusal is counted; the heap's
// error is kept as the heap returned it (formatting it would allocate;
// the verdict reads it after the run).
func (l *leak) load(r *renderer, n, limit int) {
	for range n {
		st := r.heap.Stats()
		if st.Live+st.Pending >= limit && st.Live+st.Pending < l.cap {
			break
		}
		h, err := r.scene.Tex.Create(16, 16, l.px, scene.FilterLinear)
		if err != nil {
			if st := r.heap.Stats(); st.Live+st.Pending < st.Capacity {
				// Refused with slots free: not the refusal this tests.
				if l.otherErr == nil {
					l.otherErr = err
				}
			}
			l.refused++
			l.err, l.errStats, l.last = err, r.heap.Stats(), r.heap.LastRefusal()
			continue
		}
		l.handles[l.n] = h
		l.n++
		l.created++
	}
	if l.stage > leakExhausted {
		return
	}
	st := r.heap.Stats()
	inUse := st.Live + st.Pending
	l.maxInUse = max(l.maxInUse, inUse)
	// Each level warns once, on the load that crosses it, and never
	// again while occupancy stays above it.
	want := uint64(0)
	for k, lvl := range []int{descriptors.WarnLevel1, descriptors.WarnLevel2} {
		if l.maxInUse >= (lvl*l.cap+99)/100 {
			want++
			if l.warnedAt[k] == 0 && st.Warnings-l.w0 > uint64(k) {
				l.warnedAt[k] = inUse
			}
		}
	}
	if got := st.Warnings - l.w0; got != want && l.mismatch[0] == 0 {
		l.mismatch = [4]int{l.rounds + 1, inUse, int(got), int(want)}
	}
}

func (l *leak) freeAll(r *renderer) {
	for i := range l.n {
		if err := r.scene.Tex.Free(l.handles[i]); err != nil && l.otherErr == nil {
			l.otherErr = err
		}
		l.handles[i] = descriptors.Handle{}
	}
	l.n = 0
}

func (l *leak) verdict(p *phase) ([]string, string) {
	var bad []string
	if m := l.mismatch; m[0] != 0 {
		bad = append(bad, fmt.Sprintf("after load %d (%d slots in use) the heap had warned %d times, want %d", m[0], m[1], m[2], m[3]))
	}
	warns := uint64(2)
	if broken("leak") {
		warns = 3
	}
	if d := p.delta(); d.warnings != warns+1 {
		bad = append(bad, fmt.Sprintf("%d occupancy warnings in the phase, want %d (75%% and 90%% once each, then 75%% again after the re-arm)", d.warnings, warns+1))
	}
	if l.refused == 0 || l.err == nil {
		bad = append(bad, "the heap never refused: it was not exhausted")
	} else {
		// The refusal is the bare sentinel; the heap's LastRefusal carries
		// the numbers, formatted here, after the run.
		msg := l.last.String()
		s := l.errStats
		for _, q := range []string{fmt.Sprintf("live %d", s.Live), fmt.Sprintf("peak %d", s.Peak), fmt.Sprintf("capacity %d", s.Capacity)} {
			if !strings.Contains(msg, q) {
				bad = append(bad, fmt.Sprintf("the exhaustion error does not quote %q: %s", q, msg))
			}
		}
		if l.err != descriptors.ErrHeapExhausted || l.last.Err != descriptors.ErrHeapExhausted {
			bad = append(bad, fmt.Sprintf("the refusal is %v, not the bare ErrHeapExhausted: %s", l.err, msg))
		}
	}
	if d := p.delta(); d.heapRefused != l.refused {
		bad = append(bad, fmt.Sprintf("the heap counted %d refusals, the leak saw %d", d.heapRefused, l.refused))
	}
	if l.otherErr != nil {
		bad = append(bad, "a texture call failed otherwise: "+l.otherErr.Error())
	}
	if l.stage != leakDone {
		bad = append(bad, fmt.Sprintf("the phase stopped in stage %d of %d", l.stage, leakDone))
	}
	if l.fixedInUse > l.base {
		bad = append(bad, fmt.Sprintf("after the fix %d slots in use, more than the %d before the leak", l.fixedInUse, l.base))
	}
	if l.rearmWarn != 3 {
		bad = append(bad, fmt.Sprintf("leaking again to %d slots raised the warnings to %d, want 3: hysteresis did not re-arm the 75%% level", l.rearmInUse, l.rearmWarn))
	}
	ok, pace := p.paced()
	if !ok {
		bad = append(bad, "frames lost their pace: "+pace)
	}
	msg := ""
	if l.err != nil {
		msg = l.last.String()
		if i := strings.Index(msg, " ("); i > 0 {
			msg = msg[:i]
		}
	}
	return bad, fmt.Sprintf("75%% warned once (on the load that reached %d slots), 90%% once (at %d); exhausted after %d loads: %d creations refused and counted, %q; "+
		"%s; fixed: %d in use after %d frames, 75%% warned again at %d (re-armed)",
		l.warnedAt[0], l.warnedAt[1], l.rounds-l.exhaustedAt, l.refused, msg, pace, l.fixedInUse, l.fixedFrames, l.rearmInUse)
}
