package pools

import (
	"errors"
	"fmt"
	"slices"
)

// This file holds a plain reference model of Pool[T], written for
// obviousness rather than speed: one struct per slot, slices for the free
// list, the pending queue and every reservation ever made. FuzzPool drives
// a Pool and the model with the same operations and compares every handle
// and every stat after each one.

// fuzzElem is the element fuzzing uses; tag records which create wrote it.
type fuzzElem struct {
	tag uint64
	_   [3]uint64
}

type modelSlot struct {
	gen     uint32
	live    bool
	pending bool
	retired bool
	serial  uint64 // the frame a pending slot waits for
	tag     uint64 // kept while pending: the device may still use it
}

type modelReservation struct {
	v        Reservation[fuzzElem]
	slots    []int
	claimed  []bool
	released bool
}

type poolModel struct {
	slots   []modelSlot
	free    []int // stack: the top is the last element
	pending []int // queue: the oldest is the first element
	res     []*modelReservation
	created uint64
	refused uint64
	peak    int
	used    []bool             // slots ever made live or reserved
	handles []Handle[fuzzElem] // every handle ever issued
	pool    *Pool[fuzzElem]    // the pool modelled, for its tag
}

func newPoolModel(p *Pool[fuzzElem]) *poolModel {
	capacity := p.Cap()
	m := &poolModel{slots: make([]modelSlot, capacity), used: make([]bool, capacity), pool: p}
	m.rebuildFree()
	return m
}

// rebuildFree puts every slot that is neither retired nor pending on the
// free list (live slots are gone by then), lowest index on top.
func (m *poolModel) rebuildFree() {
	m.free = m.free[:0]
	for i := len(m.slots) - 1; i >= 0; i-- {
		if !m.slots[i].retired && !m.slots[i].pending {
			m.free = append(m.free, i)
		}
	}
}

// highWater is 1 + the highest slot ever used, straight from the
// definition.
func (m *poolModel) highWater() int {
	for i := len(m.used) - 1; i >= 0; i-- {
		if m.used[i] {
			return i + 1
		}
	}
	return 0
}

func (m *poolModel) live() int { return m.count(func(s modelSlot) bool { return s.live }) }

func (m *poolModel) reserved() (unclaimed, entries int) {
	for _, r := range m.res {
		if r.released {
			continue
		}
		entries += len(r.slots)
		for _, c := range r.claimed {
			if !c {
				unclaimed++
			}
		}
	}
	return unclaimed, entries
}

func (m *poolModel) count(f func(modelSlot) bool) int {
	n := 0
	for _, s := range m.slots {
		if f(s) {
			n++
		}
	}
	return n
}

func (m *poolModel) retired() int { return m.count(func(s modelSlot) bool { return s.retired }) }

// makeLive is the model of a slot becoming live; it returns the handle the
// pool must have issued.
func (m *poolModel) makeLive(i int, tag uint64) Handle[fuzzElem] {
	s := &m.slots[i]
	s.gen++
	s.live = true
	s.tag = tag
	m.used[i] = true
	m.created++
	m.peak = max(m.peak, m.live())
	h := m.pool.handle(uint32(i), s.gen)
	m.handles = append(m.handles, h)
	return h
}

// kill is the model of a live slot's element being destroyed.
func (m *poolModel) kill(i int) {
	s := &m.slots[i]
	s.live = false
	s.gen++
	s.tag = 0
	if s.gen == genRetired {
		s.retired = true
	}
}

func (m *poolModel) create(tag uint64) (Handle[fuzzElem], error) {
	if len(m.free) == 0 {
		m.refused++
		return Handle[fuzzElem]{}, ErrBudgetExhausted
	}
	i := m.free[len(m.free)-1]
	m.free = m.free[:len(m.free)-1]
	return m.makeLive(i, tag), nil
}

func (m *poolModel) destroy(h Handle[fuzzElem]) error {
	i := int(h.Index())
	if h.IsZero() || i >= len(m.slots) {
		return ErrInvalidHandle
	}
	s := m.slots[i]
	if !s.live || s.gen != h.Generation() {
		return ErrStaleHandle
	}
	m.kill(i)
	if !m.slots[i].retired {
		m.free = append(m.free, i)
	}
	return nil
}

func (m *poolModel) clear() {
	for i := range m.slots {
		if m.slots[i].live {
			m.kill(i)
		}
	}
	for _, r := range m.res {
		r.released = true
	}
	m.rebuildFree()
}

func (m *poolModel) reserve(n int) (*modelReservation, error) {
	_, entries := m.reserved()
	switch {
	case n < 1:
		return nil, ErrInvalidCount
	case n > len(m.free), n > len(m.slots)-entries:
		m.refused++
		return nil, ErrBudgetExhausted
	}
	r := &modelReservation{claimed: make([]bool, n)}
	for range n {
		i := m.free[len(m.free)-1]
		r.slots = append(r.slots, i)
		m.free = m.free[:len(m.free)-1]
		m.used[i] = true
	}
	m.res = append(m.res, r)
	return r, nil
}

func (m *poolModel) claim(r *modelReservation, pos int, tag uint64) (Handle[fuzzElem], error) {
	switch {
	case r.released:
		return Handle[fuzzElem]{}, ErrReservationReleased
	case pos < 0 || pos >= len(r.slots):
		return Handle[fuzzElem]{}, ErrOutOfRange
	case r.claimed[pos]:
		return Handle[fuzzElem]{}, ErrAlreadyClaimed
	}
	r.claimed[pos] = true
	return m.makeLive(r.slots[pos], tag), nil
}

func (m *poolModel) release(r *modelReservation) error {
	if r.released {
		return ErrReservationReleased
	}
	for j := len(r.slots) - 1; j >= 0; j-- {
		if !r.claimed[j] {
			m.free = append(m.free, r.slots[j])
		}
	}
	r.released = true
	return nil
}

// age moves every free slot of both the pool and the model to the last
// generation before retirement, so the next create and destroy of that
// slot retires it: the wrap path runs in seconds instead of after 2^31
// reuses. A slot really gets there only by being used, so the model
// counts an aged slot as used; the pool sees its generation leave 0.
func (m *poolModel) age(p *Pool[fuzzElem]) {
	for _, i := range m.free {
		m.slots[i].gen = genRetired - 2
		p.slots[i].gen = genRetired - 2
		m.used[i] = true
	}
}

// destroyAfter is the model of DestroyAfter: the handle checks of destroy,
// then the slot waits in the queue with its tag and its serial, behind
// every slot pending before it.
func (m *poolModel) destroyAfter(h Handle[fuzzElem], serial uint64) error {
	i := int(h.Index())
	if h.IsZero() || i >= len(m.slots) {
		return ErrInvalidHandle
	}
	s := &m.slots[i]
	if !s.live || s.gen != h.Generation() {
		return ErrStaleHandle
	}
	s.live = false
	s.gen++
	s.pending = true
	s.serial = serial
	m.pending = append(m.pending, i)
	return nil
}

// reclaim is the model of Reclaim: the oldest pending slot, if its frame
// has completed, gives back its tag and goes on top of the free list, or
// retires with a spent generation.
func (m *poolModel) reclaim(completed uint64) (index uint32, tag uint64, ok bool) {
	if len(m.pending) == 0 || m.slots[m.pending[0]].serial > completed {
		return 0, 0, false
	}
	i := m.pending[0]
	m.pending = m.pending[1:]
	s := &m.slots[i]
	tag = s.tag
	s.pending, s.tag, s.serial = false, 0, 0
	if s.gen == genRetired {
		s.retired = true
	} else {
		m.free = append(m.free, i)
	}
	return uint32(i), tag, true
}

// grow is the model of Grow: new slots go below every free one, lowest
// index first.
func (m *poolModel) grow(capacity int) error {
	old := len(m.slots)
	if capacity <= old || capacity > MaxCapacity {
		return ErrInvalidCapacity
	}
	m.slots = append(m.slots, make([]modelSlot, capacity-old)...)
	m.used = append(m.used, make([]bool, capacity-old)...)
	var bottom []int
	for i := capacity - 1; i >= old; i-- {
		bottom = append(bottom, i)
	}
	m.free = append(bottom, m.free...)
	return nil
}

// check compares every observable of p with the model.
func (m *poolModel) check(p *Pool[fuzzElem]) error {
	unclaimed, _ := m.reserved()
	live := m.live()
	var zero fuzzElem
	size := uintptr(32)
	want := Stats{
		Capacity:      len(m.slots),
		InUse:         live,
		PeakInUse:     m.peak,
		Pending:       m.count(func(s modelSlot) bool { return s.pending }),
		HighWater:     m.highWater(),
		Reserved:      unclaimed,
		Retired:       m.retired(),
		TotalCreated:  m.created,
		Refused:       m.refused,
		BytesCapacity: uintptr(len(m.slots)) * (size + perSlotBookkeeping),
		BytesInUse:    uintptr(live) * size,
	}
	if got := p.Stats(); got != want {
		return fmt.Errorf("Stats = %+v, model %+v", got, want)
	}
	if p.Len() != live || p.Pending() != want.Pending || p.Cap() != len(m.slots) {
		return fmt.Errorf("Len, Pending, Cap = %d, %d, %d; model %d, %d, %d",
			p.Len(), p.Pending(), p.Cap(), live, want.Pending, len(m.slots))
	}
	if got := freeList(p); len(got) != len(m.free) || !slices.EqualFunc(got, m.free, func(g uint32, w int) bool { return int(g) == w }) {
		return fmt.Errorf("free list %v, model %v", got, m.free)
	}
	if p.Available() != len(m.free) {
		return fmt.Errorf("Available = %d, model %d", p.Available(), len(m.free))
	}
	if got := pendingQueue(p); !slices.EqualFunc(got, m.pending, func(g uint32, w int) bool { return int(g) == w }) {
		return fmt.Errorf("pending queue %v, model %v", got, m.pending)
	}
	for _, i := range m.pending {
		if p.slots[i].serial != m.slots[i].serial {
			return fmt.Errorf("pending slot %d waits for %d, model %d", i, p.slots[i].serial, m.slots[i].serial)
		}
	}
	if p.Valid(Handle[fuzzElem]{}) || p.Get(Handle[fuzzElem]{}) != nil {
		return errors.New("the zero Handle is valid")
	}
	for _, h := range m.handles {
		s := m.slots[h.Index()]
		wantLive := s.live && s.gen == h.Generation()
		e := p.Get(h)
		if p.Valid(h) != wantLive || (e != nil) != wantLive {
			return fmt.Errorf("handle %d:%d: Valid %v, Get %p; model live %v", h.Index(), h.Generation(), p.Valid(h), e, wantLive)
		}
		if wantLive && e.tag != s.tag {
			return fmt.Errorf("handle %d:%d: element tag %d, model %d", h.Index(), h.Generation(), e.tag, s.tag)
		}
	}
	for i, s := range m.slots {
		switch {
		case s.pending && p.elems[i] != (fuzzElem{tag: s.tag}):
			return fmt.Errorf("pending slot %d holds %+v, model tag %d", i, p.elems[i], s.tag)
		case !s.live && !s.pending && p.elems[i] != zero:
			return fmt.Errorf("slot %d is not live but its element is %+v", i, p.elems[i])
		}
	}
	for k, r := range m.res {
		wantLen := len(r.slots)
		if r.released {
			wantLen = 0
		}
		if r.v.Len() != wantLen {
			return fmt.Errorf("reservation %d: Len %d, model %d", k, r.v.Len(), wantLen)
		}
		for j := range r.slots {
			if r.v.Claimed(j) != (r.claimed[j] && !r.released) {
				return fmt.Errorf("reservation %d: Claimed(%d) = %v", k, j, r.v.Claimed(j))
			}
		}
	}
	return nil
}
