package guard

import (
	"bytes"
	"runtime"
	"runtime/metrics"
	"strconv"
)

// startTracker names the code that started goroutines in a flagged span.
// The runtime allocates a new goroutine's g on the system stack, so the
// allocation's stack stops there and never shows the go statement; but
// every live goroutine remembers its creator (runtime.Stack prints it as
// "created by F in goroutine N" and the go statement's file:line). So the
// tracker keeps the IDs of the live user goroutines at its last snapshot
// (goroutine IDs are never reused), and on a flagged span the goroutines
// not in it are the ones started since: their creators are the sites. A
// goroutine that has already exited cannot be named; it is counted.
//
// runtime.Stack omits the runtime's own goroutines. Their starts are told
// apart by the runtime's count of system goroutines (live goroutines
// minus runtime.NumGoroutine), which rises by one for each.
//
// Snapshots stop the world and allocate, so they run only when a span was
// flagged and goroutines were created since the last one.
type startTracker struct {
	buf     []byte              // runtime.Stack output, grown as needed
	known   map[uint64]struct{} // live user goroutines at the last snapshot
	sys     int64               // system goroutines then; -1 if unknown
	created uint64              // goroutines created (ever) then
	live    [1]metrics.Sample   // /sched/goroutines:goroutines
}

func newStartTracker() *startTracker {
	t := &startTracker{buf: make([]byte, 64<<10), known: make(map[uint64]struct{})}
	t.live[0].Name = "/sched/goroutines:goroutines"
	return t
}

// baseline records the live goroutines. The caller then sets created to
// the count it reads next, where its span starts.
func (t *startTracker) baseline() {
	t.snapshot(nil)
	t.sys = t.system()
}

// creator is one new goroutine's go statement.
type creator struct {
	function, file string
	line           int
}

// collect names the creators of the goroutines started since the last
// snapshot. starts is the exact count of goroutines created in the span;
// created is the count ever created, read at the span's end. It returns
// one creator per named goroutine (the caller merges and classifies
// them), how many starts were the runtime's own, and how many could not
// be named.
// trustSys says that no goroutine was started outside guarded spans since
// the last snapshot, so a rise in system goroutines belongs to this span;
// otherwise no start is taken for the runtime's.
func (t *startTracker) collect(starts, created uint64, trustSys bool) (fresh []creator, system, unnamed uint64) {
	if created == t.created {
		return nil, 0, 0
	}
	fresh = t.snapshot(t.known)
	sys := t.system()
	if starts == 0 {
		// Goroutines started outside guarded spans: forget them, so
		// they are not taken for a later span's.
		t.sys, t.created = sys, created
		return nil, 0, 0
	}
	named := uint64(len(fresh))
	if starts > named {
		rest := starts - named
		if trustSys && t.sys >= 0 && sys > t.sys {
			system = min(rest, uint64(sys-t.sys))
		}
		unnamed = rest - system
	}
	t.sys = sys
	t.created = created
	return fresh, system, unnamed
}

// refresh forgets the goroutines started since the last snapshot, which
// were started outside guarded spans (by the guard's own GC, for one).
func (t *startTracker) refresh(created uint64) { t.collect(0, created, false) }

// snapshot replaces the set of live user goroutines and returns the
// creators of those not in before (nil: return none).
func (t *startTracker) snapshot(before map[uint64]struct{}) []creator {
	n := runtime.Stack(t.buf, true)
	for n == len(t.buf) {
		t.buf = make([]byte, 2*len(t.buf))
		n = runtime.Stack(t.buf, true)
	}
	now := make(map[uint64]struct{}, len(t.known))
	var fresh []creator
	rest := t.buf[:n]
	var id uint64
	for len(rest) > 0 {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		if after, ok := bytes.CutPrefix(line, []byte("goroutine ")); ok {
			num, _, _ := bytes.Cut(after, []byte(" "))
			id, _ = strconv.ParseUint(string(num), 10, 64)
			now[id] = struct{}{}
			continue
		}
		fn, ok := bytes.CutPrefix(line, []byte("created by "))
		if !ok {
			continue
		}
		if _, old := before[id]; old || before == nil {
			continue
		}
		fn, _, _ = bytes.Cut(fn, []byte(" in goroutine "))
		var where []byte
		where, rest, _ = bytes.Cut(rest, []byte("\n"))
		fresh = append(fresh, parseCreator(string(fn), where))
	}
	t.known = now
	return fresh
}

// parseCreator reads the line after "created by": "\tFILE:LINE +0xOFF".
func parseCreator(fn string, where []byte) creator {
	where = bytes.TrimSpace(where)
	if i := bytes.LastIndex(where, []byte(" +0x")); i >= 0 {
		where = where[:i]
	}
	c := creator{function: fn}
	if i := bytes.LastIndexByte(where, ':'); i >= 0 {
		c.file = string(where[:i])
		c.line, _ = strconv.Atoi(string(where[i+1:]))
	}
	return c
}

// system returns how many system goroutines are alive: the runtime's live
// count includes them and NumGoroutine does not. The two are read apart,
// so a read is kept only when NumGoroutine did not change around it.
func (t *startTracker) system() int64 {
	for range 8 {
		before := runtime.NumGoroutine()
		metrics.Read(t.live[:])
		if runtime.NumGoroutine() == before {
			return int64(t.live[0].Value.Uint64()) - int64(before)
		}
	}
	return -1
}
