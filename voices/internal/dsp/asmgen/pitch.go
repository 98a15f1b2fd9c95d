package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The pitched filter's kernels (dsp's Interp, Kernels.FilterSteps): per
// output, the window of taps frames at the position's whole part, and
// coefficients interpolated between the two phases of 512 around its
// fraction, c = a + w·(b-a). a and b are two rows of taps floats, the
// next phase's row right after the phase's. Each output has its own step
// (the pitch ramps per frame), so there is no group layout: taps are
// summed eight (AVX2) or sixteen (AVX-512) at a time into sixteen lanes,
// tap k into lane k mod 16, and the lanes are reduced as pitchDot
// reduces them. The coefficients of a tap serve both channels of a
// stereo window. The multiplies and adds are separate, each rounded: the
// scalar bits.

// limit is the last frame a window may start at in both planes; a
// routine stops at the first output past it and returns how many (or how
// many pairs) it left undone, 0 when it did them all.
const pitchSig = "func(out *[2]float32, n int, l, r *float32, coef *float32, taps int, p uint64, steps *uint64, gl, gr float32, limit int) (next uint64, left int)"

// The arguments' offsets.
const (
	pitchArgR     = 24
	pitchArgCoef  = 32
	pitchArgTaps  = 40
	pitchArgP     = 48
	pitchArgSteps = 56
	pitchArgGains = 64
	pitchArgLimit = 72
	pitchArgNext  = 80
	pitchArgLeft  = 88
)

// pitchCheck jumps to bail if the window starting at frame j starts past
// the limit argument.
func pitchCheck(j GPPhysical, bail string) {
	CMPQ(j, param("limit", pitchArgLimit))
	JGT(LabelRef(bail))
}

// pitchReturn stores the position DX and 0 outputs left and returns; at
// bail, it stores CX outputs left instead.
func pitchReturn(bail string) {
	MOVQ(RDX, param("next", pitchArgNext))
	MOVQ(U32(0), param("left", pitchArgLeft))
	end()
	Label(bail)
	MOVQ(RCX, param("left", pitchArgLeft))
	end()
}

// pitchKernels writes the AVX2 and AVX-512 routines for mono and stereo
// windows, one output at a time, and the AVX2 routines two at a time.
func pitchKernels() {
	for _, stereo := range []bool{false, true} {
		for _, wide := range []bool{false, true} {
			pitchKernel(stereo, wide)
		}
		pitchPairs(stereo)
	}
}

// pitchKernel writes one routine. Registers: DI out, CX outputs left, SI
// the left plane, R14 the right plane's distance from it in bytes, R8
// the coefficients, R9 taps, R12 a row's bytes (where the next phase's
// row starts), DX the position, R13 the steps; per output BX the
// window, R10 the row, R11 taps left, Y14 (Z14) the weight w, X12 the
// fraction's scale; Y4/Y5 the left lanes 0-7 and 8-15 (Z4 all of them),
// Y6/Y7 (Z6) the right; X15 the gains.
func pitchKernel(stereo, wide bool) {
	name := map[bool]string{false: "pitchMono", true: "pitchStereo"}[stereo] + map[bool]string{false: "AVX2", true: "AVX512"}[wide]
	TEXT(name, NOSPLIT, pitchSig)
	Pragma("noescape")
	MOVQ(param("out", 0), RDI)
	MOVQ(param("n", 8), RCX)
	MOVQ(param("l", 16), RSI)
	MOVQ(param("r", pitchArgR), R14)
	SUBQ(RSI, R14)
	MOVQ(param("coef", pitchArgCoef), R8)
	MOVQ(param("taps", pitchArgTaps), R9)
	MOVQ(R9, R12)
	SHLQ(U8(2), R12)
	MOVQ(param("p", pitchArgP), RDX)
	MOVQ(param("steps", pitchArgSteps), R13)
	VMOVSS(param("gl", pitchArgGains), X15)
	VMOVSS(param("gr", pitchArgGains+4), X13)
	VUNPCKLPS(X13, X15, X15)
	VMOVSS(fracScale, X12)

	outer, bail := newLabel("pitch"), newLabel("pbail")
	Label(outer)
	// The window: frame p>>32 of each plane.
	MOVQ(RDX, RAX)
	SHRQ(U8(32), RAX)
	pitchCheck(RAX, bail)
	LEAQ(mi(RSI, RAX, 4, 0), RBX)
	// The rows: ph = frac>>23, and w = float32(frac<<9)·2^-32, as
	// Interp's scalar code converts it (uint32 to float32, rounded).
	MOVL(EDX, EAX)
	MOVL(EAX, R10L)
	SHRL(U8(32-9), R10L)
	SHLL(U8(9), EAX)
	VCVTSI2SSQ(RAX, X12, X13)
	VMULSS(X12, X13, X13)
	if wide {
		VBROADCASTSS(X13, Z14)
	} else {
		VBROADCASTSS(X13, Y14)
	}
	IMULQ(R9, R10)
	LEAQ(mi(R8, R10, 4, 0), R10)
	MOVQ(R9, R11)
	if wide {
		pitchTaps16(stereo)
	} else {
		pitchTaps8(stereo)
	}
	pitchReduce(Y4, Y5, X4)
	if stereo {
		pitchReduce(Y6, Y7, X6)
		VUNPCKLPS(X6, X4, X4)
	} else {
		VUNPCKLPS(X4, X4, X4)
	}
	VMULPS(X15, X4, X4)
	VMOVSD(m(RDI, 0), X5)
	VADDPS(X4, X5, X5)
	VMOVSD(X5, m(RDI, 0))
	ADDQ(m(R13, 0), RDX)
	ADDQ(U8(8), R13)
	ADDQ(U8(8), RDI)
	DECQ(RCX)
	JNZ(LabelRef(outer))
	pitchReturn(bail)
}

// pitchChunk adds the products of eight (ymm) or sixteen (zmm) taps, at
// off bytes into the window and the row, to the accumulators accL and
// accR (stereo): c = a + w·(b-a), then c·x.
func pitchChunk(a, b, pl, pr, w VecPhysical, off int, accL, accR VecPhysical, stereo bool) {
	pitchChunkAt(R10, RBX, a, b, pl, pr, w, off, accL, accR, stereo)
}

// pitchChunkAt is pitchChunk for the row and window registers given.
func pitchChunkAt(row, win GPPhysical, a, b, pl, pr, w VecPhysical, off int, accL, accR VecPhysical, stereo bool) {
	VMOVUPS(m(row, off), a)
	VMOVUPS(mi(row, R12, 1, off), b)
	VSUBPS(a, b, b)
	VMULPS(w, b, b)
	VADDPS(b, a, a)
	VMULPS(m(win, off), a, pl)
	VADDPS(pl, accL, accL)
	if stereo {
		VMULPS(mi(win, R14, 1, off), a, pr)
		VADDPS(pr, accR, accR)
	}
}

// pitchTaps8 sums the taps eight at a time, alternately into lanes 0-7
// (Y4, Y6) and 8-15 (Y5, Y7); taps is a multiple of 8.
func pitchTaps8(stereo bool) {
	VXORPS(Y4, Y4, Y4)
	VXORPS(Y5, Y5, Y5)
	if stereo {
		VXORPS(Y6, Y6, Y6)
		VXORPS(Y7, Y7, Y7)
	}
	lbl, done := newLabel("ptaps"), newLabel("ptapsdone")
	Label(lbl)
	pitchChunk(Y0, Y1, Y2, Y3, Y14, 0, Y4, Y6, stereo)
	SUBQ(U8(8), R11)
	JZ(LabelRef(done))
	pitchChunk(Y0, Y1, Y2, Y3, Y14, 32, Y5, Y7, stereo)
	ADDQ(U8(64), R10)
	ADDQ(U8(64), RBX)
	SUBQ(U8(8), R11)
	JNZ(LabelRef(lbl))
	Label(done)
}

// pitchTaps16 sums the taps sixteen at a time into Z4 (Z6), lane k mod
// 16 each, then splits the lanes 8-15 off into Y5 (Y7) and adds a last
// eight taps, if taps is not a multiple of 16, into lanes 0-7: each
// lane's sum in pitchDot's order.
func pitchTaps16(stereo bool) {
	VPXORD(Z4, Z4, Z4)
	if stereo {
		VPXORD(Z6, Z6, Z6)
	}
	lbl, tail, done := newLabel("ptaps"), newLabel("ptail"), newLabel("ptapsdone")
	Label(lbl)
	CMPQ(R11, U8(16))
	JB(LabelRef(tail))
	pitchChunk(Z0, Z1, Z2, Z3, Z14, 0, Z4, Z6, stereo)
	ADDQ(U8(64), R10)
	ADDQ(U8(64), RBX)
	SUBQ(U8(16), R11)
	JMP(LabelRef(lbl))
	Label(tail)
	VEXTRACTF64X4(U8(1), Z4, Y5)
	if stereo {
		VEXTRACTF64X4(U8(1), Z6, Y7)
	}
	TESTQ(R11, R11)
	JZ(LabelRef(done))
	pitchChunk(Y0, Y1, Y2, Y3, Y14, 0, Y4, Y6, stereo)
	Label(done)
}

// pitchReduce sums sixteen lanes, lo (0-7) and hi (8-15), into the
// first float of dst (lo's low half): lanes l and l+8, then l and l+4,
// l and l+2, and the last two, as pitchDot does.
func pitchReduce(lo, hi VecPhysical, dst VecPhysical) {
	VADDPS(hi, lo, lo)
	VEXTRACTF128(U8(1), lo, X5)
	VADDPS(X5, dst, dst)
	VMOVHLPS(dst, dst, X5)
	VADDPS(X5, dst, dst)
	VMOVSHDUP(dst, X5)
	VADDSS(X5, dst, dst)
}

// pitchPairs writes the AVX2 routine that computes two outputs at once
// (n is a count of pairs): the two windows' taps interleaved, so that
// one output's chain of dependent adds runs beside the other's, and the
// two reduced together. It is software-pipelined: a pair's reduction is
// finished and stored after the next pair's taps, whose work then fills
// the wait on its chain of adds. Each lane's sum, and each reduction
// step, is pitchDot's. Registers as pitchKernel's, and for the second
// output AX its row, R15 its window, Y13 its weight; the accumulators
// are Y4-Y7 (mono: first output, second) or Y4-Y11 (stereo: first left,
// first right, second left, second right), a pair's half-reduced sums
// Y8 (mono) or Y2, Y3 (stereo); Y0 and Y1 are scratch.
func pitchPairs(stereo bool) {
	name := map[bool]string{false: "pitchMonoPairsAVX2", true: "pitchStereoPairsAVX2"}[stereo]
	TEXT(name, NOSPLIT, pitchSig)
	Pragma("noescape")
	// The global first: a global's address may cost R15 (dynamic linking).
	VMOVSS(fracScale, X12)
	MOVQ(param("out", 0), RDI)
	MOVQ(param("n", 8), RCX)
	MOVQ(param("l", 16), RSI)
	MOVQ(param("r", pitchArgR), R14)
	SUBQ(RSI, R14)
	MOVQ(param("coef", pitchArgCoef), R8)
	MOVQ(param("taps", pitchArgTaps), R12)
	SHLQ(U8(2), R12)
	MOVQ(param("p", pitchArgP), RDX)
	MOVQ(param("steps", pitchArgSteps), R13)
	gains(pitchArgGains)

	acc := []VecPhysical{Y4, Y5, Y6, Y7}
	if stereo {
		acc = []VecPhysical{Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11}
	}
	// chunk adds eight taps at off of both outputs, into the lanes 0-7
	// (half 0) or 8-15 (half 1).
	chunk := func(off, half int) {
		if stereo {
			pitchChunkAt(R10, RBX, Y0, Y1, Y1, Y1, Y14, off, acc[half], acc[2+half], true)
			pitchChunkAt(RAX, R15, Y0, Y1, Y1, Y1, Y13, off, acc[4+half], acc[6+half], true)
			return
		}
		pitchChunkAt(R10, RBX, Y0, Y1, Y1, nil, Y14, off, acc[half], nil, false)
		pitchChunkAt(RAX, R15, Y0, Y1, Y1, nil, Y13, off, acc[2+half], nil, false)
	}
	bail := newLabel("ppbail")
	pair := func() {
		pitchSetup(RBX, R10, X14, Y14, bail)
		ADDQ(m(R13, 0), RDX)
		pitchSetup(R15, RAX, X13, Y13, bail)
		ADDQ(m(R13, 8), RDX)
		ADDQ(U8(16), R13)
		MOVQ(R12, R11)
		for _, y := range acc {
			VXORPS(y, y, y)
		}
		lbl, done := newLabel("pptaps"), newLabel("pptapsdone")
		Label(lbl)
		chunk(0, 0)
		SUBQ(U8(32), R11)
		JZ(LabelRef(done))
		chunk(32, 1)
		ADDQ(U8(64), R10)
		ADDQ(U8(64), RBX)
		ADDQ(U8(64), RAX)
		ADDQ(U8(64), R15)
		SUBQ(U8(32), R11)
		JNZ(LabelRef(lbl))
		Label(done)
	}
	partial, finish := pitchHalfMonoPair, pitchEndMonoPair
	if stereo {
		partial, finish = pitchHalfStereoPair, pitchEndStereoPair
	}
	pair()
	partial()
	outer, last := newLabel("ppair"), newLabel("pplast")
	Label(outer)
	DECQ(RCX)
	JZ(LabelRef(last))
	pair()
	finish()
	partial()
	JMP(LabelRef(outer))
	Label(last)
	finish()
	pitchReturn(bail)
}

// pitchSetup points win at the window of the output at DX, row at its
// first row of coefficients, and broadcasts its weight into w (through
// xw, its low lane), or jumps to bail if the window starts past the
// limit; R9 is scratch. As pitchKernel's.
func pitchSetup(win, row GPPhysical, xw, w VecPhysical, bail string) {
	MOVQ(RDX, R9)
	SHRQ(U8(32), R9)
	pitchCheck(R9, bail)
	LEAQ(mi(RSI, R9, 4, 0), win)
	MOVL(EDX, R9L)
	MOVL(R9L, row.As32())
	SHRL(U8(32-9), row.As32())
	SHLL(U8(9), R9L)
	VCVTSI2SSQ(R9, X12, xw)
	VMULSS(X12, xw, xw)
	VBROADCASTSS(xw, w)
	IMULQ(R12, row)
	LEAQ(mi(R8, row, 1, 0), row)
}

// pitchHalfMonoPair starts the reduction of two mono outputs' lanes (Y4,
// Y5 and Y6, Y7): lanes l and l+8, then l and l+4, into Y8 (the first
// output's four sums, the second's).
func pitchHalfMonoPair() {
	VADDPS(Y5, Y4, Y4)
	VADDPS(Y7, Y6, Y6)
	VPERM2F128(U8(0x20), Y6, Y4, Y5)
	VPERM2F128(U8(0x31), Y6, Y4, Y7)
	VADDPS(Y7, Y5, Y8)
}

// pitchEndMonoPair finishes it, lanes l and l+2 and then the last two,
// and adds the two frames (s0, s0, s1, s1) times the gains into the bus
// at DI, which moves on.
func pitchEndMonoPair() {
	VPERMILPS(U8(0x4e), Y8, Y0)
	VADDPS(Y0, Y8, Y8)
	VMOVSHDUP(Y8, Y0)
	VADDPS(Y0, Y8, Y8) // lanes 0 and 4
	VEXTRACTF128(U8(1), Y8, X0)
	VUNPCKLPS(X0, X8, X8)
	VUNPCKLPS(X8, X8, X0)
	pitchAddPair()
}

// pitchHalfStereoPair starts the reduction of two stereo outputs' lanes
// (Y4-Y11): lanes l and l+8, then l and l+4, into Y2 (first left | first
// right) and Y3 (second left | second right).
func pitchHalfStereoPair() {
	VADDPS(Y5, Y4, Y4)
	VADDPS(Y7, Y6, Y6)
	VADDPS(Y9, Y8, Y8)
	VADDPS(Y11, Y10, Y10)
	VPERM2F128(U8(0x20), Y6, Y4, Y5)
	VPERM2F128(U8(0x31), Y6, Y4, Y7)
	VADDPS(Y7, Y5, Y2)
	VPERM2F128(U8(0x20), Y10, Y8, Y9)
	VPERM2F128(U8(0x31), Y10, Y8, Y11)
	VADDPS(Y11, Y9, Y3)
}

// pitchEndStereoPair finishes it and adds the two frames (l0, r0, l1,
// r1) times the gains into the bus at DI, which moves on.
func pitchEndStereoPair() {
	VSHUFPS(U8(0x44), Y3, Y2, Y0)
	VSHUFPS(U8(0xee), Y3, Y2, Y1)
	VADDPS(Y1, Y0, Y0) // l and l+2: first 0, 1, second 0, 1 | the same, right
	VMOVSHDUP(Y0, Y1)
	VADDPS(Y1, Y0, Y0) // the last two: lanes 0 and 2 left, 4 and 6 right
	VEXTRACTF128(U8(1), Y0, X1)
	VSHUFPS(U8(0x88), X1, X0, X0) // l0, l1, r0, r1
	VPERMILPS(U8(0xd8), X0, X0)
	pitchAddPair()
}

// pitchAddPair adds X0, two frames, times the gains into the bus at DI,
// which moves on.
func pitchAddPair() {
	VMULPS(X15, X0, X0)
	VADDPS(m(RDI, 0), X0, X0)
	VMOVUPS(X0, m(RDI, 0))
	ADDQ(U8(16), RDI)
}
