package pools_test

import (
	"errors"
	"fmt"

	"github.com/steadyframe/steadyframe/pools"
)

type Entity struct {
	Name string
	HP   int
}

// A Pool holds long-lived objects named by generational handles. A handle
// to a destroyed object reads as stale; it never reaches the object that
// reused its slot.
func ExamplePool() {
	entities, err := pools.NewPool[Entity](2)
	if err != nil {
		panic(err)
	}
	orc, e, _ := entities.Create()
	e.Name, e.HP = "orc", 12

	if _, _, err := entities.Create(); err != nil {
		panic(err)
	}
	// The budget is fixed: a third entity is refused, not grown into.
	if _, _, err := entities.Create(); err == pools.ErrBudgetExhausted {
		fmt.Println("refused:", err, "by", entities) // the detail is the pool's
	}

	fmt.Println(entities.Get(orc).Name, entities.Len())
	_ = entities.Destroy(orc)
	troll, e, _ := entities.Create() // reuses the orc's slot
	e.Name = "troll"

	fmt.Println(entities.Get(orc) == nil, entities.Valid(troll))
	fmt.Println(errors.Is(entities.Destroy(orc), pools.ErrStaleHandle))
	s := entities.Stats()
	fmt.Println("in use", s.InUse, "peak", s.PeakInUse, "created", s.TotalCreated, "refused", s.Refused)
	// Output:
	// refused: pools: budget exhausted by Pool[pools_test.Entity] of 2 slots
	// orc 2
	// true true
	// true
	// in use 2 peak 2 created 3 refused 1
}

// Reserve admits a batch all or nothing; the caller constructs only the
// positions it needs and gives the rest back.
func ExamplePool_Reserve() {
	entities, _ := pools.NewPool[Entity](4)
	if _, err := entities.Reserve(5); errors.Is(err, pools.ErrBudgetExhausted) {
		fmt.Println("a batch of 5 does not fit; nothing was taken")
	}
	batch, err := entities.Reserve(3)
	if err != nil {
		panic(err)
	}
	h, e, _ := batch.Claim(1)
	e.Name = "archer"
	_, _, err = batch.Claim(1)
	fmt.Println(errors.Is(err, pools.ErrAlreadyClaimed))

	_ = batch.Release() // positions 0 and 2 go back to the pool
	fmt.Println(entities.Get(h).Name, entities.Len(), entities.Stats().Reserved)
	// Output:
	// a batch of 5 does not fit; nothing was taken
	// true
	// archer 1 0
}

// GLTexture is what a texture table keeps per slot: the GL object's name.
type GLTexture struct{ Name uint32 }

// DestroyAfter ends an element at once but keeps its slot, and the value
// it holds, until the GPU has finished the frame that may still sample
// it; Reclaim then hands the value back for the device object's release.
func ExamplePool_DestroyAfter() {
	textures, _ := pools.NewPool[GLTexture](2)
	h, tex, _ := textures.Create()
	tex.Name = 7 // from glCreateTextures

	recording := uint64(10) // the serial of the frame being recorded
	_ = textures.DestroyAfter(h, recording)
	fmt.Println(h, "valid:", textures.Valid(h), "pending:", textures.Stats().Pending)

	// Each frame, reclaim what the frames completed so far can no longer use.
	for completed := uint64(9); completed <= 10; completed++ {
		for i, old, ok := textures.Reclaim(completed); ok; i, old, ok = textures.Reclaim(completed) {
			fmt.Println("frame", completed, "done: glDeleteTextures", old.Name, "of slot", i)
		}
	}
	again, _, _ := textures.Create() // the reclaimed slot, a new generation
	fmt.Println(again, "pending:", textures.Stats().Pending, "high water:", textures.Stats().HighWater)
	// Output:
	// slot 0 gen 1 valid: false pending: 1
	// frame 10 done: glDeleteTextures 7 of slot 0
	// slot 0 gen 3 pending: 0 high water: 1
}

// Grow raises a pool's capacity at load time. Handles survive it; pointers
// do not, so resolve the handle again afterwards.
func ExamplePool_Grow() {
	entities, _ := pools.NewPool[Entity](1)
	orc, e, _ := entities.Create()
	e.Name = "orc"
	if _, _, err := entities.Create(); errors.Is(err, pools.ErrBudgetExhausted) {
		fmt.Println("full at", entities.Cap())
	}
	if err := entities.Grow(4); err != nil {
		panic(err)
	}
	fmt.Println(entities.Get(orc).Name, entities.Cap(), entities.Available())
	fmt.Println(errors.Is(entities.Grow(4), pools.ErrInvalidCapacity))
	// Output:
	// full at 1
	// orc 4 3
	// true
}

// HandleFromBits and Bits carry a handle through a queue of uint64, such
// as a deferred release keyed by frame.
func ExampleHandleFromBits() {
	sounds, _ := pools.NewPool[[64]float32](8)
	h, _, _ := sounds.Create()
	queued := h.Bits()

	back := pools.HandleFromBits[[64]float32](queued)
	fmt.Println(back == h, sounds.Destroy(back))
	// Output: true <nil>
}

type Contact struct{ A, B int }

// An Arena is per-frame scratch: allocate during the frame, Reset at its
// end. Its indices and pointers never outlive the frame.
func ExampleArena() {
	contacts, _ := pools.NewArena[Contact](512)
	for frame := range 2 {
		for pair := range 3 + frame {
			_, c, err := contacts.Alloc()
			if err != nil {
				break // over budget: drop the pair and let the owner log it
			}
			c.A, c.B = pair, pair+1
		}
		fmt.Println("frame", frame, "contacts", contacts.Len(), "last", *contacts.At(contacts.Len() - 1))
		contacts.Reset()
	}
	s := contacts.Stats()
	fmt.Println("peak", s.PeakInUse, "total", s.TotalCreated)
	// Output:
	// frame 0 contacts 3 last {2 3}
	// frame 1 contacts 4 last {3 4}
	// peak 4 total 7
}

type Projectile struct{ X, VX int }

// A Slots pool takes the lowest free slot; full is an outcome, not an
// error. A NextLive walk may release the slot it stands on.
func ExampleSlots() {
	shots, _ := pools.NewSlots[Projectile](3)
	for vx := 1; vx <= 4; vx++ {
		i, p, ok := shots.Acquire()
		if !ok {
			fmt.Println("full: shot", vx, "refused")
			continue
		}
		p.VX = vx
		fmt.Println("shot", vx, "in slot", i)
	}
	for step := 0; step < 3; step++ {
		for i := shots.NextLive(0); i >= 0; i = shots.NextLive(i + 1) {
			p := shots.At(i)
			p.X += p.VX
			if p.X > 4 {
				_ = shots.ReleaseAt(i) // safe mid-walk
			}
		}
	}
	for i, p := range shots.All() {
		fmt.Println("slot", i, "at", p.X)
	}
	fmt.Println("refused", shots.Stats().Refused)
	// Output:
	// shot 1 in slot 0
	// shot 2 in slot 1
	// shot 3 in slot 2
	// full: shot 4 refused
	// slot 0 at 3
	// refused 1
}

// All ranges over the live slots; the loop body may release the slot it
// is given, exactly as in a NextLive walk.
func ExampleSlots_All() {
	s, _ := pools.NewSlots[int](8)
	for range 6 {
		_, v, _ := s.Acquire()
		*v = 10
	}
	_ = s.ReleaseAt(2)
	for i, v := range s.All() {
		if i%2 == 1 {
			_ = s.ReleaseAt(i)
			continue
		}
		*v += i
	}
	for i, v := range s.All() {
		fmt.Print(i, "=", *v, " ")
	}
	fmt.Println()
	// Output: 0=10 4=14
}
