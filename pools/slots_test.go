package pools

import (
	"errors"
	"math"
	"slices"
	"testing"
)

func mustSlots[T any](t *testing.T, capacity int) *Slots[T] {
	t.Helper()
	s, err := NewSlots[T](capacity)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSlotsAcquireLowestFree(t *testing.T) {
	s := mustSlots[entity](t, 130)
	for want := range 130 {
		i, e, ok := s.Acquire()
		if !ok || i != want {
			t.Fatalf("Acquire = %d, %v; want %d", i, ok, want)
		}
		e.hp = i
	}
	if i, e, ok := s.Acquire(); ok || i != -1 || e != nil {
		t.Fatalf("Acquire on a full pool = %d, %v, %v", i, e, ok)
	}
	// Holes in three words: Acquire refills the lowest first.
	for _, i := range []int{129, 70, 3, 64} {
		if err := s.ReleaseAt(i); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []int{3, 64, 70, 129} {
		if i, _, ok := s.Acquire(); !ok || i != want {
			t.Fatalf("Acquire = %d, %v; want %d", i, ok, want)
		}
	}
	if st := s.Stats(); st.Refused != 1 || st.PeakInUse != 130 || st.TotalCreated != 134 {
		t.Fatalf("Stats = %+v", st)
	}
}

func TestSlotsReleaseAtErrors(t *testing.T) {
	s := mustSlots[int](t, 5)
	s.Acquire()
	cases := []struct {
		name string
		i    int
		want error
	}{
		{"negative", -1, ErrOutOfRange},
		{"past the end", 5, ErrOutOfRange},
		{"huge", math.MaxInt, ErrOutOfRange},
		{"free slot", 3, ErrNotLive},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := s.Stats()
			if err := s.ReleaseAt(c.i); !errors.Is(err, c.want) {
				t.Fatalf("ReleaseAt(%d) = %v, want %v", c.i, err, c.want)
			}
			if s.Stats() != before || !s.IsLive(0) {
				t.Fatal("a refused ReleaseAt changed the pool")
			}
		})
	}
	s.ReleaseAt(0)
	if err := s.ReleaseAt(0); !errors.Is(err, ErrNotLive) {
		t.Fatalf("second ReleaseAt = %v", err)
	}
}

// TestSlotsReleaseDuringWalk releases every slot a walk stands on, and
// every other one, across word boundaries: nothing skipped, nothing twice.
func TestSlotsReleaseDuringWalk(t *testing.T) {
	for _, every := range []int{1, 2, 3} {
		for _, useAll := range []bool{false, true} {
			s := mustSlots[int](t, 200)
			for range 200 {
				s.Acquire()
			}
			for _, i := range []int{0, 63, 64, 65, 127, 128, 199} {
				s.ReleaseAt(i)
			}
			var want []int
			for i := s.NextLive(0); i >= 0; i = s.NextLive(i + 1) {
				want = append(want, i)
			}
			var got []int
			visit := func(i int) {
				got = append(got, i)
				if len(got)%every == 0 {
					if err := s.ReleaseAt(i); err != nil {
						t.Fatal(err)
					}
				}
			}
			if useAll {
				for i := range s.All() {
					visit(i)
				}
			} else {
				for i := s.NextLive(0); i >= 0; i = s.NextLive(i + 1) {
					visit(i)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("every=%d All=%v: visited %v, want %v", every, useAll, got, want)
			}
			if s.Len() != len(want)-len(want)/every {
				t.Fatalf("every=%d: Len %d after the walk", every, s.Len())
			}
		}
	}
}

func TestSlotsNextLiveBounds(t *testing.T) {
	s := mustSlots[int](t, 70)
	if s.NextLive(0) != -1 || s.NextLive(-5) != -1 || s.NextLive(70) != -1 {
		t.Fatal("NextLive on an empty pool found a slot")
	}
	for range 70 {
		s.Acquire()
	}
	if s.NextLive(-5) != 0 || s.NextLive(69) != 69 || s.NextLive(70) != -1 || s.NextLive(math.MaxInt) != -1 {
		t.Fatal("NextLive bounds wrong on a full pool")
	}
}

func TestSlotsIndexOf(t *testing.T) {
	s := mustSlots[entity](t, 4)
	_, a, _ := s.Acquire()
	i, b, _ := s.Acquire()
	if j, ok := s.IndexOf(b); !ok || j != i {
		t.Fatalf("IndexOf = %d, %v; want %d", j, ok, i)
	}
	outside := new(entity)
	if _, ok := s.IndexOf(outside); ok {
		t.Fatal("IndexOf found a pointer from outside the pool")
	}
	if _, ok := s.IndexOf(nil); ok {
		t.Fatal("IndexOf(nil) succeeded")
	}
	s.ReleaseAt(0)
	if _, ok := s.IndexOf(a); ok {
		t.Fatal("IndexOf found a released slot")
	}
	if _, ok := s.IndexOf(&s.elems[3]); ok {
		t.Fatal("IndexOf found a never-acquired slot")
	}
	z := mustSlots[struct{}](t, 2)
	_, e, _ := z.Acquire()
	if _, ok := z.IndexOf(e); ok {
		t.Fatal("IndexOf on a zero-size type succeeded")
	}
}

func TestSlotsReset(t *testing.T) {
	s := mustSlots[entity](t, 100)
	for range 100 {
		_, e, _ := s.Acquire()
		e.name = "live"
	}
	s.ReleaseAt(10)
	s.Acquire()
	s.Acquire() // refused
	s.Reset()
	for i := range s.elems {
		if s.elems[i] != (entity{}) || s.IsLive(i) {
			t.Fatalf("slot %d survived Reset", i)
		}
	}
	if i, _, ok := s.Acquire(); !ok || i != 0 {
		t.Fatalf("Acquire after Reset = %d, %v", i, ok)
	}
	want := Stats{Capacity: 100, InUse: 1, PeakInUse: 100, TotalCreated: 102, Refused: 1,
		BytesCapacity: 100*24 + 2*8, BytesInUse: 24}
	if st := s.Stats(); st != want {
		t.Fatalf("Stats = %+v, want %+v", st, want)
	}
}

func TestSlotsCapacityZero(t *testing.T) {
	s := mustSlots[int](t, 0)
	if _, _, ok := s.Acquire(); ok {
		t.Fatal("Acquire on capacity 0 succeeded")
	}
	if s.NextLive(0) != -1 || s.IsLive(0) || s.At(0) != nil {
		t.Fatal("capacity 0 pool reports a slot")
	}
	for range s.All() {
		t.Fatal("All yielded on capacity 0")
	}
	s.Reset()
	if _, ok := s.IndexOf(new(int)); ok {
		t.Fatal("IndexOf on capacity 0 succeeded")
	}
}
