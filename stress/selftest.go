package main

import (
	"strings"
	"sync/atomic"
)

// selftestSink keeps selftestPoke's object reachable, so escape analysis
// must put it on the heap.
var selftestSink atomic.Pointer[[64]byte]

// selftestPoke makes exactly one heap allocation. With -selftest the
// render goroutine calls it once inside a guarded frame; the guard must
// report it as a violation naming this function, and the run must fail.
// The CI gate greps for this name, so a harness that stopped catching it
// cannot pass.
//
//go:noinline
func selftestPoke() { selftestSink.Store(new([64]byte)) }

// selftestName is the poke's function name. The guard spells it
// "main.selftestPoke" in the built tool and with the package's import path
// in the test binary, so sites are matched by this suffix.
const selftestName = "selftestPoke"

// isSelftestSite reports whether a site's function is the poke.
func isSelftestSite(function string) bool {
	return strings.HasSuffix(function, "."+selftestName)
}
