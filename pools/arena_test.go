package pools

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

func TestArena(t *testing.T) {
	a, err := NewArena[entity](3)
	if err != nil {
		t.Fatal(err)
	}
	for want := range 3 {
		i, e, err := a.Alloc()
		if err != nil || i != want || *e != (entity{}) {
			t.Fatalf("Alloc = %d, %+v, %v; want %d", i, e, err, want)
		}
		e.name = "scratch"
		if a.At(i) != e {
			t.Fatalf("At(%d) is not the allocated element", i)
		}
	}
	i, e, err := a.Alloc()
	if !errors.Is(err, ErrBudgetExhausted) || i != -1 || e != nil {
		t.Fatalf("Alloc on a full arena = %d, %v, %v", i, e, err)
	}
	first := a.At(0)
	a.Reset()
	if first.name != "" {
		t.Fatal("Reset did not zero the used prefix")
	}
	a.Reset() // idempotent
	if a.Len() != 0 || a.Cap() != 3 || a.At(0) != nil {
		t.Fatalf("after Reset: Len %d Cap %d", a.Len(), a.Cap())
	}
	a.Alloc()
	want := Stats{Capacity: 3, InUse: 1, PeakInUse: 3, TotalCreated: 4, Refused: 1,
		BytesCapacity: 3 * 24, BytesInUse: 24}
	if s := a.Stats(); s != want {
		t.Fatalf("Stats = %+v, want %+v (peak and total survive Reset)", s, want)
	}
}

func TestArenaAtOutOfRange(t *testing.T) {
	a, _ := NewArena[int](4)
	a.Alloc()
	for _, i := range []int{-1, 1, 3, 4, math.MaxInt} {
		if a.At(i) != nil {
			t.Errorf("At(%d) != nil with one element allocated", i)
		}
	}
}

func TestArenaCapacityZero(t *testing.T) {
	a, err := NewArena[int](0)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.Alloc(); !errors.Is(err, ErrBudgetExhausted) {
		t.Fatalf("Alloc = %v", err)
	}
	a.Reset()
	if s := a.Stats(); s.Refused != 1 || s.Capacity != 0 {
		t.Fatalf("Stats = %+v", s)
	}
}

// arenaModel is the plain reference model of Arena[T]: the tags of the
// elements allocated since the last reset, in order.
type arenaModel struct {
	capacity int
	tags     []uint64
	peak     int
	created  uint64
	refused  uint64
}

func (m *arenaModel) check(a *Arena[fuzzElem]) error {
	n := len(m.tags)
	want := Stats{
		Capacity:      m.capacity,
		InUse:         n,
		PeakInUse:     m.peak,
		TotalCreated:  m.created,
		Refused:       m.refused,
		BytesCapacity: uintptr(m.capacity) * 32,
		BytesInUse:    uintptr(n) * 32,
	}
	if got := a.Stats(); got != want {
		return fmt.Errorf("Stats = %+v, model %+v", got, want)
	}
	if a.Len() != n || a.Cap() != m.capacity {
		return fmt.Errorf("Len, Cap = %d, %d; model %d, %d", a.Len(), a.Cap(), n, m.capacity)
	}
	for i := -1; i <= m.capacity; i++ {
		e := a.At(i)
		if (e != nil) != (i >= 0 && i < n) {
			return fmt.Errorf("At(%d) = %p with %d allocated", i, e, n)
		}
		if e != nil && e.tag != m.tags[i] {
			return fmt.Errorf("At(%d).tag = %d, model %d", i, e.tag, m.tags[i])
		}
	}
	for i := n; i < m.capacity; i++ {
		if a.elems[i] != (fuzzElem{}) {
			return fmt.Errorf("unallocated element %d is %+v", i, a.elems[i])
		}
	}
	return nil
}

// FuzzArena decodes the input into Alloc and Reset calls on an arena of
// capacity 0..15 (first byte) and checks it against arenaModel after each.
func FuzzArena(f *testing.F) {
	f.Add([]byte{3, 0, 0, 0, 0, 1, 0})
	f.Add([]byte{0, 0, 1, 0})
	f.Add([]byte{15, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &opReader{data: data}
		m := &arenaModel{capacity: int(r.next() % 16)}
		a, err := NewArena[fuzzElem](m.capacity)
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; r.more(); step++ {
			// Three in four ops allocate, so arenas fill up.
			if op := r.next() % 4; op == 3 {
				a.Reset()
				m.tags = m.tags[:0]
			} else {
				tag := uint64(step + 1)
				i, e, err := a.Alloc()
				if len(m.tags) == m.capacity {
					m.refused++
					if !errors.Is(err, ErrBudgetExhausted) || i != -1 || e != nil {
						t.Fatalf("step %d: Alloc on a full arena = %d, %p, %v", step, i, e, err)
					}
				} else {
					if err != nil || i != len(m.tags) || *e != (fuzzElem{}) {
						t.Fatalf("step %d: Alloc = %d, %+v, %v; want %d, zero, nil", step, i, e, err, len(m.tags))
					}
					e.tag = tag
					m.tags = append(m.tags, tag)
					m.created++
					m.peak = max(m.peak, len(m.tags))
				}
			}
			if err := m.check(a); err != nil {
				t.Fatalf("after step %d: %v", step, err)
			}
		}
	})
}
