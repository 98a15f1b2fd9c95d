package voices

import (
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

// TestOfflineRealTimeAllocs runs the engine on its default device, the
// real-time Offline device, with a voice playing and two game goroutines
// polling Stats and Err, across forced garbage collections, and fails on
// any heap allocation made on behalf of this package's code meanwhile. A
// collection empties the runtime's central caches (sync.Pools, sudogs),
// so a pacing loop that parks in a select, or a lock that queues a
// waiter, allocates again after one.
//
// The count is by attribution, from a memory profile that records every
// allocation: the runtime also allocates on its own (an OS thread it
// starts when the scheduler wants one more), on its system stack, with no
// frame of ours; the process-wide count is logged for reference.
func TestOfflineRealTimeAllocs(t *testing.T) {
	defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
	runtime.MemProfileRate = 1
	e, err := NewEngine(EngineDesc{BlockFrames: 64, FadeFrames: 32}) // a block every 1.3 ms
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := e.Close(); err != nil {
			t.Error(err)
		}
	}()
	if _, ok := e.Device().(*Offline); !ok {
		t.Fatalf("default device is %T, want *Offline", e.Device())
	}
	_, c := clipOf(t, e, "t", mono44, tone(mono44, 4410, 440, 0.5), ClipDesc{})
	if _, err := e.Play(c, PlayDesc{Loop: true}); err != nil {
		t.Fatal(err)
	}
	// Two pollers, so that a lock behind Stats or Err would be contended.
	var stop atomic.Bool
	var wg sync.WaitGroup
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				_ = e.Stats()
				_ = e.Err()
				runtime.Gosched()
			}
		}()
	}
	defer func() {
		stop.Store(true)
		wg.Wait()
	}()
	time.Sleep(20 * time.Millisecond) // warm: every goroutine has parked once
	before := allocProfile()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	blocks := e.Stats().Blocks
	for i := 0; i < 20; i++ {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	runtime.ReadMemStats(&ms1)
	rendered := e.Stats().Blocks - blocks
	after := allocProfile()
	t.Logf("%d blocks rendered; %d heap allocations in the process, runtime's own included", rendered, ms1.Mallocs-ms0.Mallocs)
	if rendered < 20 {
		t.Fatalf("only %d blocks rendered in 20 collections: the device is not running", rendered)
	}
	if testenv.Race {
		return // the race detector allocates on its own behalf, in our frames
	}
	for site, n := range ours(before, after) {
		t.Errorf("%d allocation(s) in %s across 20 collections, want 0", n, site)
	}
}

// allocProfile returns the memory profile's allocation counts by stack, as
// of a collection forced now: the profile publishes a cycle's allocations
// only once later cycles complete.
func allocProfile() map[[32]uintptr]int64 {
	runtime.GC()
	runtime.GC()
	n, _ := runtime.MemProfile(nil, true)
	for {
		recs := make([]runtime.MemProfileRecord, n+64)
		m, ok := runtime.MemProfile(recs, true)
		if !ok {
			n = m
			continue
		}
		counts := make(map[[32]uintptr]int64, m)
		for _, r := range recs[:m] {
			counts[r.Stack0] += r.AllocObjects
		}
		return counts
	}
}

// ours returns the allocations made between two profiles whose stack
// passes through this package's own (non-test) code, by the innermost
// such function.
func ours(before, after map[[32]uintptr]int64) map[string]int64 {
	const pkg = "github.com/steadyframe/steadyframe/voices."
	sites := map[string]int64{}
	for stack, n := range after {
		if n -= before[stack]; n <= 0 {
			continue
		}
		frames := runtime.CallersFrames(stack[:])
		for {
			f, more := frames.Next()
			if strings.HasPrefix(f.Function, pkg) && !strings.HasSuffix(f.File, "_test.go") {
				sites[f.Function] += n
				break
			}
			if !more {
				break
			}
		}
	}
	return sites
}

// TestOfflineLoopParksInSleep checks how the real-time loop waits between
// blocks: in time.Sleep, on the goroutine's own timer, never in a select
// or a channel receive. Those park on sudogs from a per-P cache; when the
// goroutine wakes on another P, the cache it takes from runs dry, and
// after a GC has emptied the central cache the runtime allocates anew, so
// whether a given window allocates depends on scheduling (about one run
// in five of TestOfflineRealTimeAllocs with a select loop). This test
// fails deterministically on such a loop.
func TestOfflineLoopParksInSleep(t *testing.T) {
	dev := NewOffline(OfflineDesc{RealTime: true, BlockFrames: 240}) // a block every 5 ms
	if err := dev.Start(DefaultDeviceFormat, readerFunc(func(p []byte) (int, error) {
		clear(p)
		return len(p), nil
	})); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := dev.Close(); err != nil {
			t.Error(err)
		}
	}()
	buf := make([]byte, 1<<20)
	states := map[string]int{}
	for i := 0; i < 40; i++ {
		time.Sleep(time.Millisecond)
		states[loopState(t, buf[:runtime.Stack(buf, true)])]++
	}
	for state, n := range states {
		switch state {
		case "sleep", "runnable", "running":
		default:
			t.Errorf("the real-time loop was parked in %q %d of 40 times, want only time.Sleep", state, n)
		}
	}
	if states["sleep"] == 0 {
		t.Errorf("the real-time loop was never seen asleep: %v", states)
	}
}

// loopState returns the state ("sleep", "select", ...) of the goroutine
// running the Offline loop in a dump of every goroutine.
func loopState(t *testing.T, dump []byte) string {
	t.Helper()
	for _, g := range strings.Split(string(dump), "\n\n") {
		if !strings.Contains(g, "voices.(*Offline).run(") {
			continue
		}
		head, _, _ := strings.Cut(g, "\n")
		_, state, ok := strings.Cut(head, "[")
		if !ok {
			break
		}
		state, _, _ = strings.Cut(state, "]")
		state, _, _ = strings.Cut(state, ",") // "[sleep, 2 minutes]"
		return state
	}
	t.Fatalf("no goroutine runs the offline loop:\n%s", dump)
	return ""
}
