package pools

import (
	"errors"
	"slices"
	"testing"
)

func TestReserveAllOrNothing(t *testing.T) {
	p := mustPool[int](t, 4)
	p.Create()
	before := freeList(p)
	for _, n := range []int{4, 5, 1 << 30} {
		r, err := p.Reserve(n)
		if !errors.Is(err, ErrBudgetExhausted) || r != (Reservation[int]{}) {
			t.Fatalf("Reserve(%d) with 3 free = %v, %v", n, r, err)
		}
		if !slices.Equal(freeList(p), before) || p.Stats().Reserved != 0 {
			t.Fatalf("refused Reserve(%d) changed the pool", n)
		}
	}
	for _, n := range []int{0, -1} {
		if _, err := p.Reserve(n); !errors.Is(err, ErrInvalidCount) {
			t.Fatalf("Reserve(%d) = %v, want ErrInvalidCount", n, err)
		}
	}
	r, err := p.Reserve(3)
	if err != nil || r.Len() != 3 {
		t.Fatalf("Reserve(3) = %v, %v", r, err)
	}
	if _, _, err := p.Create(); !errors.Is(err, ErrBudgetExhausted) {
		t.Fatalf("Create with every free slot reserved = %v", err)
	}
	if s := p.Stats(); s.Reserved != 3 || s.InUse != 1 || s.Refused != 4 {
		t.Fatalf("Stats = %+v", s)
	}
}

func TestReservationClaimErrors(t *testing.T) {
	p := mustPool[int](t, 4)
	r, _ := p.Reserve(2)
	if _, _, err := r.Claim(0); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		r    Reservation[int]
		pos  int
		want error
	}{
		{"twice", r, 0, ErrAlreadyClaimed},
		{"past the end", r, 2, ErrOutOfRange},
		{"negative", r, -1, ErrOutOfRange},
		{"zero reservation", Reservation[int]{}, 0, ErrInvalidReservation},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := p.Stats()
			h, e, err := c.r.Claim(c.pos)
			if !errors.Is(err, c.want) || !h.IsZero() || e != nil {
				t.Fatalf("Claim(%d) = %v, %v, %v; want %v", c.pos, h, e, err, c.want)
			}
			if p.Stats() != before {
				t.Fatal("a refused Claim changed the pool")
			}
		})
	}
	if err := (Reservation[int]{}).Release(); !errors.Is(err, ErrInvalidReservation) {
		t.Fatalf("zero Release = %v", err)
	}
	if (Reservation[int]{}).Len() != 0 || (Reservation[int]{}).Claimed(0) {
		t.Fatal("zero Reservation reports positions")
	}
	if err := r.Release(); err != nil {
		t.Fatal(err)
	}
	if err := r.Release(); !errors.Is(err, ErrReservationReleased) {
		t.Fatalf("second Release = %v", err)
	}
	if _, _, err := r.Claim(1); !errors.Is(err, ErrReservationReleased) {
		t.Fatalf("Claim after Release = %v", err)
	}
	if r.Len() != 0 || r.Claimed(0) {
		t.Fatal("a released reservation reports positions")
	}
}

func TestReservationClaimedHandlesOutliveIt(t *testing.T) {
	p := mustPool[entity](t, 4)
	r, _ := p.Reserve(3)
	h, e, err := r.Claim(2)
	if err != nil {
		t.Fatal(err)
	}
	e.name = "kept"
	if !r.Claimed(2) || r.Claimed(0) {
		t.Fatal("Claimed disagrees with the claims made")
	}
	r.Release()
	if got := p.Get(h); got == nil || got.name != "kept" {
		t.Fatalf("claimed element after Release = %v", got)
	}
	if s := p.Stats(); s.InUse != 1 || s.Reserved != 0 || s.TotalCreated != 1 {
		t.Fatalf("Stats = %+v", s)
	}
	if err := p.Destroy(h); err != nil {
		t.Fatal(err)
	}
}

// TestReservationReleaseRestoresFreeOrder checks that an untouched
// reservation leaves no trace: the pool hands out the same handles as if
// it had never been made.
func TestReservationReleaseRestoresFreeOrder(t *testing.T) {
	p := mustPool[int](t, 6)
	a, _, _ := p.Create()
	p.Create()
	p.Destroy(a)
	before := freeList(p)
	r, _ := p.Reserve(4)
	if err := r.Release(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(freeList(p), before) {
		t.Fatalf("free list %v after Reserve+Release, want %v", freeList(p), before)
	}
	// Position 0 is the slot Create would have returned first.
	r, _ = p.Reserve(2)
	h, _, _ := r.Claim(0)
	if h.Index() != a.Index() {
		t.Fatalf("position 0 is slot %d, want the most recently freed slot %d", h.Index(), a.Index())
	}
}

// TestReservationOutOfOrderRelease releases reservations out of order and
// checks the later ones still reach their own slots (the table closes
// the gap under them).
func TestReservationOutOfOrderRelease(t *testing.T) {
	p := mustPool[int](t, 8)
	r1, _ := p.Reserve(2)
	r2, _ := p.Reserve(3)
	r3, _ := p.Reserve(1)
	want2 := []uint32{p.resv.entries[2], p.resv.entries[3], p.resv.entries[4]}
	if err := r1.Release(); err != nil {
		t.Fatal(err)
	}
	for i, w := range want2 {
		h, _, err := r2.Claim(i)
		if err != nil || h.Index() != w {
			t.Fatalf("r2.Claim(%d) = %v, %v; want slot %d", i, h, err, w)
		}
	}
	if h, _, err := r3.Claim(0); err != nil || h.Index() != 5 {
		t.Fatalf("r3.Claim(0) = %v, %v", h, err)
	}
	r2.Release()
	r3.Release()
	if len(p.resv.entries) != 0 || p.Stats().Reserved != 0 || p.Len() != 4 {
		t.Fatalf("after releasing all: entries %v, Stats %+v", p.resv.entries, p.Stats())
	}
}

// TestReservationTableExhausted holds claimed reservations open while
// their handles are destroyed: the free slots return, but the table
// entries stay held until Release.
func TestReservationTableExhausted(t *testing.T) {
	p := mustPool[int](t, 2)
	var open []Reservation[int]
	for range 2 {
		r, err := p.Reserve(1)
		if err != nil {
			t.Fatal(err)
		}
		h, _, _ := r.Claim(0)
		p.Destroy(h)
		open = append(open, r)
	}
	_, err := p.Reserve(1)
	if err != ErrBudgetExhausted {
		t.Fatalf("Reserve with a full table = %v", err)
	}
	if _, _, err := p.Create(); err != nil {
		t.Fatalf("Create with free slots = %v", err)
	}
	open[0].Release()
	if _, err := p.Reserve(1); err != nil {
		t.Fatalf("Reserve after a Release = %v", err)
	}
}

func TestReservationStaleAfterHeaderReuse(t *testing.T) {
	p := mustPool[int](t, 2)
	old, _ := p.Reserve(1)
	old.Release()
	fresh, _ := p.Reserve(1)
	if old.id != fresh.id {
		t.Fatalf("header not reused: %d vs %d", old.id, fresh.id)
	}
	if _, _, err := old.Claim(0); !errors.Is(err, ErrReservationReleased) {
		t.Fatalf("old value after header reuse = %v", err)
	}
	if _, _, err := fresh.Claim(0); err != nil {
		t.Fatal(err)
	}
}
