package pools

import (
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

type entity struct {
	name string
	hp   int
}

func mustPool[T any](t *testing.T, capacity int) *Pool[T] {
	t.Helper()
	p, err := NewPool[T](capacity)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestConstructorsRejectBadCapacity(t *testing.T) {
	bad := []int{-1, math.MinInt}
	if above := int64(MaxCapacity) + 1; int64(int(above)) == above { // 64-bit int
		bad = append(bad, int(above), math.MaxInt)
	}
	for _, c := range bad {
		if _, err := NewPool[int](c); !errors.Is(err, ErrInvalidCapacity) {
			t.Errorf("NewPool(%d) = %v, want ErrInvalidCapacity", c, err)
		}
		if _, err := NewArena[int](c); !errors.Is(err, ErrInvalidCapacity) {
			t.Errorf("NewArena(%d) = %v, want ErrInvalidCapacity", c, err)
		}
		if _, err := NewSlots[int](c); !errors.Is(err, ErrInvalidCapacity) {
			t.Errorf("NewSlots(%d) = %v, want ErrInvalidCapacity", c, err)
		}
	}
	_, err := NewPool[int](-3)
	if !strings.Contains(err.Error(), "-3") {
		t.Errorf("error %q does not name the capacity", err)
	}
}

func TestPoolCapacityZero(t *testing.T) {
	p := mustPool[int](t, 0)
	h, e, err := p.Create()
	if !errors.Is(err, ErrBudgetExhausted) || e != nil || !h.IsZero() {
		t.Fatalf("Create on capacity 0 = %v, %v, %v", h, e, err)
	}
	if _, err := p.Reserve(1); !errors.Is(err, ErrBudgetExhausted) {
		t.Fatalf("Reserve(1) on capacity 0 = %v", err)
	}
	p.Clear()
	if s := p.Stats(); s.Refused != 2 || s.Capacity != 0 || s.BytesCapacity != 0 {
		t.Fatalf("Stats = %+v", s)
	}
}

func TestPoolLifecycle(t *testing.T) {
	p := mustPool[entity](t, 2)
	h1, e1, err := p.Create()
	if err != nil {
		t.Fatal(err)
	}
	e1.name, e1.hp = "orc", 7
	h2, _, _ := p.Create()
	if h1.Index() != 0 || h1.Generation() != 1 || h2.Index() != 1 {
		t.Fatalf("handles %v %v: want slots 0 and 1 at generation 1", h1, h2)
	}
	if _, _, err := p.Create(); err != ErrBudgetExhausted {
		t.Fatalf("third Create = %v, want the bare ErrBudgetExhausted", err)
	}
	if got := p.Get(h1); got != e1 || got.name != "orc" {
		t.Fatalf("Get(h1) = %v", got)
	}
	if err := p.Destroy(h1); err != nil {
		t.Fatal(err)
	}
	if e1.name != "" || e1.hp != 0 {
		t.Fatalf("Destroy left the element %+v, want it zeroed", *e1)
	}
	if p.Valid(h1) || p.Get(h1) != nil {
		t.Fatal("destroyed handle is still valid")
	}
	// LIFO: the freed slot comes back first, with a new generation.
	h3, e3, _ := p.Create()
	if h3.Index() != 0 || h3.Generation() != 3 || e3 != e1 {
		t.Fatalf("recreated %v, want slot 0 generation 3", h3)
	}
	if p.Valid(h1) {
		t.Fatal("old handle validates against the reused slot")
	}
	s := p.Stats()
	want := Stats{Capacity: 2, InUse: 2, PeakInUse: 2, HighWater: 2, TotalCreated: 3, Refused: 1,
		BytesCapacity: 2 * (unsafe.Sizeof(entity{}) + perSlotBookkeeping),
		BytesInUse:    2 * unsafe.Sizeof(entity{})}
	if s != want {
		t.Fatalf("Stats = %+v, want %+v", s, want)
	}
}

func TestPoolDestroyErrors(t *testing.T) {
	p := mustPool[int](t, 4)
	live, _, _ := p.Create()
	stale, _, _ := p.Create()
	if err := p.Destroy(stale); err != nil {
		t.Fatal(err)
	}
	other := mustPool[int](t, 16)
	for range 10 {
		other.Create()
	}
	far, _, _ := other.Create()
	cases := []struct {
		name string
		h    Handle[int]
		want error
	}{
		{"zero", Handle[int]{}, ErrInvalidHandle},
		{"out of range", far, ErrInvalidHandle},
		{"stale", stale, ErrStaleHandle},
		{"forged even generation", HandleFromBits[int](uint64(2)<<32 | uint64(^uint32(0))), ErrInvalidHandle},
		{"never issued generation", p.handle(2, 5), ErrStaleHandle},
		{"max index", p.handle(indexMask, 1), ErrInvalidHandle},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := p.Stats()
			slots, head := slices.Clone(p.slots), p.head
			if err := p.Destroy(c.h); !errors.Is(err, c.want) {
				t.Fatalf("Destroy = %v, want %v", err, c.want)
			}
			if p.Valid(c.h) || p.Get(c.h) != nil {
				t.Fatal("a rejected handle is valid")
			}
			if p.Stats() != before || !slices.Equal(slots, p.slots) || head != p.head {
				t.Fatal("a rejected Destroy changed the pool")
			}
			if !p.Valid(live) {
				t.Fatal("a rejected Destroy invalidated another handle")
			}
		})
	}
}

func TestPoolDestroyTwice(t *testing.T) {
	p := mustPool[int](t, 1)
	h, _, _ := p.Create()
	if err := p.Destroy(h); err != nil {
		t.Fatal(err)
	}
	err := p.Destroy(h)
	if err != ErrStaleHandle || p.String() != "Pool[int] of 1 slots" {
		t.Fatalf("second Destroy = %v on %v, want the bare ErrStaleHandle", err, p)
	}
	if p.Len() != 0 || len(freeList(p)) != 1 {
		t.Fatalf("double destroy changed the pool: len %d, free %v", p.Len(), freeList(p))
	}
}

func TestPoolClear(t *testing.T) {
	p := mustPool[entity](t, 3)
	var hs []Handle[entity]
	for range 3 {
		h, e, _ := p.Create()
		e.name = "x"
		hs = append(hs, h)
	}
	p.Destroy(hs[1])
	res, _ := p.Reserve(1)
	p.Clear()
	for _, h := range hs {
		if p.Valid(h) {
			t.Fatalf("handle %v valid after Clear", h)
		}
	}
	if err := res.Release(); !errors.Is(err, ErrReservationReleased) {
		t.Fatalf("Release after Clear = %v", err)
	}
	for i := range p.elems {
		if p.elems[i] != (entity{}) {
			t.Fatalf("element %d not zeroed by Clear", i)
		}
	}
	if p.Len() != 0 || p.Cap() != 3 || p.Stats().PeakInUse != 3 {
		t.Fatalf("after Clear: Len %d Cap %d Stats %+v", p.Len(), p.Cap(), p.Stats())
	}
	// A cleared pool hands out slots in the order a new one does.
	for want := range 3 {
		h, _, err := p.Create()
		if err != nil || int(h.Index()) != want {
			t.Fatalf("Create after Clear = %v, %v; want slot %d", h, err, want)
		}
	}
}

// TestPoolDeterministic pins the handle sequence of a fixed script: the
// same calls must give the same handles on every platform and every run.
func TestPoolDeterministic(t *testing.T) {
	run := func() []uint64 {
		p := mustPool[int](t, 4)
		var out, live []uint64
		for step := range 40 {
			if step%3 == 2 && len(live) > 0 {
				k := (step * 7) % len(live)
				p.Destroy(HandleFromBits[int](live[k]))
				live = append(live[:k], live[k+1:]...)
				continue
			}
			if h, _, err := p.Create(); err == nil {
				out = append(out, uint64(h.Index())<<32|uint64(h.Generation()))
				live = append(live, h.Bits())
			}
		}
		return out
	}
	a, b := run(), run()
	if len(a) != len(b) {
		t.Fatalf("runs differ: %v vs %v", a, b)
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("runs differ at %d: %v vs %v", i, a, b)
		}
	}
	// The first handles of the script, fixed forever: index<<32 | generation.
	want := []uint64{0<<32 | 1, 1<<32 | 1, 0<<32 | 3, 2<<32 | 1, 2<<32 | 3, 3<<32 | 1, 1<<32 | 3}
	for i, w := range want {
		if a[i] != w {
			t.Fatalf("handle %d = %#x, want %#x (sequence %x)", i, a[i], w, a)
		}
	}
}

// deterministicScript runs a fixed mix of every Pool operation that hands
// out or takes back slots (Create, Destroy, Reserve, Claim, Release, Clear,
// DestroyAfter, Reclaim, Grow, and the retirement of a spent slot) and
// returns each issued handle as "index:generation", in order.
func deterministicScript() []string {
	p, err := NewPool[int](5)
	if err != nil {
		panic(err)
	}
	var out []string
	issued := func(h Handle[int]) Handle[int] {
		out = append(out, fmt.Sprintf("%d:%d", h.Index(), h.Generation()))
		return h
	}
	create := func() Handle[int] {
		h, _, err := p.Create()
		if err != nil {
			panic(err)
		}
		return issued(h)
	}
	a, b, c := create(), create(), create()
	p.Destroy(b)
	p.Destroy(a)
	r, err := p.Reserve(3) // slots 0, 1, 3: the free list top first
	if err != nil {
		panic(err)
	}
	for _, pos := range []int{2, 0} {
		h, _, err := r.Claim(pos)
		if err != nil {
			panic(err)
		}
		issued(h)
	}
	r.Release() // position 1's slot goes back on top
	d := create()
	p.Destroy(c)
	create()
	p.Destroy(d)
	p.Clear()
	ageFreeSlots(p, genRetired-2) // slot 0 retires after one more life
	h := create()
	p.Destroy(h)
	var aged []Handle[int]
	for range 4 {
		aged = append(aged, create())
	}
	out = append(out, fmt.Sprintf("retired %d", p.Stats().Retired))
	if err := p.Grow(7); err != nil {
		panic(err)
	}
	e, f := create(), create()
	p.DestroyAfter(e, 3)
	p.DestroyAfter(aged[0], 2) // raised to 3; its slot's last life
	p.DestroyAfter(f, 4)
	for _, _, ok := p.Reclaim(3); ok; _, _, ok = p.Reclaim(3) {
	}
	create()
	out = append(out, fmt.Sprintf("retired %d pending %d high water %d", p.Stats().Retired, p.Stats().Pending, p.Stats().HighWater))
	return out
}

// TestPoolDeterministicAllOperations pins the handles of a script that
// uses every operation, reservations and retirement included: allocation
// is integer bookkeeping only, so this sequence is the same on every
// platform and in every run, and a replay recorded anywhere stays valid.
func TestPoolDeterministicAllOperations(t *testing.T) {
	want := []string{
		// A fresh pool hands out the lowest index first.
		"0:1", "1:1", "2:1",
		// Reserve(3) took slots 0, 1, 3; Claim(2), then Claim(0).
		"3:1", "0:3",
		// Release put slot 1 back on top; Destroy(c) then freed slot 2.
		"1:3", "2:3",
		// After Clear and aging, slot 0 lives once more and retires.
		"0:4294967293",
		"1:4294967293", "2:4294967293", "3:4294967293", "4:4294967293",
		"retired 1",
		// Grow adds slots 5 and 6. Reclaim(3) frees slot 5 and retires
		// slot 1; slot 6 waits for frame 4; Create reuses slot 5.
		"5:1", "6:1", "5:3",
		"retired 2 pending 1 high water 7",
	}
	got := deterministicScript()
	if !slices.Equal(got, want) {
		t.Fatalf("handle sequence\n got %v\nwant %v", got, want)
	}
}

func TestHandleBits(t *testing.T) {
	p := mustPool[int](t, 8)
	for range 5 {
		p.Create()
	}
	h, _, _ := p.Create()
	if back := HandleFromBits[int](h.Bits()); back != h || !p.Valid(back) {
		t.Fatalf("HandleFromBits(Bits()) = %v, want %v", back, h)
	}
	var zero Handle[int]
	if zero.Bits() != 0 || !HandleFromBits[int](0).IsZero() || !zero.IsZero() || h.IsZero() {
		t.Fatal("zero Handle does not round-trip through 0")
	}
	if zero.Index() != ^uint32(0) || zero.Generation() != 0 {
		t.Fatalf("zero Handle index %d generation %d", zero.Index(), zero.Generation())
	}
	if unsafe.Sizeof(h) != 8 {
		t.Fatalf("Handle is %d bytes, want 8", unsafe.Sizeof(h))
	}
	if perSlotBookkeeping != 36 {
		t.Fatalf("Pool keeps %d bytes per slot; its doc says 36", perSlotBookkeeping)
	}
}

// TestHandleTypesDoNotMix builds testdata/typemix, which passes a
// Handle[Texture] where a Handle[Sound] is wanted, and checks the compiler
// refuses each swap: by assignment, by argument and by conversion.
func TestHandleTypesDoNotMix(t *testing.T) {
	out, err := testenv.Go(t, nil, "build", "-gcflags=-e", "-o", os.DevNull, "./testdata/typemix")
	if err == nil {
		t.Fatalf("testdata/typemix compiled; handles of different types mix:\n%s", out)
	}
	msg := string(out)
	for _, want := range []string{
		"typemix.go:15:", "typemix.go:16:", "typemix.go:17:",
		"cannot use t", "cannot convert t",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("compiler output lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "typemix.go:18:") || strings.Contains(msg, "typemix.go:19:") {
		t.Errorf("a well-typed line was rejected:\n%s", msg)
	}
}

// ageFreeSlots moves every free slot of p to generation gen (even): the
// test hook that puts the wrap path seconds away instead of 2^31 reuses.
func ageFreeSlots[T any](p *Pool[T], gen uint32) {
	for _, i := range freeList(p) {
		p.slots[i].gen = gen
	}
}

// freeList returns p's free list as a stack, the top last, checking that
// it is as long as the free count says.
func freeList[T any](p *Pool[T]) []uint32 {
	var top []uint32
	for i := p.head; i != noSlot && len(top) <= len(p.slots); i = p.slots[i].next {
		top = append(top, i)
	}
	if len(top) != p.Available() {
		panic(fmt.Sprintf("free list %v holds %d slots; the free count is %d", top, len(top), p.Available()))
	}
	slices.Reverse(top)
	return top
}

func TestPoolRetiresSlotBeforeGenerationWraps(t *testing.T) {
	p := mustPool[int](t, 2)
	ageFreeSlots(p, genRetired-4)
	h, _, _ := p.Create()
	if h.Index() != 0 || h.Generation() != genRetired-3 {
		t.Fatalf("Create = %d:%#x", h.Index(), h.Generation())
	}
	p.Destroy(h)
	last, _, _ := p.Create()
	if last.Index() != 0 || last.Generation() != genRetired-1 {
		t.Fatalf("last handle = %d:%#x, want slot 0 at %#x", last.Index(), last.Generation(), genRetired-1)
	}
	if err := p.Destroy(last); err != nil {
		t.Fatal(err)
	}
	if s := p.Stats(); s.Retired != 1 || s.InUse != 0 || s.PeakInUse != 1 {
		t.Fatalf("Stats after retiring = %+v", s)
	}
	// Slot 0 is retired: the next creates use slot 1 and then fail, and
	// no handle ever issued for slot 0 validates again.
	h1, _, err := p.Create()
	if err != nil || h1.Index() != 1 {
		t.Fatalf("Create = %v, %v; want slot 1", h1, err)
	}
	if _, _, err := p.Create(); !errors.Is(err, ErrBudgetExhausted) {
		t.Fatalf("Create with one slot retired and one live = %v", err)
	}
	// Handles reach a pool only through the pool or HandleFromBits, which
	// turns the even generations (the retired marker included) into the
	// zero Handle, so these are all the bit patterns a caller can present.
	for _, g := range []uint32{1, 3, 5, genRetired - 5, genRetired - 3, genRetired - 1, genRetired, genRetired + 1} {
		if p.Valid(HandleFromBits[int](uint64(g)<<32 | uint64(^uint32(0)))) {
			t.Fatalf("generation %#x of the retired slot validates", g)
		}
	}
	if err := p.Destroy(last); !errors.Is(err, ErrStaleHandle) {
		t.Fatalf("Destroy of the last handle again = %v", err)
	}
	// Clear keeps the retired slot out of the free list.
	p.Clear()
	if s := p.Stats(); s.Retired != 1 || len(freeList(p)) != 1 {
		t.Fatalf("after Clear: %+v, free %v", s, freeList(p))
	}
}

func TestPoolClearRetiresSpentSlots(t *testing.T) {
	p := mustPool[int](t, 3)
	ageFreeSlots(p, genRetired-2)
	for range 3 {
		p.Create()
	}
	p.Clear()
	if s := p.Stats(); s.Retired != 3 || s.PeakInUse != 3 || s.InUse != 0 {
		t.Fatalf("Stats = %+v", s)
	}
	if _, _, err := p.Create(); !errors.Is(err, ErrBudgetExhausted) {
		t.Fatalf("Create in a fully retired pool = %v", err)
	}
	if _, err := p.Reserve(1); !errors.Is(err, ErrBudgetExhausted) {
		t.Fatalf("Reserve in a fully retired pool = %v", err)
	}
}

func TestPoolRetireViaReservationClaim(t *testing.T) {
	p := mustPool[int](t, 2)
	ageFreeSlots(p, genRetired-2)
	r, err := p.Reserve(2)
	if err != nil {
		t.Fatal(err)
	}
	h, _, err := r.Claim(1)
	if err != nil || h.Generation() != genRetired-1 {
		t.Fatalf("Claim = %v, %v", h, err)
	}
	if err := r.Release(); err != nil {
		t.Fatal(err)
	}
	if err := p.Destroy(h); err != nil {
		t.Fatal(err)
	}
	if s := p.Stats(); s.Retired != 1 || s.PeakInUse != 1 || s.InUse != 0 || len(freeList(p)) != 1 {
		t.Fatalf("Stats = %+v, free %v", s, freeList(p))
	}
}
