package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The sinc's group kernels, for the filters sincGroups lays out:
// upsampling to 48 taps. The AVX-512 ones compute 16 consecutive outputs
// at once, one per lane. The 16 outputs' windows start 0 to 15 frames
// after the group's first (its lane offsets), so together they read
// terms consecutive frames (56 or 64, the kernel's suffix): for each
// frame m, the kernel broadcasts its sample to every lane, multiplies it
// by the frame's 16 coefficients (each output's tap for that frame, or 0
// outside its window: one aligned load) and adds the products into the
// (m mod 8)-th of eight accumulators per channel. A sample is loaded once
// for all 16 outputs and nothing waits on a permute: against a permute
// of 16 frames per tap, about 15% fewer cycles a group for mono sources
// and 18% for stereo ones (llvm-mca, icelake-server). The lanes are the
// outputs, so there is no horizontal sum. The multiplies and adds are
// separate, each rounded, in sincDotGroup's order: the same values as
// the scalar kernels. Masked loads and stores confine the bus to the
// run's frames in the first group (whose lanes before the run's first
// row are off) and the last.
//
// The AVX2 kernel runs the same groups eight lanes at a time, for CPUs
// without AVX-512: a half-group is the first or last eight lanes of a
// group, its coefficients the first or second 32 bytes of each frame's
// 64, and it reads the same span of frames, from the group's first
// window start. Sixteen registers hold eight accumulators for one
// channel only: a stereo source takes two passes, one per plane, each
// writing its channel of the bus (chans). VMASKMOVPS confines the bus to
// the run's frames and the pass's channel.

const groupSig = "func(out *[2]float32, n int, x *float32, coef *float32, lane *int32, adv *uint32, groups, seq uint32, gl, gr float32)"

// groupArgs loads DI out, CX n, SI the plane, R8 coef, R9 lane, R13 adv,
// R11 the (half-)group of row seq and BX its first lane (the first
// output's), of width lanes; SI then addresses the group's first window
// start, DI the (half-)group's lane 0.
func groupArgs(lanes int) {
	MOVQ(param("out", 0), RDI)
	MOVQ(param("n", 8), RCX)
	MOVQ(param("x", 16), RSI)
	MOVQ(param("coef", 24), R8)
	MOVQ(param("lane", 32), R9)
	MOVQ(param("adv", 40), R13)
	MOVL(param("seq", 52), R11L)
	MOVL(R11L, EBX)
	ANDL(U32(lanes-1), EBX)
	MOVL(mi(R9, R11, 4, 0), EAX)
	SHLQ(U8(2), RAX)
	SUBQ(RAX, RSI)
	SHRL(U8(map[int]int{8: 3, 16: 4}[lanes]), R11L)
	MOVQ(RBX, RAX)
	SHLQ(U8(3), RAX)
	SUBQ(RAX, RDI)
}

// terms sums the span's frames into the eight accumulators acc (frame m
// into the (m mod 8)-th), through the temporaries tmp: the first eight
// frames start the accumulators. Frame m's sample is 4m bytes into the
// window at SI, its coefficients 64m bytes into the group's at R10.
func terms(n int, acc, tmp []VecPhysical) {
	for f := range n {
		a := acc[f%8]
		if f < 8 {
			VBROADCASTSS(m(RSI, 4*f), a)
			VMULPS(m(R10, 64*f), a, a)
			continue
		}
		t := tmp[(f-8)%len(tmp)]
		VBROADCASTSS(m(RSI, 4*f), t)
		VMULPS(m(R10, 64*f), t, t)
		VADDPS(t, a, a)
	}
}

// sum8 adds eight accumulators into a[0] in the order sincDotGroup
// reduces its partial sums: ((a0+a1)+(a2+a3)) + ((a4+a5)+(a6+a7)).
func sum8(a []VecPhysical) {
	VADDPS(a[1], a[0], a[0])
	VADDPS(a[3], a[2], a[2])
	VADDPS(a[5], a[4], a[4])
	VADDPS(a[7], a[6], a[6])
	VADDPS(a[2], a[0], a[0])
	VADDPS(a[6], a[4], a[4])
	VADDPS(a[4], a[0], a[0])
}

var (
	ymmAcc = []VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7}
	ymmTmp = []VecPhysical{Y8, Y9, Y10, Y11}
	zmmAcc = []VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7}
	zmmTmp = []VecPhysical{Z8, Z9, Z10, Z11}
	zmmRgt = []VecPhysical{Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23}
)

// halfMask sets Y12 and Y13 to the bus floats (frames 0-3, 4-7) of lanes
// BX to DX = min(BX+CX, 8) in the pass's channels: ones below 2DX, not
// below 2BX, and in the channel mask.
func halfMask() {
	LEAQ(mi(RBX, RCX, 1, 0), RDX)
	MOVL(U32(8), EAX)
	CMPQ(RDX, RAX)
	CMOVQHI(RAX, RDX)
	LEAQ(at(halfOnes, 64), RAX)
	MOVQ(RDX, R10)
	SHLQ(U8(3), R10)
	SUBQ(R10, RAX)
	VMOVDQU(m(RAX, 0), Y12)
	VMOVDQU(m(RAX, 32), Y13)
	LEAQ(at(halfOnes, 64), RAX)
	MOVQ(RBX, R10)
	SHLQ(U8(3), R10)
	SUBQ(R10, RAX)
	VMOVDQU(m(RAX, 0), Y6)
	VMOVDQU(m(RAX, 32), Y7)
	VPANDN(Y12, Y6, Y12)
	VPANDN(Y13, Y7, Y13)
	MOVQ(param("chans", 64), RAX)
	VPAND(m(RAX, 0), Y12, Y12)
	VPAND(m(RAX, 0), Y13, Y13)
}

// halfNext counts the half-group's outputs off CX and moves on: after a
// second half the window by adv[g] frames, the outputs 8 frames, the
// half-group index (cycling over 2×groups), all lanes on.
func halfNext() {
	SUBQ(RDX, RCX)
	ADDQ(RBX, RCX)
	XORL(EBX, EBX)
	TESTQ(U32(1), R11)
	skipIf(JZ, func() {
		MOVQ(R11, RDX)
		SHRQ(U8(1), RDX)
		MOVL(mi(R13, RDX, 4, 0), EAX)
		LEAQ(mi(RSI, RAX, 4, 0), RSI)
	})
	ADDQ(U32(64), RDI)
	INCL(R11L)
	MOVL(param("groups", 48), EAX)
	SHLL(U8(1), EAX)
	CMPL(R11L, EAX)
	skipIf(JB, func() { XORL(R11L, R11L) })
}

// halfGroups is sincGroups56AVX2 or sincGroups64AVX2: spans of n frames.
func halfGroups(name string, n int) {
	TEXT(name, NOSPLIT, "func(out *[2]float32, n int, x *float32, coef *float32, lane *int32, adv *uint32, groups, seq uint32, gl, gr float32, chans *[8]uint32)")
	Pragma("noescape")
	groupArgs(8)
	gains(56)
	loop := newLabel("hg")
	Label(loop)
	// R10: the coefficients of half-group R11 for a span of n frames per
	// group: group R11/2, half R11 mod 2 (32 bytes on).
	MOVQ(R11, R10)
	SHRQ(U8(1), R10)
	IMUL3Q(U32(n*64), R10, R10)
	ADDQ(R8, R10)
	MOVQ(R11, RAX)
	ANDQ(U32(1), RAX)
	SHLQ(U8(5), RAX)
	ADDQ(RAX, R10)
	terms(n, ymmAcc, ymmTmp)
	// The half-group's eight outputs, times the gains, into the bus
	// under the masks.
	VADDPS(Y1, Y0, Y0)
	VADDPS(Y3, Y2, Y2)
	VADDPS(Y5, Y4, Y4)
	VADDPS(Y7, Y6, Y6)
	VADDPS(Y2, Y0, Y0)
	VADDPS(Y6, Y4, Y4)
	VADDPS(Y4, Y0, Y0)
	halfMask()
	VMOVDQU(dupPairs, Y6)
	VPERMPS(Y0, Y6, Y4)
	VMOVDQU(at(dupPairs, 32), Y6)
	VPERMPS(Y0, Y6, Y5)
	VMULPS(Y15, Y4, Y4)
	VMULPS(Y15, Y5, Y5)
	VMASKMOVPS(m(RDI, 0), Y12, Y6)
	VMASKMOVPS(m(RDI, 32), Y13, Y7)
	VADDPS(Y6, Y4, Y4)
	VADDPS(Y7, Y5, Y5)
	VMASKMOVPS(Y4, Y12, m(RDI, 0))
	VMASKMOVPS(Y5, Y13, m(RDI, 32))
	halfNext()
	TESTQ(RCX, RCX)
	JNZ(LabelRef(loop))
	end()
}

func groupsAVX2() {
	halfGroups("sincGroups56AVX2", 56)
	halfGroups("sincGroups64AVX2", 64)
}

// groupMask sets K1 and K2 to the bus floats (frames 0-7, 8-15) of the
// group's lanes from BX to DX = min(BX+CX, 16).
func groupMask() {
	LEAQ(mi(RBX, RCX, 1, 0), RDX)
	MOVL(U32(16), EAX)
	CMPQ(RDX, RAX)
	CMOVQHI(RAX, RDX)
	LEAQ(laneBelow, R12)
	MOVL(mi(R12, RBX, 8, 0), EAX)
	NOTL(EAX)
	ANDL(mi(R12, RDX, 8, 0), EAX)
	KMOVW(EAX, K1)
	SHRL(U8(16), EAX)
	KMOVW(EAX, K2)
}

// groupOut adds the frames in Z4 (0-7) and Z5 (8-15), times the gains,
// into the bus under the masks.
func groupOut() {
	VMULPS(Z15, Z4, Z4)
	VMULPS(Z15, Z5, Z5)
	VMOVUPS_Z(m(RDI, 0), K1, Z6)
	VMOVUPS_Z(m(RDI, 64), K2, Z7)
	VADDPS(Z6, Z4, Z4)
	VADDPS(Z7, Z5, Z5)
	VMOVUPS(Z4, K1, m(RDI, 0))
	VMOVUPS(Z5, K2, m(RDI, 64))
}

// groupNext counts the group's outputs off CX and moves on to the next
// group: its window adv[R11] frames on (4-byte frames in a plane), its
// outputs 16 frames on, its group index (cycling), all lanes on.
func groupNext() {
	SUBQ(RDX, RCX)
	ADDQ(RBX, RCX)
	XORL(EBX, EBX)
	MOVL(mi(R13, R11, 4, 0), EAX)
	SHLQ(U8(2), RAX)
	ADDQ(RAX, RSI)
	ADDQ(U32(128), RDI)
	INCL(R11L)
	CMPL(R11L, param("groups", 48))
	skipIf(JB, func() { XORL(R11L, R11L) })
}

// stereoTerms is terms for both planes of a stereo span (the right one
// rightOff bytes after the left): left into Z0-Z7, right into Z16-Z23.
func stereoTerms(n int) {
	for f := range n {
		l, r := zmmAcc[f%8], zmmRgt[f%8]
		VMOVAPS(m(R10, 64*f), Z8)
		if f < 8 {
			VMULPS_BCST(m(RSI, 4*f), Z8, l)
			VMULPS_BCST(m(RSI, 4*f+rightOff), Z8, r)
			continue
		}
		VMULPS_BCST(m(RSI, 4*f), Z8, Z9)
		VMULPS_BCST(m(RSI, 4*f+rightOff), Z8, Z10)
		VADDPS(Z9, l, l)
		VADDPS(Z10, r, r)
	}
}

// fullGroups is one of the AVX-512 group kernels: mono or stereo, spans
// of n frames.
func fullGroups(name string, stereo bool, n int) {
	TEXT(name, NOSPLIT, groupSig)
	Pragma("noescape")
	groupArgs(16)
	// Z15: the gains (gl, gr, gl, gr, ...).
	VBROADCASTSS(param("gl", 56), Z15)
	VBROADCASTSS(param("gr", 60), Z14)
	MOVL(U32(0xAAAA), EAX)
	KMOVW(EAX, K3)
	VMOVAPS(Z14, K3, Z15)
	pairs := dupPairs
	if stereo {
		pairs = zipPairs
	}
	VMOVDQU32(pairs, Z13)
	VMOVDQU32(at(pairs, 64), Z12)
	loop := newLabel("g")
	Label(loop)
	IMUL3Q(U32(n*64), R11, R10)
	ADDQ(R8, R10)
	if stereo {
		stereoTerms(n)
		sum8(zmmAcc)
		sum8(zmmRgt)
		groupMask()
		VMOVAPS(Z0, Z4)
		VPERMT2PS(Z16, Z13, Z4)
		VMOVAPS(Z0, Z5)
		VPERMT2PS(Z16, Z12, Z5)
	} else {
		terms(n, zmmAcc, zmmTmp)
		sum8(zmmAcc)
		groupMask()
		VPERMPS(Z0, Z13, Z4)
		VPERMPS(Z0, Z12, Z5)
	}
	groupOut()
	groupNext()
	TESTQ(RCX, RCX)
	JNZ(LabelRef(loop))
	end()
}

func groupsAVX512() {
	fullGroups("sincMonoGroups56AVX512", false, 56)
	fullGroups("sincMonoGroups64AVX512", false, 64)
	fullGroups("sincStereoGroups56AVX512", true, 56)
	fullGroups("sincStereoGroups64AVX512", true, 64)
}

var _ Mem
