package pools

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestPoolGrow(t *testing.T) {
	p := mustPool[texture](t, 4)
	var hs []Handle[texture]
	for k := range 4 {
		hs = append(hs, createNamed(t, p, uint32(30+k)))
	}
	oldPtr := p.Get(hs[2])
	p.Destroy(hs[1])
	p.Destroy(hs[3]) // free list, top first: 3, 1
	if err := p.DestroyAfter(hs[0], 5); err != nil {
		t.Fatal(err)
	}
	if err := p.Grow(7); err != nil {
		t.Fatal(err)
	}
	if p.Cap() != 7 || len(p.slots) != 7 || len(p.resv.headers) != 7 || cap(p.resv.entries) != 7 {
		t.Fatalf("after Grow(7): Cap %d, arrays %d %d %d", p.Cap(), len(p.slots), len(p.resv.headers), cap(p.resv.entries))
	}
	// Handles survive; pointers do not: the elements moved.
	e := p.Get(hs[2])
	if e == nil || e.name != 32 {
		t.Fatalf("Get after Grow = %+v", e)
	}
	if e == oldPtr {
		t.Fatal("Grow kept the element array; the doc says pointers are invalidated")
	}
	if p.Valid(hs[0]) || p.Valid(hs[1]) || p.Valid(hs[3]) {
		t.Fatal("a dead handle validates after Grow")
	}
	want := Stats{Capacity: 7, InUse: 1, PeakInUse: 4, Pending: 1, HighWater: 4, TotalCreated: 4,
		BytesCapacity: 7 * (4 + perSlotBookkeeping), BytesInUse: 4}
	if s := p.Stats(); s != want {
		t.Fatalf("Stats = %+v, want %+v", s, want)
	}
	// The new slots sit below the freed ones, lowest first.
	if got, want := freeList(p), []uint32{6, 5, 4, 1, 3}; !slices.Equal(got, want) {
		t.Fatalf("free list %v (top last), want %v", got, want)
	}
	// The pending slot still waits for its frame and keeps its element.
	wantNoReclaim(t, p, 4)
	wantReclaim(t, p, 5, 0, 30)
	for k, want := range []uint32{0, 3, 1, 4, 5, 6} {
		h, _, err := p.Create()
		if err != nil || h.Index() != want {
			t.Fatalf("Create %d after Grow = %v, %v; want slot %d", k, h, err, want)
		}
		if hw := p.Stats().HighWater; hw != max(4, int(want)+1) {
			t.Fatalf("HighWater = %d after taking slot %d", hw, want)
		}
	}
	// The refusals are the bare sentinels; the pool describes itself.
	if _, _, err := p.Create(); err != ErrBudgetExhausted {
		t.Fatalf("Create on the grown pool when full = %v; want the bare ErrBudgetExhausted", err)
	}
	if err := p.Destroy(p.handle(9, 1)); err != ErrInvalidHandle {
		t.Fatalf("Destroy out of range = %v; want the bare ErrInvalidHandle", err)
	}
	if got := p.String(); got != "Pool[pools.texture] of 7 slots" {
		t.Fatalf("String after Grow = %q", got)
	}
}

func TestPoolGrowErrors(t *testing.T) {
	p := mustPool[texture](t, 4)
	h := createNamed(t, p, 1)
	p.DestroyAfter(createNamed(t, p, 2), 3)
	cases := []int{4, 3, 0, -1, math.MinInt}
	if above := int64(MaxCapacity) + 1; int64(int(above)) == above { // 64-bit int
		cases = append(cases, int(above), math.MaxInt)
	}
	for _, c := range cases {
		before := snapshot(p)
		err := p.Grow(c)
		if !errors.Is(err, ErrInvalidCapacity) {
			t.Fatalf("Grow(%d) = %v, want ErrInvalidCapacity", c, err)
		}
		if !strings.Contains(err.Error(), "capacity 4") || !strings.Contains(err.Error(), "Pool[pools.texture]") {
			t.Fatalf("Grow error %q does not name the pool and its capacity", err)
		}
		if !snapshot(p).equal(before) || p.Cap() != 4 || !p.Valid(h) {
			t.Fatalf("a refused Grow(%d) changed the pool", c)
		}
	}
	// Once grown, the refusal quotes the new capacity.
	if err := p.Grow(6); err != nil {
		t.Fatal(err)
	}
	if err := p.Grow(6); !strings.Contains(err.Error(), "capacity 6") {
		t.Fatalf("Grow(6) on capacity 6 = %v", err)
	}
}

func TestPoolGrowFromZeroAndFull(t *testing.T) {
	p := mustPool[texture](t, 0)
	if err := p.Grow(2); err != nil {
		t.Fatal(err)
	}
	a := createNamed(t, p, 1)
	b := createNamed(t, p, 2)
	if a.Index() != 0 || b.Index() != 1 {
		t.Fatalf("handles %v %v after growing from 0", a, b)
	}
	// A full pool: the free list is empty, so the new slots become all of it.
	if err := p.Grow(3); err != nil {
		t.Fatal(err)
	}
	if got := freeList(p); !slices.Equal(got, []uint32{2}) {
		t.Fatalf("free list %v, want [2]", got)
	}
	createNamed(t, p, 3)
	if _, _, err := p.Create(); !errors.Is(err, ErrBudgetExhausted) {
		t.Fatalf("Create past the grown capacity = %v", err)
	}
}

func TestPoolGrowKeepsReservations(t *testing.T) {
	p := mustPool[texture](t, 4)
	r, err := p.Reserve(3)
	if err != nil {
		t.Fatal(err)
	}
	h, _, _ := r.Claim(1)
	if err := p.Grow(8); err != nil {
		t.Fatal(err)
	}
	if r.Len() != 3 || !r.Claimed(1) || r.Claimed(0) || !p.Valid(h) {
		t.Fatal("the reservation changed across Grow")
	}
	h2, _, err := r.Claim(2)
	if err != nil || h2.Index() != 2 {
		t.Fatalf("Claim(2) after Grow = %v, %v", h2, err)
	}
	// The table grew too: 3 entries are held, and 5 more fit.
	r2, err := p.Reserve(5)
	if err != nil {
		t.Fatalf("Reserve(5) after Grow(8) = %v", err)
	}
	if s := p.Stats(); s.Reserved != 6 || s.HighWater != 8 || s.InUse != 2 {
		t.Fatalf("Stats = %+v", s)
	}
	if err := r.Release(); err != nil {
		t.Fatal(err)
	}
	if err := r2.Release(); err != nil {
		t.Fatal(err)
	}
	// r gave slot 0 back first, r2 then put 3..7 back above it, 3 on top.
	if got, want := freeList(p), []uint32{0, 7, 6, 5, 4, 3}; !slices.Equal(got, want) {
		t.Fatalf("free list %v (top last), want %v", got, want)
	}
}

// TestPoolHighWater follows the figure the descriptor heap reports: the
// number of distinct slots ever used, which recycling does not raise.
func TestPoolHighWater(t *testing.T) {
	p := mustPool[texture](t, 8)
	hw := func() int { return p.Stats().HighWater }
	if hw() != 0 {
		t.Fatalf("HighWater of a new pool = %d", hw())
	}
	createNamed(t, p, 1)
	b, c := createNamed(t, p, 2), createNamed(t, p, 3)
	if hw() != 3 {
		t.Fatalf("HighWater = %d after three creates", hw())
	}
	p.Destroy(b)
	p.DestroyAfter(c, 1)
	p.Reclaim(1)
	for range 2 { // reuse 2 then 1: no new slot
		createNamed(t, p, 4)
	}
	if hw() != 3 {
		t.Fatalf("HighWater = %d after recycling", hw())
	}
	// A reservation uses slots even if it claims none.
	r, _ := p.Reserve(2)
	if hw() != 5 {
		t.Fatalf("HighWater = %d after Reserve(2)", hw())
	}
	r.Release()
	p.Clear()
	if hw() != 5 {
		t.Fatalf("HighWater = %d after Clear; it counts since construction", hw())
	}
	// Clear hands out 0, 1, 2, ... again; only slot 5 on is new.
	for range 6 {
		createNamed(t, p, 5)
	}
	if hw() != 6 {
		t.Fatalf("HighWater = %d after six creates from a cleared pool", hw())
	}
}
