package syncs

import (
	"sync"
	"sync/atomic"
	"testing"
)

// TestStoreMaxNeverLowers pins the property CPUFence.Complete relies on:
// a Complete holding an older armed snapshot, landing after a newer one,
// must not move completion backwards.
func TestStoreMaxNeverLowers(t *testing.T) {
	var v atomic.Uint64
	for _, step := range []struct{ store, want uint64 }{{5, 5}, {3, 5}, {5, 5}, {9, 9}, {0, 9}} {
		StoreMaxUint64(&v, step.store)
		if got := v.Load(); got != step.want {
			t.Fatalf("StoreMaxUint64(%d) left %d, want %d", step.store, got, step.want)
		}
	}
	// Concurrent raisers: the result is the largest value any of them
	// stored, whatever the interleaving.
	var w atomic.Uint64
	var wg sync.WaitGroup
	for g := uint64(1); g <= 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := g; n <= 4000; n += 4 {
				StoreMaxUint64(&w, n)
			}
		}()
	}
	wg.Wait()
	if w.Load() != 4000 {
		t.Fatalf("concurrent StoreMaxUint64 ended at %d, want 4000", w.Load())
	}
}

// TestStoreMaxSignedNeverLowers is the same property for the signed
// widths, negative values included.
func TestStoreMaxSignedNeverLowers(t *testing.T) {
	steps := []struct{ store, want int64 }{{-5, 0}, {5, 5}, {3, 5}, {5, 5}, {9, 9}, {-1, 9}}
	var a64 atomic.Int64
	var a32 atomic.Int32
	for _, step := range steps {
		StoreMaxInt64(&a64, step.store)
		StoreMaxInt32(&a32, int32(step.store))
		if got := a64.Load(); got != step.want {
			t.Fatalf("StoreMaxInt64(%d) left %d, want %d", step.store, got, step.want)
		}
		if got := a32.Load(); int64(got) != step.want {
			t.Fatalf("StoreMaxInt32(%d) left %d, want %d", step.store, got, step.want)
		}
	}
}
