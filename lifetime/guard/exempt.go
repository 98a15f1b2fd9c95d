package guard

import (
	"runtime"
	"strings"
)

// The reasons a Guard gives for the runtime's own allocations, the only
// ones it tolerates without an Allow entry. Each applies only to an
// allocation whose stack holds runtime frames alone: a stack with any
// frame outside the runtime is named by that frame and never exempt.
const (
	// ReasonNewThread: the scheduler started an M for a new OS thread
	// (after a stop-the-world, a blocking syscall, or a locked goroutine
	// exiting with its thread). Its M, g0 and signal g are allocated on
	// the heap; the number of threads bounds it, not the number of frames.
	ReasonNewThread = "runtime-internal: a new M (OS thread) for the scheduler; bounded by the thread count, not by frames"
	// ReasonTimerHeap: a P's timer heap grew to hold more timers than that
	// P ever held. The heap is scheduler state (which P a sleeping
	// goroutine's timer lands on is the scheduler's choice) and keeps its
	// capacity, so it grows at most log2(peak timers) times per P over the
	// process's life. Its stack holds no caller: the growth runs on the
	// system stack when a goroutine parks in time.Sleep, or on the
	// scavenger's own goroutine.
	ReasonTimerHeap = "runtime-internal: a P's timer heap grew to a new peak (scheduler state, capacity kept; at most log2(peak timers) growths per P)"
	// ReasonGCWorker: a GC mark worker's own bookkeeping (its node when it
	// first runs, a sudog for the mark-termination semaphore). A GC inside
	// a steady frame is caused by an allocation, which the guard names
	// separately, or is the runtime's periodic forced GC.
	ReasonGCWorker = "runtime-internal: a GC mark worker's own bookkeeping, on the runtime's own goroutine"
	// ReasonNewP: GOMAXPROCS grew past its high-water mark (set by the
	// program, or by the runtime when the process's CPU limit changes), so
	// the scheduler allocated a P and a longer list of Ps. Ps are never
	// freed, so GOMAXPROCS bounds it; a steady frame does not resize the
	// scheduler.
	ReasonNewP = "runtime-internal: a new P for GOMAXPROCS grown past its high-water mark; bounded by GOMAXPROCS"
	// ReasonSystemGoroutine: the runtime started one of its own goroutines
	// (a mark worker for a new P, a cleanup goroutine). Goroutines that
	// user code starts are never exempt: each is a violation naming its
	// creator. A system start is recognised by the runtime's count of
	// system goroutines rising across the span.
	ReasonSystemGoroutine = "runtime-internal: the runtime started one of its own goroutines (GC mark worker, cleanup goroutine)"
)

// Exemption is one kind of runtime-internal allocation a Guard tolerates:
// Function is a runtime function that is on every stack of that kind, as
// runtime.Frame.Function spells it, and Reason says why the runtime's
// allocation is not ours to fix. It is a plain value.
type Exemption struct {
	Function string
	Reason   string
}

// runtimeExemptions is the whole list. Goroutine starts are deliberately
// absent: a g allocated for a go statement (runtime.newproc1) is the
// starting code's allocation, attributed to its creator.
var runtimeExemptions = [...]Exemption{
	{"runtime.allocm", ReasonNewThread},
	{"runtime.(*timers).addHeap", ReasonTimerHeap},
	{"runtime.gcBgMarkWorker", ReasonGCWorker},
	{"runtime.procresize", ReasonNewP},
}

// RuntimeExemptions returns the runtime-internal allocations a Guard
// tolerates, each with its reason, in a new slice the caller owns. The
// runtime's own goroutine starts (ReasonSystemGoroutine) are tolerated
// by count rather than by stack and are not in it.
func RuntimeExemptions() []Exemption {
	return append([]Exemption(nil), runtimeExemptions[:]...)
}

// startFunction is on the stack of every g the runtime allocates for a
// new goroutine (the stack stops at the system stack, so the go statement
// is not on it).
const startFunction = "runtime.newproc1"

// allocators are the runtime's allocation entry points, skipped when
// naming a runtime-only stack: the function that called them says what
// was allocated.
var allocators = [...]string{
	"runtime.mallocgc", "runtime.newobject", "runtime.newarray", "runtime.makeslice",
	"runtime.growslice", "runtime.makemap", "runtime.makechan", "runtime.rawstring",
	"runtime.rawbyteslice", "runtime.rawruneslice",
}

func isAllocator(fn string) bool {
	for _, a := range allocators {
		if strings.HasPrefix(fn, a) {
			return true
		}
	}
	return false
}

// runtimeSite names a stack of runtime frames only. An exempt stack is
// named by the exempting function; any other by the runtime function that
// asked for the memory, and it is a violation: an allocation the guard
// cannot explain is not exempt.
func runtimeSite(stack []uintptr) Site {
	var named Site
	frames := runtime.CallersFrames(stack)
	for {
		f, more := frames.Next()
		for _, e := range runtimeExemptions {
			if f.Function == e.Function {
				return Site{Function: f.Function, File: f.File, Line: f.Line, Allowed: e.Reason}
			}
		}
		if !named.isSet() && f.Function != "" && !isAllocator(f.Function) {
			named = Site{Function: f.Function, File: f.File, Line: f.Line}
		}
		if !more {
			break
		}
	}
	if !named.isSet() {
		named.Function = "runtime"
	}
	return named
}
