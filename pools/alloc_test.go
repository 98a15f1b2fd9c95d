package pools

import (
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

func TestPoolAllocatesNothing(t *testing.T) {
	p := mustPool[entity](t, 64)
	keep, _, _ := p.Create()
	var sink *entity
	testenv.NoAllocs(t, "Create+Destroy", 200, func() {
		h, e, err := p.Create()
		if err != nil {
			t.Fatal(err)
		}
		e.hp = 1
		p.Destroy(h)
	})
	testenv.NoAllocs(t, "Get+Valid", 200, func() {
		sink = p.Get(keep)
		_ = p.Valid(keep)
	})
	testenv.NoAllocs(t, "Stats+Len+Cap", 200, func() {
		_ = p.Stats()
		_ = p.Len() + p.Cap()
	})
	testenv.NoAllocs(t, "Bits round trip", 200, func() {
		sink = p.Get(HandleFromBits[entity](keep.Bits()))
	})
	testenv.NoAllocs(t, "Reserve+Claim+Release", 200, func() {
		r, err := p.Reserve(8)
		if err != nil {
			t.Fatal(err)
		}
		h, _, _ := r.Claim(3)
		_ = r.Len()
		_ = r.Claimed(3)
		r.Release()
		p.Destroy(h)
	})
	testenv.NoAllocs(t, "Clear", 200, func() {
		for range 10 {
			p.Create()
		}
		p.Clear()
	})
	_ = sink
}

func TestPoolErrorPathsAllocateNothing(t *testing.T) {
	full := mustPool[entity](t, 1)
	h, _, _ := full.Create()
	full.Destroy(h)
	full.Create()
	r, _ := mustPool[entity](t, 2).Reserve(1)
	r.Claim(0)
	released, _ := mustPool[entity](t, 1).Reserve(1)
	released.Release()
	testenv.NoAllocs(t, "refused calls", 200, func() {
		if _, _, err := full.Create(); err == nil {
			t.Fatal("Create on a full pool succeeded")
		}
		if full.Destroy(h) == nil || full.Destroy(Handle[entity]{}) == nil {
			t.Fatal("a stale or zero Destroy succeeded")
		}
		if _, err := full.Reserve(1); err == nil {
			t.Fatal("Reserve on a full pool succeeded")
		}
		if _, err := full.Reserve(0); err == nil {
			t.Fatal("Reserve(0) succeeded")
		}
		if _, _, err := r.Claim(0); err == nil {
			t.Fatal("double Claim succeeded")
		}
		if _, _, err := r.Claim(9); err == nil {
			t.Fatal("out-of-range Claim succeeded")
		}
		if released.Release() == nil {
			t.Fatal("double Release succeeded")
		}
	})
}

// TestPoolPendingAllocatesNothing covers the descriptor heap's frame:
// DestroyAfter, Reclaim with and without a slot to give back, and every
// refusal on the pending path.
func TestPoolPendingAllocatesNothing(t *testing.T) {
	p := mustPool[entity](t, 64)
	var serial uint64
	testenv.NoAllocs(t, "Create+DestroyAfter+Reclaim", 200, func() {
		serial++
		h, e, err := p.Create()
		if err != nil {
			t.Fatal(err)
		}
		e.name = "texture"
		if err := p.DestroyAfter(h, serial); err != nil {
			t.Fatal(err)
		}
		if serial > 2 {
			if _, old, ok := p.Reclaim(serial - 2); !ok || old.name != "texture" {
				t.Fatalf("Reclaim(%d) = %+v, %v", serial-2, old, ok)
			}
		}
	})
	testenv.NoAllocs(t, "Reclaim with nothing completed", 200, func() {
		if _, _, ok := p.Reclaim(0); ok {
			t.Fatal("Reclaim(0) reclaimed a slot")
		}
	})
	for _, _, ok := p.Reclaim(serial); ok; _, _, ok = p.Reclaim(serial) {
	}
	testenv.NoAllocs(t, "Reclaim of an empty queue", 200, func() {
		if _, _, ok := p.Reclaim(^uint64(0)); ok {
			t.Fatal("Reclaim on an empty queue reclaimed a slot")
		}
	})

	full := mustPool[entity](t, 2)
	h, _, _ := full.Create()
	full.DestroyAfter(h, 1)
	full.Create()
	testenv.NoAllocs(t, "refused pending-path calls", 200, func() {
		if _, _, err := full.Create(); err == nil {
			t.Fatal("Create with every slot live or pending succeeded")
		}
		if full.DestroyAfter(h, 2) == nil || full.DestroyAfter(Handle[entity]{}, 2) == nil ||
			full.DestroyAfter(full.handle(9, 1), 2) == nil {
			t.Fatal("a stale, zero or out-of-range DestroyAfter succeeded")
		}

		_ = full.Available()
		_ = full.Stats()
	})
}

func TestArenaAllocatesNothing(t *testing.T) {
	a, _ := NewArena[entity](16)
	var sink *entity
	testenv.NoAllocs(t, "Alloc+At+Reset+Stats", 200, func() {
		for {
			_, e, err := a.Alloc()
			if err != nil {
				break
			}
			e.hp = 1
		}
		sink = a.At(3)
		_ = a.Stats()
		_ = a.Len() + a.Cap()
		a.Reset()
	})
	_ = sink
}

func TestSlotsAllocatesNothing(t *testing.T) {
	s := mustSlots[entity](t, 100)
	var sink *entity
	testenv.NoAllocs(t, "Acquire+ReleaseAt", 200, func() {
		for {
			if _, _, ok := s.Acquire(); !ok {
				break
			}
		}
		s.ReleaseAt(37)
		s.ReleaseAt(99)
		s.ReleaseAt(99)
		s.ReleaseAt(-1)
	})
	testenv.NoAllocs(t, "NextLive walk with release", 200, func() {
		for i := s.NextLive(0); i >= 0; i = s.NextLive(i + 1) {
			if i%5 == 0 {
				s.ReleaseAt(i)
			}
		}
	})
	testenv.NoAllocs(t, "All with release", 200, func() {
		for i, e := range s.All() {
			sink = e
			if i%7 == 0 {
				s.ReleaseAt(i)
			}
		}
	})
	testenv.NoAllocs(t, "IsLive+At+IndexOf+Stats", 200, func() {
		_ = s.IsLive(3)
		sink = s.At(4)
		_, _ = s.IndexOf(sink)
		_ = s.Stats()
	})
	testenv.NoAllocs(t, "Reset", 200, s.Reset)
	_ = sink
}
