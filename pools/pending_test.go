package pools

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

// texture is what a descriptor heap keeps per slot: the device object's
// name, which must survive the handle until the device is done with it.
type texture struct{ name uint32 }

// pendingQueue returns p's pending queue, oldest first, checking that it
// ends at pendTail and holds distinct slots, each with an even generation.
func pendingQueue[T any](p *Pool[T]) []uint32 {
	var q []uint32
	seen := make(map[uint32]bool)
	for k, i := 0, p.pendHead; k < p.pending; k, i = k+1, p.slots[i].next {
		if seen[i] || p.slots[i].gen&1 != 0 {
			panic(fmt.Sprintf("pending queue %v then slot %d (gen %d) is broken", q, i, p.slots[i].gen))
		}
		seen[i] = true
		q = append(q, i)
	}
	if len(q) > 0 && q[len(q)-1] != p.pendTail {
		panic(fmt.Sprintf("pending queue %v ends at %d, not at pendTail %d", q, q[len(q)-1], p.pendTail))
	}
	return q
}

// poolSnapshot is everything a refused call must leave as it was.
type poolSnapshot struct {
	stats   Stats
	slots   []slot
	elems   []texture
	head    uint32
	pending []uint32
}

func snapshot(p *Pool[texture]) poolSnapshot {
	return poolSnapshot{p.Stats(), slices.Clone(p.slots), slices.Clone(p.elems), p.head, pendingQueue(p)}
}

func (s poolSnapshot) equal(o poolSnapshot) bool {
	return s.stats == o.stats && slices.Equal(s.slots, o.slots) && slices.Equal(s.elems, o.elems) &&
		s.head == o.head && slices.Equal(s.pending, o.pending)
}

// createNamed creates an element holding name and returns its handle.
func createNamed(t *testing.T, p *Pool[texture], name uint32) Handle[texture] {
	t.Helper()
	h, e, err := p.Create()
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	e.name = name
	return h
}

// wantReclaim calls Reclaim(completed) and checks what it returns.
func wantReclaim(t *testing.T, p *Pool[texture], completed uint64, index uint32, name uint32) {
	t.Helper()
	i, e, ok := p.Reclaim(completed)
	if !ok || i != index || e.name != name {
		t.Fatalf("Reclaim(%d) = %d, %+v, %v; want slot %d holding %d", completed, i, e, ok, index, name)
	}
}

// wantNoReclaim checks that Reclaim(completed) reclaims nothing and
// changes nothing.
func wantNoReclaim(t *testing.T, p *Pool[texture], completed uint64) {
	t.Helper()
	before := snapshot(p)
	if i, e, ok := p.Reclaim(completed); ok || i != 0 || e != (texture{}) {
		t.Fatalf("Reclaim(%d) = %d, %+v, %v; want nothing", completed, i, e, ok)
	}
	if !snapshot(p).equal(before) {
		t.Fatalf("a Reclaim(%d) that reclaimed nothing changed the pool", completed)
	}
}

func TestPoolDestroyAfterLifecycle(t *testing.T) {
	p := mustPool[texture](t, 3)
	a := createNamed(t, p, 101)
	b := createNamed(t, p, 102)
	if err := p.DestroyAfter(a, 7); err != nil {
		t.Fatal(err)
	}
	// The handle dies at once, for every use.
	if p.Valid(a) || p.Get(a) != nil {
		t.Fatal("a handle is still valid after DestroyAfter")
	}
	if err := p.Destroy(a); !errors.Is(err, ErrStaleHandle) {
		t.Fatalf("Destroy after DestroyAfter = %v, want ErrStaleHandle", err)
	}
	if err := p.DestroyAfter(a, 8); !errors.Is(err, ErrStaleHandle) {
		t.Fatalf("DestroyAfter twice = %v, want ErrStaleHandle", err)
	}
	// The element keeps its value: the device may still use what it names.
	if p.elems[a.Index()].name != 101 {
		t.Fatalf("pending element = %+v, want it kept", p.elems[a.Index()])
	}
	want := Stats{Capacity: 3, InUse: 1, PeakInUse: 2, Pending: 1, HighWater: 2, TotalCreated: 2,
		BytesCapacity: 3 * (4 + perSlotBookkeeping), BytesInUse: 4}
	if s := p.Stats(); s != want {
		t.Fatalf("Stats = %+v, want %+v", s, want)
	}
	if p.Available() != 1 {
		t.Fatalf("Available = %d, want 1 (one live, one pending)", p.Available())
	}
	// The pending slot counts against the budget.
	c := createNamed(t, p, 103)
	if _, _, err := p.Create(); !errors.Is(err, ErrBudgetExhausted) {
		t.Fatalf("Create with every slot live or pending = %v", err)
	}
	if _, err := p.Reserve(1); !errors.Is(err, ErrBudgetExhausted) {
		t.Fatalf("Reserve with every slot live or pending = %v", err)
	}
	wantNoReclaim(t, p, 6)
	wantReclaim(t, p, 7, a.Index(), 101)
	wantNoReclaim(t, p, 1000)
	if p.elems[a.Index()] != (texture{}) {
		t.Fatal("Reclaim left the element in the pool")
	}
	// The reclaimed slot is reused, with a generation no handle has had.
	d := createNamed(t, p, 104)
	if d.Index() != a.Index() || d.Generation() != a.Generation()+2 || p.Valid(a) {
		t.Fatalf("Create after Reclaim = %v; want slot %d at generation %d", d, a.Index(), a.Generation()+2)
	}
	for _, h := range []Handle[texture]{b, c, d} {
		if !p.Valid(h) {
			t.Fatalf("%v turned invalid", h)
		}
	}
	if s := p.Stats(); s.Pending != 0 || s.InUse != 3 || s.HighWater != 3 || s.Retired != 0 {
		t.Fatalf("Stats = %+v", s)
	}
}

func TestPoolDestroyAfterErrors(t *testing.T) {
	p := mustPool[texture](t, 4)
	live := createNamed(t, p, 1)
	stale := createNamed(t, p, 2)
	if err := p.Destroy(stale); err != nil {
		t.Fatal(err)
	}
	pending := createNamed(t, p, 3)
	if err := p.DestroyAfter(pending, 5); err != nil {
		t.Fatal(err)
	}
	other := mustPool[texture](t, 16)
	for range 10 {
		other.Create()
	}
	far, _, _ := other.Create()
	cases := []struct {
		name string
		h    Handle[texture]
		want error
	}{
		{"zero", Handle[texture]{}, ErrInvalidHandle},
		{"out of range", far, ErrInvalidHandle},
		{"stale", stale, ErrStaleHandle},
		{"already pending", pending, ErrStaleHandle},
		{"forged even generation", HandleFromBits[texture](uint64(2)<<32 | uint64(^uint32(0))), ErrInvalidHandle},
		{"never issued generation", p.handle(3, 5), ErrStaleHandle},
		{"max index", p.handle(indexMask, 1), ErrInvalidHandle},
		{"another pool's", other.handle(3, 1), ErrInvalidHandle},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := snapshot(p)
			err := p.DestroyAfter(c.h, 9)
			if !errors.Is(err, c.want) {
				t.Fatalf("DestroyAfter = %v, want %v", err, c.want)
			}
			// The same prebuilt errors as Destroy.
			if derr := p.Destroy(c.h); derr != err {
				t.Fatalf("DestroyAfter returned %v, Destroy %v; want the same error", err, derr)
			}
			if !snapshot(p).equal(before) {
				t.Fatal("a rejected DestroyAfter changed the pool")
			}
			if !p.Valid(live) {
				t.Fatal("a rejected DestroyAfter invalidated another handle")
			}
		})
	}
}

// TestPoolDestroyAfterLowerSerialWaits checks the one rule that keeps the
// queue in order: a serial below an earlier pending one waits for that
// one too, never less.
func TestPoolDestroyAfterLowerSerialWaits(t *testing.T) {
	p := mustPool[texture](t, 4)
	a, b, c := createNamed(t, p, 1), createNamed(t, p, 2), createNamed(t, p, 3)
	p.DestroyAfter(a, 5)
	p.DestroyAfter(b, 3) // waits behind a
	p.DestroyAfter(c, 9)
	if got := []uint64{p.slots[a.Index()].serial, p.slots[b.Index()].serial, p.slots[c.Index()].serial}; !slices.Equal(got, []uint64{5, 3, 9}) {
		t.Fatalf("serials %v, want [5 3 9]", got)
	}
	wantNoReclaim(t, p, 3) // b asked for 3, but it waits behind a
	wantNoReclaim(t, p, 4)
	wantReclaim(t, p, 5, a.Index(), 1)
	wantReclaim(t, p, 5, b.Index(), 2)
	wantNoReclaim(t, p, 8)
	wantReclaim(t, p, 9, c.Index(), 3)
	// With the queue empty again, any serial goes: nothing is ahead of it.
	d := createNamed(t, p, 4)
	p.DestroyAfter(d, 1)
	wantReclaim(t, p, 1, d.Index(), 4)
}

// TestPoolReclaimOrder checks both lists: pending slots come back oldest
// first, and each lands on top of the free list, ahead of slots freed
// earlier and of slots never used.
func TestPoolReclaimOrder(t *testing.T) {
	p := mustPool[texture](t, 6)
	var hs []Handle[texture]
	for k := range 4 {
		hs = append(hs, createNamed(t, p, uint32(10+k)))
	}
	p.Destroy(hs[3]) // free list, top first: 3, 4, 5
	p.DestroyAfter(hs[2], 1)
	p.DestroyAfter(hs[0], 1)
	p.DestroyAfter(hs[1], 2)
	if got := pendingQueue(p); !slices.Equal(got, []uint32{2, 0, 1}) {
		t.Fatalf("pending queue %v, want [2 0 1]", got)
	}
	for range 3 {
		if _, _, ok := p.Reclaim(2); !ok {
			t.Fatal("Reclaim(2) found nothing")
		}
	}
	// Reclaimed 2, 0, 1 in that order; each went on top.
	if got, want := freeList(p), []uint32{5, 4, 3, 2, 0, 1}; !slices.Equal(got, want) {
		t.Fatalf("free list %v (top last), want %v", got, want)
	}
	for _, want := range []uint32{1, 0, 2, 3, 4, 5} {
		h, _, err := p.Create()
		if err != nil || h.Index() != want {
			t.Fatalf("Create = %v, %v; want slot %d", h, err, want)
		}
	}
}

func TestPoolClearKeepsPending(t *testing.T) {
	p := mustPool[texture](t, 6)
	var hs []Handle[texture]
	for k := range 5 {
		hs = append(hs, createNamed(t, p, uint32(20+k)))
	}
	p.DestroyAfter(hs[3], 4)
	p.DestroyAfter(hs[1], 6)
	r, err := p.Reserve(1) // slot 5
	if err != nil {
		t.Fatal(err)
	}
	p.Clear()
	for _, h := range hs {
		if p.Valid(h) {
			t.Fatalf("%v valid after Clear", h)
		}
	}
	if err := r.Release(); !errors.Is(err, ErrReservationReleased) {
		t.Fatalf("Release after Clear = %v", err)
	}
	if s := p.Stats(); s.InUse != 0 || s.Pending != 2 || s.Reserved != 0 || s.HighWater != 6 {
		t.Fatalf("Stats after Clear = %+v", s)
	}
	if p.Available() != 4 {
		t.Fatalf("Available after Clear = %d, want 4", p.Available())
	}
	// The free list is rebuilt lowest first around the pending slots.
	if got, want := freeList(p), []uint32{5, 4, 2, 0}; !slices.Equal(got, want) {
		t.Fatalf("free list after Clear %v (top last), want %v", got, want)
	}
	if p.slots[3].gen&1 != 0 || p.slots[1].gen&1 != 0 {
		t.Fatal("Clear left a pending slot's generation odd")
	}
	// Pending slots still hold their elements and reclaim in order.
	wantNoReclaim(t, p, 3)
	wantReclaim(t, p, 6, 3, 23)
	wantReclaim(t, p, 6, 1, 21)
	if got, want := freeList(p), []uint32{5, 4, 2, 0, 3, 1}; !slices.Equal(got, want) {
		t.Fatalf("free list %v (top last), want %v", got, want)
	}
}

// TestPoolPendingRetiresSpentSlot drives a slot to its last generations
// through the pending path: a slot lives 2^31-1 times, and the reclaim
// that ends the last life retires it instead of freeing it.
func TestPoolPendingRetiresSpentSlot(t *testing.T) {
	p := mustPool[texture](t, 2)
	ageFreeSlots(p, genRetired-4) // two lives left for each slot
	var issued []Handle[texture]
	h := createNamed(t, p, 1)
	issued = append(issued, h)
	p.DestroyAfter(h, 1)
	wantReclaim(t, p, 1, 0, 1)
	if s := p.Stats(); s.Retired != 0 || freeList(p)[1] != 0 {
		t.Fatalf("after the second-to-last life: %+v, free %v", s, freeList(p))
	}
	last := createNamed(t, p, 2)
	issued = append(issued, last)
	if last.Index() != 0 || last.Generation() != genRetired-1 {
		t.Fatalf("last handle = %v, want slot 0 at generation %d", last, genRetired-1)
	}
	if err := p.DestroyAfter(last, 2); err != nil {
		t.Fatal(err)
	}
	// Spent but still pending: the device may use it, so it is not
	// retired yet, and it stays out of the budget either way.
	if s := p.Stats(); s.Retired != 0 || s.Pending != 1 || p.Available() != 1 {
		t.Fatalf("spent pending slot: %+v, available %d", s, p.Available())
	}
	wantReclaim(t, p, 2, 0, 2)
	if s := p.Stats(); s.Retired != 1 || s.Pending != 0 || s.InUse != 0 || p.Available() != 1 {
		t.Fatalf("after the last reclaim: %+v, available %d", s, p.Available())
	}
	if got := freeList(p); !slices.Equal(got, []uint32{1}) {
		t.Fatalf("free list %v, want only slot 1", got)
	}
	// Slot 0 never comes back, and none of its handles validates again.
	h1 := createNamed(t, p, 3)
	if h1.Index() != 1 {
		t.Fatalf("Create = %v, want slot 1", h1)
	}
	if _, _, err := p.Create(); !errors.Is(err, ErrBudgetExhausted) {
		t.Fatalf("Create with slot 0 retired and slot 1 live = %v", err)
	}
	for _, g := range []uint32{1, 3, genRetired - 3, genRetired - 1, genRetired, genRetired + 1} {
		if p.Valid(HandleFromBits[texture](uint64(g)<<32 | uint64(^uint32(0)))) {
			t.Fatalf("generation %#x of the retired slot validates", g)
		}
	}
	for _, h := range issued {
		if p.Valid(h) || p.DestroyAfter(h, 9) == nil || p.Destroy(h) == nil {
			t.Fatalf("%v of the retired slot is accepted", h)
		}
	}
	p.Clear()
	if s := p.Stats(); s.Retired != 1 || !slices.Equal(freeList(p), []uint32{1}) {
		t.Fatalf("after Clear: %+v, free %v", s, freeList(p))
	}
}

func TestPoolAvailable(t *testing.T) {
	p := mustPool[texture](t, 8)
	if p.Available() != 8 {
		t.Fatalf("Available of a new pool = %d", p.Available())
	}
	a := createNamed(t, p, 1)
	b := createNamed(t, p, 2)
	p.DestroyAfter(b, 1)
	r, _ := p.Reserve(2)
	ageFreeSlots(p, genRetired-2)
	c := createNamed(t, p, 3)
	p.Destroy(c) // retires
	// 8 - live 1 - pending 1 - reserved 2 - retired 1
	if p.Available() != 3 {
		t.Fatalf("Available = %d, want 3 (stats %+v)", p.Available(), p.Stats())
	}
	// Exactly Available creates succeed, as an all-or-nothing batch needs.
	for range p.Available() {
		createNamed(t, p, 4)
	}
	if _, _, err := p.Create(); !errors.Is(err, ErrBudgetExhausted) || p.Available() != 0 {
		t.Fatalf("Create past Available = %v, Available %d", err, p.Available())
	}
	r.Release()
	p.Reclaim(1)
	p.Destroy(a)
	if p.Available() != 4 {
		t.Fatalf("Available = %d, want 4", p.Available())
	}
}

func TestHandleString(t *testing.T) {
	p := mustPool[texture](t, 8)
	for range 3 {
		p.Create()
	}
	h, _, _ := p.Create()
	p.Destroy(h)
	h, _, _ = p.Create()
	cases := []struct {
		h    Handle[texture]
		want string
	}{
		{Handle[texture]{}, "none"},
		{HandleFromBits[texture](0), "none"},
		{h, "slot 3 gen 3"},
		{p.handle(0, 1), "slot 0 gen 1"},
		{p.handle(MaxCapacity-1, genRetired-1), "slot 16777215 gen 4294967293"},
		{p.handle(indexMask, ^uint32(0)), "slot 16777215 gen 4294967295"},
	}
	for _, c := range cases {
		if got := c.h.String(); got != c.want {
			t.Errorf("String(%#x) = %q, want %q", c.h.Bits(), got, c.want)
		}
	}
}
