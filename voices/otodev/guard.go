package otodev

import "github.com/steadyframe/steadyframe/lifetime/guard"

// otoSite is the prefix of every function of oto's module.
const otoSite = "github.com/ebitengine/oto/v3"

// guardReason says why oto's own allocations are tolerated.
const guardReason = "oto's mux (third-party) takes its read buffers from a sync.Pool, which every GC empties, " +
	"so its first callback after a GC allocates the pool's per-P array and a buffer again, and its mutex a waiter; " +
	"bounded by the GC count, not by frames. Code it calls (the engine's mixer, a player's reader) stays guarded"

// GuardAllow returns the allowlist entry a guard needs while a Device
// plays: oto's mux, on its own goroutine, allocates inside guarded frames
// after each GC (see the entry's Reason). It covers only allocations
// made by oto's own code; the engine's mixer and any reader oto calls are
// still guarded. Pass it in guard.Desc.Allow; the value is the caller's.
func GuardAllow() guard.Allow { return guard.Allow{Site: otoSite + "/", Reason: guardReason} }
