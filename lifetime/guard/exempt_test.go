package guard

import (
	"os"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// runtimeStacks returns the profiled allocation stacks made of runtime
// frames only that go through fn, after publishing the profile.
func runtimeStacks(fn string) [][]uintptr {
	runtime.GC()
	runtime.GC()
	recs := make([]runtime.MemProfileRecord, 4096)
	for {
		n, ok := runtime.MemProfile(recs, true)
		if ok {
			recs = recs[:n]
			break
		}
		recs = make([]runtime.MemProfileRecord, n+n/4)
	}
	var out [][]uintptr
	for _, r := range recs {
		stack := r.Stack()
		frames := runtime.CallersFrames(stack)
		onlyRuntime, through := true, false
		for {
			f, more := frames.Next()
			onlyRuntime = onlyRuntime && strings.HasPrefix(f.Function, "runtime.")
			through = through || f.Function == fn
			if !more {
				break
			}
		}
		if onlyRuntime && through {
			out = append(out, append([]uintptr(nil), stack...))
		}
	}
	return out
}

// provokeUntil runs provoke until the profile holds a runtime-only stack
// through fn, and returns those stacks; it fails the test if the runtime
// never made one, so a renamed runtime function cannot pass unnoticed.
func provokeUntil(t *testing.T, fn string, provoke func(try int)) [][]uintptr {
	t.Helper()
	for try := 1; try <= 20; try++ {
		provoke(try)
		if stacks := runtimeStacks(fn); len(stacks) > 0 {
			return stacks
		}
	}
	t.Fatalf("no allocation through %s after 20 tries; the runtime may have renamed it", fn)
	return nil
}

// TestRuntimeExemptionsMatchRealStacks provokes each kind of allocation
// the runtime makes for itself, in this Go version, and checks that the
// guard names it by its exemption with its reason, and that goroutine
// starts and unknown runtime allocations are not exempt.
func TestRuntimeExemptionsMatchRealStacks(t *testing.T) {
	enableSites(t)
	tr := newSiteTracker(nil, nil)
	tests := []struct {
		fn      string
		reason  string
		provoke func(try int)
	}{
		{"runtime.allocm", ReasonNewThread, func(int) {
			// A locked goroutine that exits takes its thread with it,
			// and one that sleeps hands its P to a new M.
			var wg sync.WaitGroup
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					runtime.LockOSThread()
					time.Sleep(time.Millisecond)
				}()
			}
			wg.Wait()
		}},
		{"runtime.(*timers).addHeap", ReasonTimerHeap, func(try int) {
			// More sleepers at once than any P has held timers.
			var wg sync.WaitGroup
			for range 200 * try {
				wg.Add(1)
				go func() { defer wg.Done(); time.Sleep(20 * time.Millisecond) }()
			}
			wg.Wait()
		}},
		{"runtime.gcBgMarkWorker", ReasonGCWorker, func(int) {
			runtime.GOMAXPROCS(growAndCollect())
		}},
		{"runtime.procresize", ReasonNewP, func(int) {
			runtime.GOMAXPROCS(growAndCollect())
		}},
	}
	if len(tests) != len(runtimeExemptions) {
		t.Fatalf("%d exemptions, %d provoked: every exemption needs a real stack here", len(runtimeExemptions), len(tests))
	}
	for i, tt := range tests {
		if runtimeExemptions[i].Function != tt.fn || runtimeExemptions[i].Reason != tt.reason {
			t.Fatalf("exemption %d is %+v, test provokes %s", i, runtimeExemptions[i], tt.fn)
		}
		// A stack can hold two exempt functions (procresize moving a
		// dead P's timers into another P's heap); the innermost names it.
		// Each must be tolerated, and at least one named by tt.fn.
		named := false
		for _, stack := range provokeUntil(t, tt.fn, tt.provoke) {
			site, kind := tr.classify(stack)
			if kind != stackSite || site.Allowed == "" || !strings.HasPrefix(site.Allowed, "runtime-internal: ") {
				t.Errorf("%s: classified as %+v (kind %d), want tolerated as the runtime's own", tt.fn, site, kind)
			}
			named = named || site.Function == tt.fn && site.Allowed == tt.reason
		}
		if !named {
			t.Errorf("%s: no stack through it was named by it with %q", tt.fn, tt.reason)
		}
	}

	t.Run("goroutine start is not exempt", func(t *testing.T) {
		// Enough goroutines alive at once that the runtime has no free
		// g to reuse and allocates new ones.
		stacks := provokeUntil(t, startFunction, func(try int) {
			release := make(chan struct{})
			startParked(500*try, release)
			close(release)
		})
		for _, stack := range stacks {
			if site, kind := tr.classify(stack); kind != stackStart {
				t.Errorf("a new goroutine's g classified as %+v (kind %d), want a start for startTracker", site, kind)
			}
		}
	})
	t.Run("unknown runtime allocation is a violation", func(t *testing.T) {
		// runtime.GC stands in for any runtime function off the list.
		pc := runtime.FuncForPC(reflect.ValueOf(runtime.GC).Pointer()).Entry() + 1
		site, kind := tr.classify([]uintptr{pc})
		if kind != stackSite || site.Function != "runtime.GC" || site.Allowed != "" {
			t.Fatalf("classified as %+v (kind %d), want a violation named runtime.GC", site, kind)
		}
	})
}

// TestExemptionsDocumented fails when doc.go drifts from the exemption
// list: a user reading the package documentation must see every runtime
// allocation the guard tolerates.
func TestExemptionsDocumented(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range RuntimeExemptions() {
		if !strings.Contains(string(doc), e.Function) {
			t.Errorf("doc.go does not mention the exemption %s", e.Function)
		}
	}
	if !strings.Contains(string(doc), "system goroutine") {
		t.Errorf("doc.go does not mention the runtime's own goroutine starts")
	}
}
