package descriptors_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/lifetime/frame"
)

// model is the heap's contract written as plainly as possible: a stack of
// retired slots, a queue of pending ones keyed by frame, a bump counter.
type model struct {
	capacity  int
	highWater int
	allocs    uint64
	reclaimed uint64
	gen       map[uint32]uint32 // last generation issued per slot
	free      []int             // top is the end
	pending   []pendingSlot
	live      map[descriptors.Handle]bool
	peak      int
	serial    uint64 // the clock's newest frame: what Free schedules against
	completed uint64 // every frame through it has completed and been reported
	released  []int
	armed     [2]bool // the 75% and 90% warnings, armed at the start
	warnings  uint64
}

var levels = [2]int{descriptors.WarnLevel1, descriptors.WarnLevel2}

// rise and fall are the warning rule: warn when in-use slots reach a
// level of the current capacity, re-arm when they drop Hysteresis points
// below it.
func (m *model) rise() {
	inUse := len(m.live) + len(m.pending)
	for k, lvl := range levels {
		if m.armed[k] && inUse*100 >= lvl*m.capacity {
			m.armed[k] = false
			m.warnings++
		}
	}
}

func (m *model) fall() {
	inUse := len(m.live) + len(m.pending)
	for k, lvl := range levels {
		if !m.armed[k] && inUse*100 < (lvl-descriptors.Hysteresis)*m.capacity {
			m.armed[k] = true
		}
	}
}

type pendingSlot struct {
	slot   int
	serial uint64
}

// nextSlot is the slot the heap must hand out next, or -1.
func (m *model) nextSlot() int {
	if n := len(m.free); n > 0 {
		return m.free[n-1]
	}
	if m.highWater < m.capacity {
		return m.highWater
	}
	return -1
}

// take records the handle Alloc gave. A handle the heap issues reads as
// pools' do, and each reuse of a slot carries a newer generation, odd.
func (m *model) take(t *testing.T, h descriptors.Handle) {
	t.Helper()
	if g := h.Generation(); g&1 == 0 || g <= m.gen[h.Index()] || h.IsZero() {
		t.Fatalf("Alloc issued %v after generation %d of its slot", h, m.gen[h.Index()])
	}
	if want := fmt.Sprintf("slot %d gen %d", h.Index(), h.Generation()); h.String() != want {
		t.Fatalf("%v reads %q, want %q", h, h.String(), want)
	}
	m.gen[h.Index()] = h.Generation()
	m.allocs++
	if len(m.free) > 0 {
		m.free = m.free[:len(m.free)-1]
	} else {
		m.highWater++
	}
	m.live[h] = true
	m.peak = max(m.peak, len(m.live))
	m.rise()
}

func (m *model) retire(completed uint64) {
	m.completed = max(m.completed, completed)
	n := 0
	for len(m.pending) > 0 && m.pending[0].serial <= m.completed {
		m.free = append(m.free, m.pending[0].slot)
		m.released = append(m.released, m.pending[0].slot)
		m.pending = m.pending[1:]
		m.reclaimed++
		n++
	}
	if n > 0 {
		m.fall()
	}
}

type releaseLog struct{ slots []int }

func (r *releaseLog) ReleaseSlot(i int) { r.slots = append(r.slots, i) }

// fuzzInFlight is the fuzzed clock's frames in flight: small, so frame
// starts often reuse a fence and the harness must finish frames first.
const fuzzInFlight = 3

// FuzzHeap drives a heap on a frame clock of manual CPU fences, and the
// model, with the same byte commands, and checks after every command that
// they agree on which slot each Alloc takes, which handles are valid,
// which slots were released and when, and every counter. The heap hears
// of completed frames only from the clock: at a frame start (command 4),
// from Poll after the "GPU" finishes frames (command 5), and from Drain
// (command 5 with an argument of 200 or more).
//
// Grow is decoded only from bytes 129..248 that used to mean the stale
// handle check (b%7 == 3), which changes nothing; no seed in testdata or
// above holds such a byte (255, also a stale check, stays one), so every
// committed input means what it meant.
func FuzzHeap(f *testing.F) {
	f.Add([]byte{4, 0, 0, 0, 1, 0, 3, 4, 5, 0})
	f.Add([]byte{1, 0, 0, 0, 1, 0, 2, 0, 0, 0})
	f.Add([]byte{8, 5, 6, 1, 2, 3, 2, 4, 1, 0, 0, 6, 9, 3, 4, 255, 0, 5, 7})
	// Fill 3 slots, free two, grow past them while they are pending,
	// exhaust the grown heap, retire and recycle, try a shrink.
	f.Add([]byte{2, 0, 0, 0, 1, 0, 4, 1, 0, 129, 9, 0, 0, 0, 0, 0, 0, 0, 5, 3, 0, 0, 136, 0, 4, 5, 3, 0})
	f.Fuzz(func(t *testing.T, cmds []byte) {
		if len(cmds) == 0 {
			return
		}
		capacity := 1 + int(cmds[0]%16)
		rel := &releaseLog{}
		var fences []*frame.CPUFence
		clock, err := frame.NewClock(frame.ClockDesc{InFlight: fuzzInFlight, NewFence: func() (frame.Fence, error) {
			f := frame.NewCPUFence(true)
			fences = append(fences, f)
			return f, nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		h, err := descriptors.NewHeap(descriptors.HeapDesc{Capacity: capacity, Releaser: rel, Logger: quiet(), Clock: clock})
		if err != nil {
			t.Fatal(err)
		}
		m := &model{capacity: capacity, live: map[descriptors.Handle]bool{}, armed: [2]bool{true, true},
			gen: map[uint32]uint32{}}
		open := false // a frame is being recorded
		// finish completes every frame through c on the "GPU", in order.
		finish := func(c uint64) {
			for s := m.completed + 1; s <= c; s++ {
				fences[clock.Slot(s)].Complete()
			}
		}
		var order []descriptors.Handle // live handles in allocation order
		var dead []descriptors.Handle  // freed handles, to try again
		arg := func(i int) int {
			if i+1 < len(cmds) {
				return int(cmds[i+1])
			}
			return 0
		}
		for i := 1; i < len(cmds); i++ {
			op := int(cmds[i] % 7)
			if op == 3 && cmds[i] >= 128 && cmds[i] < 255 {
				op = 7
			}
			switch op {
			case 0: // Alloc
				want := m.nextSlot()
				got, err := h.Alloc()
				if want < 0 {
					if !errors.Is(err, descriptors.ErrHeapExhausted) {
						t.Fatalf("cmd %d: Alloc on a full heap: %v", i, err)
					}
					break
				}
				if err != nil || int(got.Index()) != want {
					t.Fatalf("cmd %d: Alloc = %v, %v; model wants slot %d", i, got, err, want)
				}
				m.take(t, got)
				order = append(order, got)
			case 1, 2: // Free a live handle
				if len(order) == 0 {
					break
				}
				k := arg(i) % len(order)
				i++
				hd := order[k]
				if err := h.Free(hd); err != nil {
					t.Fatalf("cmd %d: Free(%v): %v", i, hd, err)
				}
				order = append(order[:k], order[k+1:]...)
				delete(m.live, hd)
				dead = append(dead, hd)
				m.pending = append(m.pending, pendingSlot{int(hd.Index()), m.serial})
			case 3: // a stale handle is refused everywhere
				if len(dead) == 0 {
					break
				}
				hd := dead[arg(i)%len(dead)]
				i++
				if err := h.Free(hd); !errors.Is(err, descriptors.ErrStaleHandle) {
					t.Fatalf("cmd %d: Free of stale %v: %v", i, hd, err)
				}
				if _, err := h.Get(hd); !errors.Is(err, descriptors.ErrStaleHandle) {
					t.Fatalf("cmd %d: Get of stale %v: %v", i, hd, err)
				}
			case 7: // Grow by -2..7 slots; a change of 0 or less is refused
				c := m.capacity + arg(i)%10 - 2
				i++
				err := h.Grow(c)
				if c <= m.capacity {
					if !errors.Is(err, descriptors.ErrInvalidCapacity) {
						t.Fatalf("cmd %d: Grow(%d) of %d slots: %v", i, c, m.capacity, err)
					}
					break
				}
				if err != nil {
					t.Fatalf("cmd %d: Grow(%d) of %d slots: %v", i, c, m.capacity, err)
				}
				m.capacity = c
				m.fall()
			case 4: // end the open frame, begin the next
				if open {
					if err := clock.EndFrame(); err != nil {
						t.Fatal(err)
					}
				}
				// The new frame reuses the fence of the frame InFlight
				// ago; the "GPU" finishes it (and all before it) first, so
				// the clock does not wait.
				if next := m.serial + 1; next > fuzzInFlight && m.completed < next-fuzzInFlight {
					finish(next - fuzzInFlight)
					m.completed = next - fuzzInFlight
				}
				if _, err := clock.BeginFrame(); err != nil {
					t.Fatal(err)
				}
				m.serial++
				open = true
				m.retire(m.completed)
			case 5: // the "GPU" finishes frames; the clock reports them
				a := arg(i)
				i++
				ended := m.serial
				if open {
					ended--
				}
				if a >= 200 { // end the frame and drain
					if open {
						if err := clock.EndFrame(); err != nil {
							t.Fatal(err)
						}
						open, ended = false, m.serial
					}
					finish(ended)
					if err := clock.Drain(); err != nil {
						t.Fatal(err)
					}
					m.retire(ended)
					break
				}
				c := min(m.completed+uint64(a%4), ended)
				finish(c)
				clock.Poll()
				m.retire(c)
			case 6: // AllocN, all or nothing
				n := arg(i) % 5
				i++
				avail := len(m.free) + m.capacity - m.highWater
				dst := make([]descriptors.Handle, n)
				err := h.AllocN(dst)
				if n > avail {
					if !errors.Is(err, descriptors.ErrHeapExhausted) {
						t.Fatalf("cmd %d: AllocN(%d) with %d free: %v", i, n, avail, err)
					}
					break
				}
				if err != nil {
					t.Fatalf("cmd %d: AllocN(%d): %v", i, n, err)
				}
				for _, hd := range dst {
					if int(hd.Index()) != m.nextSlot() {
						t.Fatalf("cmd %d: AllocN gave slot %d, model wants %d", i, hd.Index(), m.nextSlot())
					}
					m.take(t, hd)
					order = append(order, hd)
				}
			}
			if clock.Completed() != m.completed || clock.Last() != m.serial {
				t.Fatalf("cmd %d: clock at frame %d completed %d; model %d and %d",
					i, clock.Last(), clock.Completed(), m.serial, m.completed)
			}
			check(t, i, h, m, order, rel)
		}
	})
}

func check(t *testing.T, i int, h *descriptors.Heap, m *model, order []descriptors.Handle, rel *releaseLog) {
	t.Helper()
	st := h.Stats()
	if st.Live != len(m.live) || st.Pending != len(m.pending) || st.Peak != m.peak ||
		st.HighWater != m.highWater || st.FreeStack != len(m.free) || st.Free != m.capacity-len(m.live)-len(m.pending) ||
		st.Capacity != m.capacity || h.Capacity() != m.capacity || st.Warnings != m.warnings ||
		st.Allocs != m.allocs || st.Reclaimed != m.reclaimed || st.Frees != m.reclaimed+uint64(len(m.pending)) ||
		st.Recycled != m.allocs-uint64(m.highWater) || st.Retired != 0 {
		t.Fatalf("cmd %d: stats %+v; model capacity %d live %d pending %d peak %d high-water %d free %d warnings %d allocs %d reclaimed %d",
			i, st, m.capacity, len(m.live), len(m.pending), m.peak, m.highWater, len(m.free), m.warnings, m.allocs, m.reclaimed)
	}
	for _, hd := range order {
		if idx, err := h.Get(hd); err != nil || idx != int(hd.Index()) {
			t.Fatalf("cmd %d: live %v: %d, %v", i, hd, idx, err)
		}
	}
	if len(rel.slots) != len(m.released) {
		t.Fatalf("cmd %d: released %v, model %v", i, rel.slots, m.released)
	}
	for k := range rel.slots {
		if rel.slots[k] != m.released[k] {
			t.Fatalf("cmd %d: released %v, model %v", i, rel.slots, m.released)
		}
	}
}
