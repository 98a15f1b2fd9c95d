package pools

import (
	"fmt"
	"testing"
)

// slotsModel is the plain reference model of Slots[T]: a liveness flag and
// a tag per slot.
type slotsModel struct {
	live    []bool
	tags    []uint64
	peak    int
	created uint64
	refused uint64
}

func (m *slotsModel) n() int {
	n := 0
	for _, l := range m.live {
		if l {
			n++
		}
	}
	return n
}

// nextLive is the obvious linear scan NextLive must agree with.
func (m *slotsModel) nextLive(from int) int {
	for i := max(from, 0); i < len(m.live); i++ {
		if m.live[i] {
			return i
		}
	}
	return -1
}

func (m *slotsModel) release(i int) error {
	if i < 0 || i >= len(m.live) {
		return ErrOutOfRange
	}
	if !m.live[i] {
		return ErrNotLive
	}
	m.live[i] = false
	m.tags[i] = 0
	return nil
}

func (m *slotsModel) check(s *Slots[fuzzElem]) error {
	c, n := len(m.live), m.n()
	want := Stats{
		Capacity:      c,
		InUse:         n,
		PeakInUse:     m.peak,
		TotalCreated:  m.created,
		Refused:       m.refused,
		BytesCapacity: uintptr(c)*32 + uintptr((c+63)/64)*8,
		BytesInUse:    uintptr(n) * 32,
	}
	if got := s.Stats(); got != want {
		return fmt.Errorf("Stats = %+v, model %+v", got, want)
	}
	if s.Len() != n || s.Cap() != c {
		return fmt.Errorf("Len, Cap = %d, %d; model %d, %d", s.Len(), s.Cap(), n, c)
	}
	for i := -1; i <= c+1; i++ {
		if got, want := s.NextLive(i), m.nextLive(i); got != want {
			return fmt.Errorf("NextLive(%d) = %d, model %d", i, got, want)
		}
		live := i >= 0 && i < c && m.live[i]
		e := s.At(i)
		if s.IsLive(i) != live || (e != nil) != live {
			return fmt.Errorf("slot %d: IsLive %v, At %p; model live %v", i, s.IsLive(i), e, live)
		}
		if live && e.tag != m.tags[i] {
			return fmt.Errorf("slot %d: tag %d, model %d", i, e.tag, m.tags[i])
		}
		if i >= 0 && i < c {
			if j, ok := s.IndexOf(&s.elems[i]); ok != live || (ok && j != i) {
				return fmt.Errorf("IndexOf(slot %d) = %d, %v; model live %v", i, j, ok, live)
			}
			if !live && s.elems[i] != (fuzzElem{}) {
				return fmt.Errorf("free slot %d holds %+v", i, s.elems[i])
			}
		}
	}
	return nil
}

// FuzzSlots decodes the input into Slots operations on a pool of capacity
// 0..199 (first byte, so several liveness words are in play) and checks it
// against slotsModel after each. The walk operations release slots picked
// by the input from inside NextLive and All walks and check that the walk
// visits exactly the slots live when it began, in order.
func FuzzSlots(f *testing.F) {
	f.Add([]byte{5, 0, 0, 0, 1, 1, 0, 2, 0xff})
	f.Add([]byte{70, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0x55, 4, 0xaa})
	f.Add([]byte{130, 0, 0, 0, 0, 5, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &opReader{data: data}
		c := int(r.next() % 200)
		s, err := NewSlots[fuzzElem](c)
		if err != nil {
			t.Fatal(err)
		}
		m := &slotsModel{live: make([]bool, c), tags: make([]uint64, c)}
		for step := 0; r.more(); step++ {
			op := r.next() % 10
			if err := slotsStep(s, m, op, r, uint64(step+1)); err != nil {
				t.Fatalf("step %d (op %d): %v", step, op, err)
			}
			if err := m.check(s); err != nil {
				t.Fatalf("after step %d (op %d): %v", step, op, err)
			}
		}
	})
}

func slotsStep(s *Slots[fuzzElem], m *slotsModel, op byte, r *opReader, tag uint64) error {
	switch op {
	case 0, 1, 2: // Acquire: the most likely op, so pools fill up.
		return acquireStep(s, m, tag)
	case 8: // Acquire up to 255 times: fills several liveness words.
		for range int(r.next()) {
			if err := acquireStep(s, m, tag); err != nil {
				return err
			}
		}
	case 9: // Release every k-th live slot: opens holes below the hint.
		k := int(r.next()%7) + 1
		for i := range m.live {
			if m.live[i] && i%k == 0 {
				if err, werr := s.ReleaseAt(i), m.release(i); !sameErr(err, werr) {
					return fmt.Errorf("ReleaseAt(%d) = %v; model %v", i, err, werr)
				}
			}
		}
	case 3: // ReleaseAt a slot in range or just outside it.
		i := int(r.next())%(len(m.live)+2) - 1
		if err, werr := s.ReleaseAt(i), m.release(i); !sameErr(err, werr) {
			return fmt.Errorf("ReleaseAt(%d) = %v; model %v", i, err, werr)
		}
	case 4, 5: // Walk with NextLive (4) or All (5), releasing by a bit pattern.
		return walkStep(s, m, op == 5, r.next())
	case 6:
		s.Reset()
		for i := range m.live {
			m.live[i], m.tags[i] = false, 0
		}
	case 7: // All, stopping early after n slots.
		n, seen := int(r.next()%8), 0
		for i := range s.All() {
			if seen == n {
				break
			}
			if i != m.nextLive(0) && seen == 0 {
				return fmt.Errorf("All started at %d", i)
			}
			seen++
		}
	}
	return nil
}

// acquireStep acquires one slot and checks it is the model's lowest free
// one, or that a full pool refuses.
func acquireStep(s *Slots[fuzzElem], m *slotsModel, tag uint64) error {
	i, e, ok := s.Acquire()
	want := m.nextFree()
	if want < 0 {
		m.refused++
		if ok || i != -1 || e != nil {
			return fmt.Errorf("Acquire on a full pool = %d, %p, %v", i, e, ok)
		}
		return nil
	}
	if !ok || i != want || *e != (fuzzElem{}) {
		return fmt.Errorf("Acquire = %d, %+v, %v; model %d", i, e, ok, want)
	}
	e.tag = tag
	m.live[i], m.tags[i] = true, tag
	m.created++
	m.peak = max(m.peak, m.n())
	return nil
}

func (m *slotsModel) nextFree() int {
	for i, l := range m.live {
		if !l {
			return i
		}
	}
	return -1
}

// walkStep walks the live set and releases the current slot whenever the
// pattern's next bit is set; the walk must visit exactly the slots live
// when it began, in ascending order.
func walkStep(s *Slots[fuzzElem], m *slotsModel, useAll bool, pattern byte) error {
	var want []int
	for i := m.nextLive(0); i >= 0; i = m.nextLive(i + 1) {
		want = append(want, i)
	}
	var got []int
	visit := func(i int, e *fuzzElem) error {
		if e.tag != m.tags[i] {
			return fmt.Errorf("walk at %d: tag %d, model %d", i, e.tag, m.tags[i])
		}
		got = append(got, i)
		if pattern&(1<<(len(got)%8)) != 0 {
			if err := s.ReleaseAt(i); err != nil {
				return err
			}
			return m.release(i)
		}
		return nil
	}
	if useAll {
		for i, e := range s.All() {
			if err := visit(i, e); err != nil {
				return err
			}
		}
	} else {
		for i := s.NextLive(0); i >= 0; i = s.NextLive(i + 1) {
			if err := visit(i, s.At(i)); err != nil {
				return err
			}
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		return fmt.Errorf("walk (All %v) visited %v, want %v", useAll, got, want)
	}
	return nil
}
