package pools

import (
	"testing"

	"github.com/steadyframe/steadyframe/internal/guardtest"
)

// sentinels is every error this package returns.
var sentinels = []error{ErrBudgetExhausted, ErrStaleHandle, ErrInvalidHandle, ErrInvalidCapacity,
	ErrInvalidCount, ErrOutOfRange, ErrNotLive, ErrAlreadyClaimed, ErrReservationReleased, ErrInvalidReservation}

// TestRefusalCheckNeverAllocates tests every refusal of the containers'
// methods with ==, a switch and errors.Is against every sentinel, under
// AllocsPerRun and millions of times in guarded frames. Before, the
// refusals were errors wrapped at construction, and errors.Is on them
// allocated now and then while the runtime filled its type-assertion
// caches for their types.
func TestRefusalCheckNeverAllocates(t *testing.T) {
	full := mustPool[texture](t, 2)
	live, _, _ := full.Create()
	stale, _, _ := full.Create()
	if err := full.Destroy(stale); err != nil {
		t.Fatal(err)
	}
	if _, _, err := full.Create(); err != nil {
		t.Fatal(err)
	}
	other := mustPool[texture](t, 2)
	foreign, _, _ := other.Create()

	resvPool := mustPool[texture](t, 4)
	resv, err := resvPool.Reserve(2)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := resv.Claim(0); err != nil {
		t.Fatal(err)
	}
	released, err := resvPool.Reserve(1)
	if err != nil {
		t.Fatal(err)
	}
	if err := released.Release(); err != nil {
		t.Fatal(err)
	}

	arena, _ := NewArena[texture](1)
	arena.Alloc()
	slots, _ := NewSlots[texture](2)

	guardtest.Refusals(t, sentinels, []guardtest.Refusal{
		{Name: "Create on a full pool", Want: ErrBudgetExhausted, Call: func() error { _, _, err := full.Create(); return err }},
		{Name: "Destroy of a stale handle", Want: ErrStaleHandle, Call: func() error { return full.Destroy(stale) }},
		{Name: "Destroy of the zero handle", Want: ErrInvalidHandle, Call: func() error { return full.Destroy(Handle[texture]{}) }},
		{Name: "Destroy of another pool's handle", Want: ErrInvalidHandle, Call: func() error { return full.Destroy(foreign) }},
		{Name: "DestroyAfter of a stale handle", Want: ErrStaleHandle, Call: func() error { return full.DestroyAfter(stale, 1) }},
		{Name: "Reserve past the budget", Want: ErrBudgetExhausted, Call: func() error { _, err := full.Reserve(1); return err }},
		{Name: "Reserve of 0", Want: ErrInvalidCount, Call: func() error { _, err := full.Reserve(0); return err }},
		{Name: "Claim twice", Want: ErrAlreadyClaimed, Call: func() error { _, _, err := resv.Claim(0); return err }},
		{Name: "Claim out of range", Want: ErrOutOfRange, Call: func() error { _, _, err := resv.Claim(5); return err }},
		{Name: "Claim after Release", Want: ErrReservationReleased, Call: func() error { _, _, err := released.Claim(0); return err }},
		{Name: "Claim on the zero Reservation", Want: ErrInvalidReservation, Call: func() error { _, _, err := Reservation[texture]{}.Claim(0); return err }},
		{Name: "Arena.Alloc when full", Want: ErrBudgetExhausted, Call: func() error { _, _, err := arena.Alloc(); return err }},
		{Name: "Slots.ReleaseAt of a free slot", Want: ErrNotLive, Call: func() error { return slots.ReleaseAt(1) }},
		{Name: "Slots.ReleaseAt out of range", Want: ErrOutOfRange, Call: func() error { return slots.ReleaseAt(9) }},
	}, 1_000_000)
	if !full.Valid(live) || full.Len() != 2 || other.Len() != 1 {
		t.Errorf("the refusals changed the pools: %+v", full.Stats())
	}
}
