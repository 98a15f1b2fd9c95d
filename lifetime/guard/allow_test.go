package guard

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// The allowlist tests guard nothing of this package by prefix, as a game
// guards its own module: the functions below stand for third-party code
// (callsReader for oto's mux, with an allowlist entry) and a user's
// library code (userReader, poolUser) that no prefix names.
var (
	unguarded   = []string{"example.com/game"}
	muxEntry    = Allow{Site: "github.com/steadyframe/steadyframe/lifetime/guard.callsReader", Reason: "stands in for oto's mux"}
	readerFunc  = "github.com/steadyframe/steadyframe/lifetime/guard.userReader.Read"
	poolUseFunc = "github.com/steadyframe/steadyframe/lifetime/guard.poolUser"
)

// userReader is a user's io.Reader that allocates on every Read, handed
// to the allowed code as a player's source.
type userReader struct{}

//go:noinline
func (userReader) Read(p []byte) (int, error) {
	allocSink = make([]byte, 56)
	return len(p), nil
}

var readBuf [64]byte

// callsReader stands in for oto's mux: it allocates for itself when own
// is set, and reads its source.
//
//go:noinline
func callsReader(r io.Reader, own bool) {
	if own {
		allocSink = make([]byte, 72)
	}
	_, _ = r.Read(readBuf[:])
}

// quietReader allocates nothing.
type quietReader struct{}

func (quietReader) Read(p []byte) (int, error) { return len(p), nil }

// TestAllowCoversOnlyTheAllowedCode: an entry tolerates the allowed
// code's own allocations, but a user's reader that it calls is reported,
// named by the reader, in every window size.
func TestAllowCoversOnlyTheAllowedCode(t *testing.T) {
	for _, window := range []int{1, 4} {
		t.Run(fmt.Sprintf("window=%d", window), func(t *testing.T) {
			exactSession(t, 3, func() error {
				g, _ := newTestGuard(t, Desc{Settle: 1, Window: window, Sites: true, Prefixes: unguarded, Allow: []Allow{muxEntry}})
				own, user := 2, 2+2*window
				r := run(g, 1+3*window, func(i int) {
					switch i {
					case own:
						callsReader(quietReader{}, true)
					case user:
						callsReader(userReader{}, false)
					}
				})
				if r.Tolerated != 1 || r.Violations != 1 {
					return fmt.Errorf("tolerated %d, violations %d, want 1 and 1: %+v", r.Tolerated, r.Violations, r.Log)
				}
				v := r.Log[0]
				s, ok := siteNamed(v.Sites, readerFunc)
				if !within(v, uint64(user)) || !ok || s.Allowed != "" || s.Allocs != 1 {
					return fmt.Errorf("violation %+v, want frame %d naming %s, not tolerated", v, user, readerFunc)
				}
				if err := g.Err(); err == nil || !strings.Contains(err.Error(), "userReader") {
					return fmt.Errorf("Err() = %v, want it to name the user's reader", err)
				}
				return nil
			})
		})
	}
}

// pool is a sync.Pool whose New allocates nothing, so the only allocation
// of a Get after a GC is the pool's own per-P array (sync.(*Pool).pinSlow).
var (
	poolObj = new([32]byte)
	pool    = sync.Pool{New: func() any { return poolObj }}
)

//go:noinline
func poolUser() { pool.Put(pool.Get()) }

// TestViolationInSyncNamesItsCaller: an allocation inside sync (a
// sync.Pool refilled after a GC) is named by the first caller outside
// the runtime and sync, not by sync.(*Pool).pinSlow; and an allowlist
// entry for that caller tolerates it.
func TestViolationInSyncNamesItsCaller(t *testing.T) {
	for _, allow := range []bool{false, true} {
		t.Run(fmt.Sprintf("allowed=%v", allow), func(t *testing.T) {
			exactSession(t, 3, func() error {
				d := Desc{Settle: 1, Window: 4, Sites: true, Prefixes: unguarded}
				if allow {
					d.Allow = []Allow{{Site: poolUseFunc, Reason: "stands in for oto's buffer pool"}}
				}
				g, _ := newTestGuard(t, d)
				poolUser()
				run(g, 5, nil)
				runtime.GC() // empties the pool: its next Get allocates
				r := run(g, 4, func(i int) {
					if i == 2 {
						poolUser()
					}
				})
				if allow {
					if r.Violations != 0 || r.Tolerated != 1 {
						return fmt.Errorf("violations %+v, tolerated %d; want the pool's caller tolerated", r.Log, r.Tolerated)
					}
					return nil
				}
				if r.Violations != 1 {
					return fmt.Errorf("violations %+v, want 1", r.Log)
				}
				// Every site is poolUser, named for the pool's Get it
				// called, except the runtime's own allocations on a loaded
				// machine (a new M in runtime.allocm, a GC mark worker,
				// the timer heap), whose stacks hold no other frame.
				named := false
				for _, s := range r.Log[0].Sites {
					switch {
					case s.Function == poolUseFunc:
						named = true
					case !strings.HasPrefix(s.Function, "runtime."):
						return fmt.Errorf("site %v, want every site named %s", s, poolUseFunc)
					}
				}
				if !named {
					return fmt.Errorf("sites %v, want one named %s", r.Log[0].Sites, poolUseFunc)
				}
				if !strings.Contains(g.Err().Error(), "poolUser") {
					return fmt.Errorf("Err() = %v, want it to name poolUser", g.Err())
				}
				return nil
			})
		})
	}
}

// libAlloc stands in for a standard-library function that allocates
// (encoding/binary.Read): decoderCalls (a decoder) and otherCalls (any
// other code) both call it.
//
//go:noinline
func libAlloc() { allocSink = make([]byte, 40) }

//go:noinline
func decoderCalls() { libAlloc() }

//go:noinline
func otherCalls() { libAlloc() }

// TestAllowCallerNarrowsAnEntry: an entry with a Caller tolerates its
// Site only where that caller called it; the same Site called from other
// code is a violation, named by the Site.
func TestAllowCallerNarrowsAnEntry(t *testing.T) {
	const pkg = "github.com/steadyframe/steadyframe/lifetime/guard."
	entry := Allow{Site: pkg + "libAlloc", Caller: pkg + "decoderCalls", Reason: "stands in for binary.Read under mewkiz/flac"}
	exactSession(t, 3, func() error {
		g, _ := newTestGuard(t, Desc{Settle: 1, Window: 1, Sites: true, Prefixes: unguarded, Allow: []Allow{entry}})
		r := run(g, 6, func(i int) {
			switch i {
			case 2:
				decoderCalls()
			case 4:
				otherCalls()
			}
		})
		if r.Tolerated != 1 || r.Violations != 1 {
			return fmt.Errorf("tolerated %d, violations %d, want 1 and 1: %+v", r.Tolerated, r.Violations, r.Log)
		}
		v := r.Log[0]
		s, ok := siteNamed(v.Sites, pkg+"libAlloc")
		if !within(v, 4) || !ok || s.Allowed != "" {
			return fmt.Errorf("violation %+v, want frame 4 naming libAlloc, not tolerated", v)
		}
		return nil
	})
}
