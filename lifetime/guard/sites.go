package guard

import (
	"cmp"
	"fmt"
	"path"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
)

// Site is one allocating call site, named by the innermost guarded function
// on its stack (the code to fix), or by the innermost function outside the
// runtime and sync when no guarded code is on the stack. It is a plain value, safe to copy
// and to hand to any goroutine.
type Site struct {
	Function string // as runtime.Frame.Function spells it
	File     string
	Line     int
	// Guarded reports that Function matched a guarded prefix.
	Guarded bool
	// Allowed is the allowlist reason when the site is tolerated, else "".
	Allowed string
	// Allocs is how many objects the site allocated in the span it was
	// attributed to (when first seen, for Report.Sites).
	Allocs int64
	// Starts is how many goroutines the site started in that span: for a
	// goroutine's creator, File and Line are its go statement.
	Starts int64
}

// String formats the site as "function (file.go:line)".
func (s Site) String() string {
	if s.File == "" {
		return s.Function
	}
	return fmt.Sprintf("%s (%s:%d)", s.Function, path.Base(s.File), s.Line)
}

// guardSelf names the guard's own functions. A stack through any of them
// is the guard's bookkeeping (profile reads, logging), never a violation.
var guardSelf = [...]string{
	"github.com/steadyframe/steadyframe/lifetime/guard.(*Guard).",
	"github.com/steadyframe/steadyframe/lifetime/guard.(*siteTracker).",
	"github.com/steadyframe/steadyframe/lifetime/guard.(*startTracker).",
	"github.com/steadyframe/steadyframe/lifetime/guard.guardMark",
}

var defaultGuardPrefixes = []string{"github.com/steadyframe/steadyframe", "main."}

// siteTracker attributes allocations to call sites by diffing cumulative
// per-stack AllocObjects in runtime.MemProfile between reads. Reads happen
// only when the guard arms (the baseline) and on a violation, because a
// read allocates and the profile is only current after a GC. Between two
// reads every armed span allocated nothing, so the difference is the
// flagged span's allocations plus any made outside guarded spans, which
// Guard tracks separately to mark a violation Exact.
type siteTracker struct {
	prefixes []string
	allow    []Allow
	recs     []runtime.MemProfileRecord // reused across reads, grown as needed
	last     map[[32]uintptr]int64      // AllocObjects per stack at the last read
	logged   map[string]bool            // sites already reported this session
	unique   []Site
}

func newSiteTracker(prefixes []string, allow []Allow) *siteTracker {
	if len(prefixes) == 0 {
		prefixes = defaultGuardPrefixes
	}
	return &siteTracker{
		prefixes: append([]string(nil), prefixes...),
		allow:    append([]Allow(nil), allow...),
		recs:     make([]runtime.MemProfileRecord, 1024),
		last:     make(map[[32]uintptr]int64),
		logged:   make(map[string]bool),
	}
}

// markSink keeps guardMark's object on the heap; marksMade counts the marks
// made while every allocation was profiled.
var (
	markSink  atomic.Pointer[[32]byte]
	marksMade atomic.Int64
)

// guardMark allocates one object with a stack the guard can recognise.
// MemProfile publishes allocations a GC cycle at a time, and runtime.GC
// skips publishing when another cycle overtakes it (common under load and
// the race detector), so a read checks that its own mark is visible: then
// every allocation made before it is too.
//
//go:noinline
func guardMark() {
	markSink.Store(new([32]byte))
	if runtime.MemProfileRate == 1 {
		marksMade.Add(1)
	}
}

// markEntry is guardMark's entry PC, to find its records without
// symbolizing every stack.
var markEntry = runtime.FuncForPC(reflect.ValueOf(guardMark).Pointer()).Entry()

// maxPublishGCs bounds the GCs a read forces while waiting for its mark.
const maxPublishGCs = 5

// read returns every profile record including freed ones, once the
// allocations made before the call are published, and reports whether
// they were (false after maxPublishGCs cycles without it).
func (t *siteTracker) read() ([]runtime.MemProfileRecord, bool) {
	guardMark()
	want := marksMade.Load()
	var recs []runtime.MemProfileRecord
	for range maxPublishGCs {
		runtime.GC()
		recs = t.profile()
		if marksSeen(recs) >= want {
			return recs, true
		}
	}
	return recs, false
}

func (t *siteTracker) profile() []runtime.MemProfileRecord {
	for {
		n, ok := runtime.MemProfile(t.recs, true)
		if ok {
			return t.recs[:n]
		}
		t.recs = make([]runtime.MemProfileRecord, n+n/4+64)
	}
}

// marksSeen sums the published allocations made by guardMark.
func marksSeen(recs []runtime.MemProfileRecord) int64 {
	var n int64
	for _, r := range recs {
		// The mark's frame sits just above the runtime's allocation
		// frames, within the first few PCs.
		stack := r.Stack()
		for _, pc := range stack[:min(6, len(stack))] {
			if f := runtime.FuncForPC(pc - 1); f != nil && f.Entry() == markEntry {
				n += r.AllocObjects
				break
			}
		}
	}
	return n
}

// baseline records the current counts without attributing anything.
func (t *siteTracker) baseline() {
	recs, _ := t.read()
	clear(t.last)
	for _, r := range recs {
		t.last[r.Stack0] += r.AllocObjects
	}
}

// collect returns the sites that allocated since the last read, merged by
// site and sorted, and whether the profile was fully published (if not,
// some sites may be missing now and show up at a later violation).
// Goroutine starts are left to startTracker.
func (t *siteTracker) collect() (sites []Site, published bool) {
	recs, published := t.read()
	// The profile has one record per stack and object size, so one stack
	// (a line formatting strings of varying length) can own several:
	// compare per-stack totals, never record against record.
	now := make(map[[32]uintptr]int64, len(t.last))
	for _, r := range recs {
		now[r.Stack0] += r.AllocObjects
	}
	for key, total := range now {
		prev := t.last[key]
		if total <= prev {
			continue
		}
		// The key is the record's Stack0, so the stack is rebuilt from
		// it rather than kept in a second map.
		rec := runtime.MemProfileRecord{Stack0: key}
		site, kind := t.classify(rec.Stack())
		if kind != stackSite {
			continue
		}
		site.Allocs = total - prev
		sites = mergeSite(sites, site)
	}
	t.last = now
	sortSites(sites)
	return sites, published
}

// remember returns the sites of sites not seen before this session, and
// adds them to the session's unique sites.
func (t *siteTracker) remember(sites []Site) (fresh []Site) {
	for _, s := range sites {
		key := s.String()
		if t.logged[key] {
			continue
		}
		t.logged[key] = true
		t.unique = append(t.unique, s)
		fresh = append(fresh, s)
	}
	return fresh
}

// sortSites orders sites by name: map order is random, reports are not.
func sortSites(sites []Site) {
	slices.SortFunc(sites, func(a, b Site) int {
		return cmp.Or(cmp.Compare(a.Function, b.Function), cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
}

func mergeSite(sites []Site, s Site) []Site {
	for i := range sites {
		if sites[i].Function == s.Function && sites[i].File == s.File && sites[i].Line == s.Line {
			sites[i].Allocs += s.Allocs
			sites[i].Starts += s.Starts
			return sites
		}
	}
	return append(sites, s)
}

// stackKind says what an allocation stack is, for attribution.
type stackKind int

const (
	stackSite  stackKind = iota // an allocation site to name
	stackSelf                   // the guard's own bookkeeping, never counted
	stackStart                  // a g for a new goroutine, counted as a start
)

// classify names the site of one allocation stack. The innermost frame
// outside the runtime and sync (the code that asked for the memory)
// decides whether it is tolerated: an allowlist entry covers only its own
// code, never code it calls, so a user's io.Reader or decoder that oto
// calls, and our mixer called from oto's callback, stay reported.
// Otherwise the innermost guarded frame names the site, or failing one,
// that innermost frame: a violation inside sync.Pool or a mutex is named
// by the code that called it. A stack of runtime frames only is named by
// runtimeSite.
func (t *siteTracker) classify(stack []uintptr) (Site, stackKind) {
	frames := runtime.CallersFrames(stack)
	var inner Site // innermost frame outside the runtime and sync
	var found bool
	var site Site
	runtimeOnly := true
	pend := -1 // an entry with a Caller matched inner: its caller decides
	for {
		f, more := frames.Next()
		fn := f.Function
		for _, self := range guardSelf {
			if strings.HasPrefix(fn, self) {
				return Site{}, stackSelf
			}
		}
		if fn == startFunction {
			// The g of a new goroutine: the stack stops at the system
			// stack, so the go statement is found by startTracker.
			return Site{}, stackStart
		}
		if fn != "" && !isRuntime(fn) {
			runtimeOnly = false
		}
		if !found && fn != "" && !isPlumbing(fn) && pend >= 0 {
			a := &t.allow[pend]
			if strings.HasPrefix(fn, a.Site) {
				goto next // still inside the entry's own code
			}
			pend = -1
			if strings.HasPrefix(fn, a.Caller) {
				site, found = inner, true
				site.Allowed = a.Reason
			}
		}
		if !found && fn != "" && !isPlumbing(fn) {
			if !inner.isSet() {
				inner = Site{Function: fn, File: f.File, Line: f.Line}
				if i := t.allowIndex(fn); i >= 0 && t.allow[i].Caller != "" {
					pend = i
				} else if i >= 0 {
					site, found = inner, true
					site.Allowed = t.allow[i].Reason
				}
			}
			if !found && t.guarded(fn) {
				site = Site{Function: fn, File: f.File, Line: f.Line, Guarded: true}
				found = true
			}
		}
	next:
		if !more {
			break
		}
	}
	// The whole stack is walked even after the site is found, so that a
	// guard frame further out still marks the allocation as the guard's.
	switch {
	case found:
		return site, stackSite
	case inner.isSet():
		return inner, stackSite
	case runtimeOnly:
		return runtimeSite(stack), stackSite
	}
	// Runtime and sync frames only: named by the innermost sync frame.
	return plumbingSite(stack), stackSite
}

// isRuntime reports whether fn is the runtime's (package runtime and the
// runtime's internal packages, such as its maps).
func isRuntime(fn string) bool {
	return strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "internal/runtime/")
}

// isPlumbing reports whether fn belongs to the runtime or to sync, which
// allocate on behalf of their caller (a sync.Pool's per-P array, a
// mutex's waiter): such a frame never names a site or matches an
// allowlist entry.
func isPlumbing(fn string) bool {
	return isRuntime(fn) || strings.HasPrefix(fn, "sync.") || strings.HasPrefix(fn, "internal/sync.")
}

// plumbingSite names a stack of runtime and sync frames only by its
// innermost sync frame.
func plumbingSite(stack []uintptr) Site {
	frames := runtime.CallersFrames(stack)
	for {
		f, more := frames.Next()
		if f.Function != "" && !isRuntime(f.Function) {
			return Site{Function: f.Function, File: f.File, Line: f.Line}
		}
		if !more {
			return Site{Function: "runtime"}
		}
	}
}

// name classifies a function found outside a profile stack (a goroutine's
// creator): allowlisted, guarded, or neither.
func (t *siteTracker) name(fn, file string, line int) Site {
	s := Site{Function: fn, File: file, Line: line}
	if reason := t.allowed(fn); reason != "" {
		s.Allowed = reason
	} else {
		s.Guarded = t.guarded(fn)
	}
	return s
}

func (s Site) isSet() bool { return s.Function != "" }

func (t *siteTracker) guarded(fn string) bool {
	for _, p := range t.prefixes {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

// allowed returns the reason of the entry that covers fn whatever
// calls it (one without a Caller), or "".
func (t *siteTracker) allowed(fn string) string {
	if i := t.allowIndex(fn); i >= 0 && t.allow[i].Caller == "" {
		return t.allow[i].Reason
	}
	return ""
}

// allowIndex returns the first entry whose Site matches fn, or -1.
func (t *siteTracker) allowIndex(fn string) int {
	for i := range t.allow {
		if strings.HasPrefix(fn, t.allow[i].Site) {
			return i
		}
	}
	return -1
}
