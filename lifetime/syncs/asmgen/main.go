// Command asmgen writes package syncs' one routine of assembly
// (release_amd64.s): the release store with which Queue.Publish hands a
// cell to the consumer. Run it with go generate in package syncs;
// scripts/ci-kernels.sh checks that regenerating changes nothing.
//
// It is a module of its own so that the library's go.mod does not need
// avo. Only a developer who changes the routine, and CI, build this.
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

func main() {
	// The race detector needs the Go atomic's edge (release_other.go).
	ConstraintExpr("!race")
	// storeRelease(p, v) is a plain 8-byte MOV: on amd64 (TSO) a store
	// passes no earlier store, so it is a release. sync/atomic's Store is
	// an XCHG, a full fence the single producer of a cell does not need.
	// The Go declaration takes p as *atomic.Uint64, whose only field
	// (the uint64) lies at offset 0; a pointer either way.
	TEXT("storeRelease", NOSPLIT, "func(p *uint64, v uint64)")
	Pragma("noescape")
	p := Load(Param("p"), GP64())
	v := Load(Param("v"), GP64())
	MOVQ(v, Mem{Base: p})
	RET()
	Generate()
}
