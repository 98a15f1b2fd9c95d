//go:build !race

package syncs

import "sync/atomic"

//go:generate go run -C asmgen . -out ../release_amd64.s

// storeRelease stores v at p with release order only: a plain MOV
// (release_amd64.s, from asmgen), which on amd64 (TSO) no store before
// it passes. sync/atomic's Store is an XCHG, a full fence, which a
// producer publishing its own cell does not need: the consumer's Load is
// an acquire, and the producer's earlier stores, the cell's value, are
// visible once seq is. The call is also a compiler barrier: the compiler
// keeps every store before it. Under the race detector the Go atomic
// stands in (release_other.go), so the detector sees the edge.
//
//go:noescape
func storeRelease(p *atomic.Uint64, v uint64)
