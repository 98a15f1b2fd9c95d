// Command asmgen writes the vector kernels of package dsp
// (kernels_amd64.s): AVX2 and AVX-512 versions of the mixer's inner
// loops, from one avo program. Run it with go generate in package dsp.
// scripts/ci-kernels.sh checks that regenerating changes nothing.
//
// It is a module of its own so that the library's go.mod does not need
// avo. Only a developer who changes a kernel, and CI, build this.
//
// The routines keep the scalar kernels' order of operations: separate
// multiplies and adds, each rounded. So they give the same bits, and the
// tests in package dsp and voices compare them. Registers are named
// physically, as a hand-written kernel names them. The loops are short
// and their register use is part of their design. Every routine ends
// with VZEROUPPER. Without it the SSE code after a vector loop pays for
// the dirty upper halves: the scalar mixer ran 2-3x slower after an
// AVX-512 prototype's loop.
package main

import (
	"fmt"
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

func main() {
	ConstraintExpr("!steadyframe_scalar")
	tables()
	unity()
	linearAVX2()
	sincAVX2()
	converters()
	groupsAVX2()
	linearAVX512()
	groupsAVX512()
	pitchKernels()
	Generate()
}

// Data: the lane tables and constants every kernel shares.
var (
	dupPairs, zipPairs, emit4, stereo2   Mem
	vecOne, vecNegOne, f65536, fracScale Mem
	lo16, halfOnes, laneBelow, intOne    Mem
)

func u32s(name string, vals ...uint32) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for i, v := range vals {
		DATA(4*i, U32(v))
	}
	return m
}

// f32 declares a float constant by its bits: avo prints F32(1) as $(1),
// which the assembler reads as the integer 1.
func f32(name string, v float32) Mem { return u32s(name, math.Float32bits(v)) }

func tables() {
	// dupPairs duplicates each lane into an L, R pair (VPERMPS indices
	// 0, 0, 1, 1, ..., 15, 15): from offset 0 the lanes 0-3 of a ymm
	// register or 0-7 of a zmm one, from 32 the lanes 4-7 of a ymm
	// register, from 64 the lanes 8-15 of a zmm one.
	var v []uint32
	for i := range uint32(16) {
		v = append(v, i, i)
	}
	dupPairs = u32s("dupPairs", v...)
	// zipPairs interleaves a left and a right zmm register (VPERMT2PS
	// indices: 16 and up are the right one): from offset 0 lanes 0-7,
	// from 64 lanes 8-15.
	v = nil
	for i := range uint32(16) {
		v = append(v, i, i+16)
	}
	zipPairs = u32s("zipPairs", v...)
	// emit4 orders REDUCE4's a, c, a, c | b, d, b, d as a, a, b, b, c,
	// c, d, d: four mono outputs, each for both channels.
	emit4 = u32s("emit4", 0, 0, 4, 4, 1, 1, 5, 5)
	// stereo2 orders REDUCE4's La, Lb, La, Lb | Ra, Rb, Ra, Rb (two
	// stereo outputs a and b) as La, Ra, Lb, Rb.
	stereo2 = u32s("stereo2", 0, 4, 1, 5, 0, 4, 1, 5)
	vecOne = f32("vecOne", 1)
	vecNegOne = f32("vecNegOne", -1)
	f65536 = f32("f65536", 65536)
	fracScale = f32("vecFracScale", 1.0/(1<<32))
	lo16 = u32s("lo16", 0xffff)
	// halfOnes has 16 words of ones and then 16 of zeros: the eight
	// words from index 16-j on mask the first j floats of a ymm register
	// (j up to 8), and those from 24-j the first j-8 of the next.
	v = nil
	for i := range 32 {
		v = append(v, map[bool]uint32{true: 0xffffffff, false: 0}[i < 16])
	}
	halfOnes = u32s("halfOnes", v...)
	// sincLaneBelow[j] has the low j bits set: ANDN of two entries masks
	// the bus floats of lanes lo to hi (entries 2lo and 2hi: 8-byte
	// steps).
	v = nil
	for j := range 33 {
		v = append(v, uint32(uint64(1)<<j-1))
	}
	laneBelow = u32s("sincLaneBelow", v...)
	intOne = u32s("linIntOne", 1)
}

// Operand shorthands.

func m(base Register, disp int) Mem { return Mem{Base: base, Disp: disp} }

func mi(base Register, index Register, scale uint8, disp int) Mem {
	return Mem{Base: base, Index: index, Scale: scale, Disp: disp}
}

func at(mem Mem, disp int) Mem { return mem.Offset(disp) }

func param(name string, off int) Mem { return NewParamAddr(name, off) }

// labels makes each label of a routine unique.
var labelN int

func newLabel(prefix string) string {
	labelN++
	return fmt.Sprintf("%s%d", prefix, labelN)
}

// skipIf jumps over the instructions emit writes when jump's condition
// holds: the hand kernels' JB 2(PC).
func skipIf(jump func(Op), emit func()) {
	l := newLabel("skip")
	jump(LabelRef(l))
	emit()
	Label(l)
}

// gains builds Y15 = gl, gr, gl, gr, ... from the arguments at offset off.
func gains(off int) {
	VMOVSS(param("gl", off), X15)
	VMOVSS(param("gr", off+4), X14)
	VUNPCKLPS(X14, X15, X15)
	VBROADCASTSD(X15, Y15)
}

// sanitize reads NaN lanes of y as 0 and clamps the rest to [-1, 1]
// (registers one = 1, neg = -1), as the scalar clamp does; t is a
// scratch register.
func sanitize(y, t, one, neg VecPhysical) {
	VCMPPS(U8(7), y, y, t)
	VANDPS(t, y, y)
	VMINPS(one, y, y)
	VMAXPS(neg, y, y)
}

// add8 adds eight frames, a (0-3) and b (4-7), L, R pairs, times the
// gains into the bus at DI.
func add8(a, b VecPhysical) {
	VMULPS(Y15, a, a)
	VMULPS(Y15, b, b)
	VADDPS(m(RDI, 0), a, a)
	VADDPS(m(RDI, 32), b, b)
	VMOVUPS(a, m(RDI, 0))
	VMOVUPS(b, m(RDI, 32))
}

// mono8 adds eight mono samples y, each for both channels, times the
// gains into the bus at DI, through a and b (Y10, Y11: dupPairs from 0
// and 32).
func mono8(y, a, b VecPhysical) {
	VPERMPS(y, Y10, a)
	VPERMPS(y, Y11, b)
	add8(a, b)
}

// stereo8 interleaves eight left (Y2) and right (Y3) samples into frames
// (Y4: l0 r0 l1 r1 | l4 r4 l5 r5, Y5: l2 r2 l3 r3 | l6 r6 l7 r7, then in
// order) and adds them, times the gains, into the bus at DI.
func stereo8() {
	VUNPCKLPS(Y3, Y2, Y4)
	VUNPCKHPS(Y3, Y2, Y5)
	VPERM2F128(U8(0x20), Y5, Y4, Y2)
	VPERM2F128(U8(0x31), Y5, Y4, Y3)
	add8(Y2, Y3)
}

// loop emits a counted loop: body, then CX -= step and round again
// until it is zero.
func loop(name string, step int, body func()) {
	l := newLabel(name)
	Label(l)
	body()
	SUBQ(U32(step), RCX)
	JNZ(LabelRef(l))
}

func end() {
	VZEROUPPER()
	RET()
}
