package main

import (
	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/lifetime/guard"
)

// otoAllow tolerates oto's own allocations. Its mux (third-party code we
// cannot change) takes every read buffer from a sync.Pool, and a GC
// empties sync.Pools, so the first device callback after each collection
// allocates the pool's per-P array and a buffer again; its mutex may
// allocate a waiter the same way. Those are bounded by the number of GCs
// (the guard's own baseline collection when it arms, and none after in a
// passing run), not by frames. The match is by prefix on oto's functions,
// and the guard names a site by the innermost guarded frame first, so our
// mixer, which oto calls, stays guarded.
var otoAllow = guard.Allow{
	Site:   "github.com/ebitengine/oto/v3/",
	Reason: "oto's mux refills its sync.Pool read buffers after a GC empties them (third-party; bounded by GC count)",
}

// guardAllow is the allowlist for the device the run uses. The offline
// device needs none: its pull loop sleeps rather than selecting, so it
// allocates nothing even after a GC.
func guardAllow(snd *scene.Audio) []guard.Allow {
	if snd.Offline {
		return nil
	}
	return []guard.Allow{otoAllow}
}
