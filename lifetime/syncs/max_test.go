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
		StoreMax(&v, step.store)
		if got := v.Load(); got != step.want {
			t.Fatalf("StoreMax(%d) left %d, want %d", step.store, got, step.want)
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
				StoreMax(&w, n)
			}
		}()
	}
	wg.Wait()
	if w.Load() != 4000 {
		t.Fatalf("concurrent StoreMax ended at %d, want 4000", w.Load())
	}
}
