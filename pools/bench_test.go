package pools

import (
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

// elem64 is the 64-byte element the comparison benchmarks use: big enough
// that zeroing it is real work, small enough to be a typical component.
type elem64 struct {
	id uint64
	_  [7]uint64
}

// sink keeps new-gc allocations escaping, so the baseline really allocates
// and the garbage collector really runs.
var sink *elem64

// The sub-benchmarks of one Benchmark...Compare function are one
// comparison: scripts/bench.sh lines them up with benchstat -col /impl,
// impl=ours first, as the baseline the others are measured against.

// BenchmarkPoolCompare measures one create and one destroy per op against
// what a user would otherwise write.
func BenchmarkPoolCompare(b *testing.B) {
	b.Run("impl=ours", func(b *testing.B) {
		p, _ := NewPool[elem64](1024)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			h, e, err := p.Create()
			if err != nil {
				b.Fatal(err)
			}
			e.id = uint64(i)
			if err := p.Destroy(h); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=sync.Pool", func(b *testing.B) {
		sp := sync.Pool{New: func() any { return new(elem64) }}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			e := sp.Get().(*elem64)
			e.id = uint64(i)
			*e = elem64{}
			sp.Put(e)
		}
	})
	b.Run("impl=new-gc", func(b *testing.B) {
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			e := new(elem64)
			e.id = uint64(i)
			sink = e
		}
	})
	b.Run("impl=chan-freelist", func(b *testing.B) {
		ch := make(chan *elem64, 1024)
		for range cap(ch) {
			ch <- new(elem64)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			e := <-ch
			e.id = uint64(i)
			*e = elem64{}
			ch <- e
		}
	})
}

// framesInFlight is how far the device lags behind the frame being
// recorded in BenchmarkPendingChurn: a slot freed in frame n is reclaimed
// once frame n-framesInFlight completes, so about that many slots wait at
// any time.
const framesInFlight = 3

// pendingRelease is one entry of the handle-ring and closure-queue
// baselines of BenchmarkPendingChurn.
type pendingRelease struct {
	serial uint64
	h      Handle[elem64]
}

// BenchmarkPendingChurn measures the descriptor heap's frame, one per op:
// create an element, end it after the current frame, and reclaim every
// slot whose frame completed (framesInFlight frames ago), against what a
// user would otherwise write on top of Create and Destroy. The baselines
// keep the element live until its frame completes, so their handles stay
// valid while the slot waits; DestroyAfter turns them stale at once.
func BenchmarkPendingChurn(b *testing.B) {
	b.Run("impl=ours", func(b *testing.B) {
		p, _ := NewPool[elem64](1024)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			serial := uint64(i) + framesInFlight
			h, e, err := p.Create()
			if err != nil {
				b.Fatal(err)
			}
			e.id = serial
			if err := p.DestroyAfter(h, serial); err != nil {
				b.Fatal(err)
			}
			for _, old, ok := p.Reclaim(uint64(i)); ok; _, old, ok = p.Reclaim(uint64(i)) {
				sink64 += old.id
			}
		}
	})
	// A preallocated ring of (serial, handle), drained in order: what a
	// careful user writes, with a capacity to choose and check.
	b.Run("impl=handle-ring", func(b *testing.B) {
		p, _ := NewPool[elem64](1024)
		ring := make([]pendingRelease, 1024)
		var first, n int
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			serial := uint64(i) + framesInFlight
			h, e, err := p.Create()
			if err != nil {
				b.Fatal(err)
			}
			e.id = serial
			if n == len(ring) {
				b.Fatal("ring full")
			}
			ring[(first+n)%len(ring)] = pendingRelease{serial, h}
			n++
			for n > 0 && ring[first].serial <= uint64(i) {
				sink64 += p.Get(ring[first].h).id
				p.Destroy(ring[first].h)
				first = (first + 1) % len(ring)
				n--
			}
		}
	})
	// A map of pending serials keyed by handle bits, scanned each frame.
	b.Run("impl=map-pending-serials", func(b *testing.B) {
		p, _ := NewPool[elem64](1024)
		pending := map[uint64]uint64{}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			serial := uint64(i) + framesInFlight
			h, e, err := p.Create()
			if err != nil {
				b.Fatal(err)
			}
			e.id = serial
			pending[h.Bits()] = serial
			for bits, s := range pending {
				if s <= uint64(i) {
					h := HandleFromBits[elem64](bits)
					sink64 += p.Get(h).id
					p.Destroy(h)
					delete(pending, bits)
				}
			}
		}
	})
	// A queue of release closures, the shape of a general deferred-release
	// list: every entry allocates its closure.
	b.Run("impl=closure-queue", func(b *testing.B) {
		p, _ := NewPool[elem64](1024)
		type deferred struct {
			serial  uint64
			release func()
		}
		var queue []deferred
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			serial := uint64(i) + framesInFlight
			h, e, err := p.Create()
			if err != nil {
				b.Fatal(err)
			}
			e.id = serial
			queue = append(queue, deferred{serial, func() {
				sink64 += p.Get(h).id
				p.Destroy(h)
			}})
			for len(queue) > 0 && queue[0].serial <= uint64(i) {
				queue[0].release()
				queue = queue[1:]
			}
		}
	})
}

// sink64 keeps the reclaimed values observable.
var sink64 uint64

// BenchmarkArenaCompare measures one per-frame scratch allocation per op;
// the arena resets when full, as a frame end would.
func BenchmarkArenaCompare(b *testing.B) {
	b.Run("impl=ours", func(b *testing.B) {
		a, _ := NewArena[elem64](1024)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			_, e, err := a.Alloc()
			if err != nil {
				a.Reset()
				_, e, _ = a.Alloc()
			}
			e.id = uint64(i)
		}
	})
	b.Run("impl=new-gc", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			e := new(elem64)
			e.id = uint64(i)
			sink = e
		}
	})
	b.Run("impl=slice-append-reslice", func(b *testing.B) {
		s := make([]elem64, 0, 1024)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if len(s) == cap(s) {
				clear(s)
				s = s[:0]
			}
			s = append(s, elem64{id: uint64(i)})
		}
	})
}

// liveEvery returns a Slots pool of n and the equivalent []bool with
// every k-th slot live (k=1: all of them), so walks and scans cross holes
// in every word.
func liveEvery(n, k int) (*Slots[elem64], []bool) {
	s, _ := NewSlots[elem64](n)
	live := make([]bool, n)
	for range n {
		s.Acquire()
	}
	for i := range n {
		if i%k == 0 {
			live[i] = true
		} else {
			s.ReleaseAt(i)
		}
	}
	return s, live
}

// liveBelow returns a Slots pool of n and the equivalent []bool with the
// first k slots live: the lowest free slot is k, as after a burst of
// long-lived acquisitions.
func liveBelow(n, k int) (*Slots[elem64], []bool) {
	s, _ := NewSlots[elem64](n)
	live := make([]bool, n)
	for i := range k {
		s.Acquire()
		live[i] = true
	}
	return s, live
}

// BenchmarkSlotsCompare measures one Acquire and one ReleaseAt per op on a
// pool of 1024 whose first 512 slots are live, against a lowest-free
// linear scan over a []bool.
func BenchmarkSlotsCompare(b *testing.B) {
	b.Run("impl=ours", func(b *testing.B) {
		s, _ := liveBelow(1024, 512)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			j, e, ok := s.Acquire()
			if !ok {
				b.Fatal("full")
			}
			e.id = uint64(i)
			s.ReleaseAt(j)
		}
	})
	b.Run("impl=bool-scan", func(b *testing.B) {
		_, live := liveBelow(1024, 512)
		elems := make([]elem64, len(live))
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			j := 0
			for j < len(live) && live[j] {
				j++
			}
			live[j] = true
			elems[j].id = uint64(i)
			elems[j] = elem64{}
			live[j] = false
		}
	})
}

// benchWalks measures one walk over the live slots of a pool of 1024 with
// every k-th slot live, per op: NextLive, All, and a []bool scan.
func benchWalks(b *testing.B, k int) {
	b.Run("impl=ours-NextLive", func(b *testing.B) {
		s, _ := liveEvery(1024, k)
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			for i := s.NextLive(0); i >= 0; i = s.NextLive(i + 1) {
				s.elems[i].id++
			}
		}
	})
	b.Run("impl=ours-All", func(b *testing.B) {
		s, _ := liveEvery(1024, k)
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			for _, e := range s.All() {
				e.id++
			}
		}
	})
	b.Run("impl=bool-scan", func(b *testing.B) {
		_, live := liveEvery(1024, k)
		elems := make([]elem64, len(live))
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			for i, l := range live {
				if l {
					elems[i].id++
				}
			}
		}
	})
}

// BenchmarkWalkHalfLive walks a dense live set (every other slot): the
// []bool scan's best case.
func BenchmarkWalkHalfLive(b *testing.B) { benchWalks(b, 2) }

// BenchmarkWalkSparse walks a sparse live set (one slot in 32), typical
// of a projectile or voice pool between bursts.
func BenchmarkWalkSparse(b *testing.B) { benchWalks(b, 32) }

// TestHotPathsInline builds testdata/inlinecheck with -gcflags=-m and
// checks that the compiler inlines the hot paths into a caller. Create and
// Destroy sit at the inlining budget on purpose (see the Pool struct's
// comment); losing inlining roughly doubles BenchmarkPoolCompare's
// impl=ours, so a change that costs it must fail here
// rather than go unnoticed. Reclaim is on the list because a renderer
// calls it every frame, if only to learn that nothing completed, and
// DestroyAfter because the descriptor heap's Free is little else; the
// pending queue's layout (see the Pool struct) is what keeps both inside
// the budget.
func TestHotPathsInline(t *testing.T) {
	out, err := testenv.Go(t, nil, "build", "-gcflags=-m", "-o", os.DevNull, "./testdata/inlinecheck")
	if err != nil {
		t.Fatalf("building testdata/inlinecheck: %v\n%s", err, out)
	}
	lines := strings.Split(string(out), "\n")
	for _, want := range []string{"Pool.Create", "Pool.Destroy", "Pool.DestroyAfter", "Pool.Get", "Pool.Valid", "Pool.Reclaim", "Arena.Alloc", "Slots.NextLive", "Slots.ReleaseAt"} {
		typ, method, _ := strings.Cut(want, ".")
		found := false
		for _, l := range lines {
			if strings.Contains(l, "inlinecheck.go:") && strings.Contains(l, "inlining call to pools.(*"+typ+"[") &&
				strings.HasSuffix(l, "])."+method) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s is no longer inlined into its caller; -m output:\n%s", want, out)
		}
	}
}
