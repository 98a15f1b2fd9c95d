package pools

import "testing"

// wantNoAllocs fails the test if f allocates. The race detector allocates
// on its own, so the check skips under -race (raceEnabled); the
// benchmarks report allocations in every build.
func wantNoAllocs(t *testing.T, name string, f func()) {
	t.Helper()
	if raceEnabled {
		t.Skip("the race detector allocates; allocation counts are checked without -race")
	}
	if n := testing.AllocsPerRun(200, f); n != 0 {
		t.Errorf("%s: %v allocations per run, want 0", name, n)
	}
}

func TestPoolAllocatesNothing(t *testing.T) {
	p := mustPool[entity](t, 64)
	keep, _, _ := p.Create()
	var sink *entity
	wantNoAllocs(t, "Create+Destroy", func() {
		h, e, err := p.Create()
		if err != nil {
			t.Fatal(err)
		}
		e.hp = 1
		p.Destroy(h)
	})
	wantNoAllocs(t, "Get+Valid", func() {
		sink = p.Get(keep)
		_ = p.Valid(keep)
	})
	wantNoAllocs(t, "Stats+Len+Cap", func() {
		_ = p.Stats()
		_ = p.Len() + p.Cap()
	})
	wantNoAllocs(t, "Bits round trip", func() {
		sink = p.Get(HandleFromBits[entity](keep.Bits()))
	})
	wantNoAllocs(t, "Reserve+Claim+Release", func() {
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
	wantNoAllocs(t, "Clear", func() {
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
	wantNoAllocs(t, "refused calls", func() {
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
	wantNoAllocs(t, "Create+DestroyAfter+Reclaim", func() {
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
	wantNoAllocs(t, "Reclaim with nothing completed", func() {
		if _, _, ok := p.Reclaim(0); ok {
			t.Fatal("Reclaim(0) reclaimed a slot")
		}
	})
	for _, _, ok := p.Reclaim(serial); ok; _, _, ok = p.Reclaim(serial) {
	}
	wantNoAllocs(t, "Reclaim of an empty queue", func() {
		if _, _, ok := p.Reclaim(^uint64(0)); ok {
			t.Fatal("Reclaim on an empty queue reclaimed a slot")
		}
	})

	full := mustPool[entity](t, 2)
	h, _, _ := full.Create()
	full.DestroyAfter(h, 1)
	full.Create()
	wantNoAllocs(t, "refused pending-path calls", func() {
		if _, _, err := full.Create(); err == nil {
			t.Fatal("Create with every slot live or pending succeeded")
		}
		if full.DestroyAfter(h, 2) == nil || full.DestroyAfter(Handle[entity]{}, 2) == nil ||
			full.DestroyAfter(newHandle[entity](9, 1), 2) == nil {
			t.Fatal("a stale, zero or out-of-range DestroyAfter succeeded")
		}
		if full.Grow(2) == nil || full.Grow(-1) == nil {
			t.Fatal("a Grow that does not raise the capacity succeeded")
		}
		_ = full.Available()
		_ = full.Stats()
	})
}

func TestArenaAllocatesNothing(t *testing.T) {
	a, _ := NewArena[entity](16)
	var sink *entity
	wantNoAllocs(t, "Alloc+At+Reset+Stats", func() {
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
	wantNoAllocs(t, "Acquire+ReleaseAt", func() {
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
	wantNoAllocs(t, "NextLive walk with release", func() {
		for i := s.NextLive(0); i >= 0; i = s.NextLive(i + 1) {
			if i%5 == 0 {
				s.ReleaseAt(i)
			}
		}
	})
	wantNoAllocs(t, "All with release", func() {
		for i, e := range s.All() {
			sink = e
			if i%7 == 0 {
				s.ReleaseAt(i)
			}
		}
	})
	wantNoAllocs(t, "IsLive+At+IndexOf+Stats", func() {
		_ = s.IsLive(3)
		sink = s.At(4)
		_, _ = s.IndexOf(sink)
		_ = s.Stats()
	})
	wantNoAllocs(t, "Reset", s.Reset)
	_ = sink
}
