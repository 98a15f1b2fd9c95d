package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The per-output sinc kernels, for the filters sincGroups does not lay
// out (downsampling, long cycles) and for CPUs without AVX-512. They
// filter planes of floats that the converters made of the source in the
// mixer's scratch (the right plane sincStride floats, rightOff bytes,
// after the left). Per output, the dot product of taps samples (from SI)
// with the phase's row of coefficients (from R10), eight taps at a time
// into two accumulators per channel; the window then moves on by
// adv[seq] frames for the next row. n may be any count.

// rightOff is sincStride floats in bytes: kernels_amd64.go fails to
// compile unless the planes lie that far apart.
const rightOff = 8448

// sincSig is the kernels' signature, the source plane named src.
func sincSig(src string) string {
	return "func(out *[2]float32, n int, " + src + " *float32, coef *float32, adv *uint32, taps int, seq, phases uint32, gl, gr float32)"
}

// sincHead loads the arguments but the source: DI out, CX n, R8 coef, R9
// taps, R11 seq, R12 phases, R13 adv, Y15 the gains, Y11 the lane order
// in which reduce4 leaves four sums, doubled for emit4.
func sincHead(name, src string) {
	TEXT(name, NOSPLIT, sincSig(src))
	Pragma("noescape")
	MOVQ(param("out", 0), RDI)
	MOVQ(param("n", 8), RCX)
	MOVQ(param("coef", 24), R8)
	MOVQ(param("adv", 32), R13)
	MOVQ(param("taps", 40), R9)
	MOVL(param("seq", 48), R11L)
	MOVL(param("phases", 52), R12L)
	gains(56)
	VMOVDQU(emit4, Y11)
	MOVQ(param(src, 16), RSI)
}

// sincNext moves the window on to the next output's (adv[seq] frames of
// 4 bytes) and seq to the next row, the first after the last.
func sincNext() {
	MOVL(mi(R13, R11, 4, 0), EAX)
	SHLQ(U8(2), RAX)
	ADDQ(RAX, RSI)
	INCL(R11L)
	CMPL(R11L, R12L)
	skipIf(JB, func() { XORL(R11L, R11L) })
}

// row sets R10 to the row of phase R11: R8 + phase·taps·4.
func row() {
	MOVQ(R11, R10)
	IMULQ(R9, R10)
	LEAQ(mi(R8, R10, 4, 0), R10)
}

// dot1 sets dst to the eight lanes of one channel's dot product (the two
// accumulators added) for the window at SI and the row of phase R11. Its
// order is sincDotLanes'.
func dot1(dst VecPhysical) {
	row()
	MOVQ(RSI, RBX)
	MOVQ(R9, RDX)
	VXORPS(Y0, Y0, Y0)
	VXORPS(Y1, Y1, Y1)
	lbl, done := newLabel("dot"), newLabel("dotdone")
	Label(lbl)
	VMOVUPS(m(RBX, 0), Y2)
	VMULPS(m(R10, 0), Y2, Y2)
	VADDPS(Y2, Y0, Y0)
	SUBQ(U32(8), RDX)
	JZ(LabelRef(done))
	VMOVUPS(m(RBX, 32), Y3)
	VMULPS(m(R10, 32), Y3, Y3)
	VADDPS(Y3, Y1, Y1)
	ADDQ(U32(64), RBX)
	ADDQ(U32(64), R10)
	SUBQ(U32(8), RDX)
	JNZ(LabelRef(lbl))
	Label(done)
	VADDPS(Y1, Y0, dst)
}

// dot2 is dot1 for both planes of a stereo window, into dl and dr.
func dot2(dl, dr VecPhysical) {
	row()
	MOVQ(RSI, RBX)
	MOVQ(R9, RDX)
	VXORPS(Y0, Y0, Y0)
	VXORPS(Y1, Y1, Y1)
	VXORPS(Y5, Y5, Y5)
	VXORPS(Y6, Y6, Y6)
	lbl, done := newLabel("dot"), newLabel("dotdone")
	Label(lbl)
	VMOVUPS(m(R10, 0), Y4)
	VMULPS(m(RBX, 0), Y4, Y2)
	VADDPS(Y2, Y0, Y0)
	VMULPS(m(RBX, rightOff), Y4, Y3)
	VADDPS(Y3, Y5, Y5)
	SUBQ(U32(8), RDX)
	JZ(LabelRef(done))
	VMOVUPS(m(R10, 32), Y4)
	VMULPS(m(RBX, 32), Y4, Y2)
	VADDPS(Y2, Y1, Y1)
	VMULPS(m(RBX, rightOff+32), Y4, Y3)
	VADDPS(Y3, Y6, Y6)
	ADDQ(U32(64), RBX)
	ADDQ(U32(64), R10)
	SUBQ(U32(8), RDX)
	JNZ(LabelRef(lbl))
	Label(done)
	VADDPS(Y1, Y0, dl)
	VADDPS(Y6, Y5, dr)
}

// dot1x and dot2x are dot1 and dot2 for 48 taps (upsampling filter), in
// straight lines: no loop, and the first two chunks start their
// accumulators instead of adding to zero (the same sums: adding a
// product to zero changes at most the sign of a zero, which cannot reach
// the bus). The loop's bookkeeping was about a quarter of the
// instructions per output.
func dot1x(dst VecPhysical) {
	row()
	VMOVUPS(m(RSI, 0), Y2)
	VMULPS(m(R10, 0), Y2, Y0)
	VMOVUPS(m(RSI, 32), Y3)
	VMULPS(m(R10, 32), Y3, Y1)
	for c := 2; c < 6; c++ {
		acc := []VecPhysical{Y0, Y1}[c%2]
		VMOVUPS(m(RSI, 32*c), Y2)
		VMULPS(m(R10, 32*c), Y2, Y2)
		VADDPS(Y2, acc, acc)
	}
	VADDPS(Y1, Y0, dst)
}

func dot2x(dl, dr VecPhysical) {
	row()
	VMOVUPS(m(R10, 0), Y4)
	VMULPS(m(RSI, 0), Y4, Y0)
	VMULPS(m(RSI, rightOff), Y4, Y5)
	VMOVUPS(m(R10, 32), Y4)
	VMULPS(m(RSI, 32), Y4, Y1)
	VMULPS(m(RSI, rightOff+32), Y4, Y6)
	for c := 2; c < 6; c++ {
		l, r := []VecPhysical{Y0, Y1}[c%2], []VecPhysical{Y5, Y6}[c%2]
		VMOVUPS(m(R10, 32*c), Y4)
		VMULPS(m(RSI, 32*c), Y4, Y2)
		VADDPS(Y2, l, l)
		VMULPS(m(RSI, rightOff+32*c), Y4, Y3)
		VADDPS(Y3, r, r)
	}
	VADDPS(Y1, Y0, dl)
	VADDPS(Y6, Y5, dr)
}

// reduce4 reduces four eight-lane sums a, b, c, d at once, each in the
// order of sincDotLanes (the upper half onto the lower, the upper pair
// onto the lower, the last two), leaving a, c, a, c | b, d, b, d in Y0.
func reduce4(a, b, c, d VecPhysical) {
	VPERM2F128(U8(0x20), b, a, Y2)
	VPERM2F128(U8(0x31), b, a, Y3)
	VADDPS(Y3, Y2, Y2)
	VPERM2F128(U8(0x20), d, c, Y3)
	VPERM2F128(U8(0x31), d, c, Y4)
	VADDPS(Y4, Y3, Y3)
	VSHUFPS(U8(0x44), Y3, Y2, Y4)
	VSHUFPS(U8(0xEE), Y3, Y2, Y5)
	VADDPS(Y5, Y4, Y4)
	VSHUFPS(U8(0x88), Y4, Y4, Y0)
	VSHUFPS(U8(0xDD), Y4, Y4, Y1)
	VADDPS(Y1, Y0, Y0)
}

// emit4r reduces four sums (reduce4) and orders them for the bus with
// Y11 (emit4 or stereo2), into Y0.
func emit4r(a, b, c, d VecPhysical) {
	reduce4(a, b, c, d)
	VPERMPS(Y0, Y11, Y0)
}

// add1 adds one frame, X0's low pair, times the gains into the bus at DI.
func add1() {
	VMULPS(X15, X0, X0)
	VMOVSD(m(RDI, 0), X1)
	VADDPS(X1, X0, X0)
	VMOVSD(X0, m(RDI, 0))
}

// sincMono is sincMonoAVX2 (dot dot1) or sincMono48AVX2 (dot1x). Four
// outputs at a time: their dot products are independent, so they
// overlap, and one reduction and store serve all four (reducing each
// output alone left it waiting on a chain of about 50 cycles). The last
// outputs one at a time: the same reduction, its other lanes unused.
func sincMono(name string, dot func(VecPhysical)) {
	sincHead(name, "x")
	four, one, done := newLabel("sm4_"), newLabel("sm1_"), newLabel("smend")
	Label(four)
	CMPQ(RCX, U32(4))
	JB(LabelRef(one))
	for _, y := range []VecPhysical{Y7, Y8, Y9, Y10} {
		dot(y)
		sincNext()
	}
	emit4r(Y7, Y8, Y9, Y10)
	VMULPS(Y15, Y0, Y0)
	VADDPS(m(RDI, 0), Y0, Y0)
	VMOVUPS(Y0, m(RDI, 0))
	ADDQ(U32(32), RDI)
	SUBQ(U32(4), RCX)
	JMP(LabelRef(four))
	Label(one)
	TESTQ(RCX, RCX)
	JZ(LabelRef(done))
	dot(Y7)
	sincNext()
	emit4r(Y7, Y7, Y7, Y7)
	add1()
	ADDQ(U32(8), RDI)
	DECQ(RCX)
	JMP(LabelRef(one))
	Label(done)
	end()
}

// sincStereo is sincStereoAVX2 (dot2) or sincStereo48AVX2 (dot2x): two
// outputs at a time, as sincMono takes four.
func sincStereo(name string, dot func(l, r VecPhysical)) {
	sincHead(name, "l")
	VMOVDQU(stereo2, Y11)
	two, one, done := newLabel("ss2_"), newLabel("ss1_"), newLabel("ssend")
	Label(two)
	CMPQ(RCX, U32(2))
	JB(LabelRef(one))
	dot(Y7, Y8)
	sincNext()
	dot(Y9, Y10)
	sincNext()
	emit4r(Y7, Y8, Y9, Y10)
	VMULPS(X15, X0, X0)
	VADDPS(m(RDI, 0), X0, X0)
	VMOVUPS(X0, m(RDI, 0))
	ADDQ(U32(16), RDI)
	SUBQ(U32(2), RCX)
	JMP(LabelRef(two))
	Label(one)
	TESTQ(RCX, RCX)
	JZ(LabelRef(done))
	dot(Y7, Y8)
	sincNext()
	emit4r(Y7, Y8, Y7, Y8)
	add1()
	Label(done)
	end()
}

func sincAVX2() {
	sincMono("sincMonoAVX2", dot1)
	sincMono("sincMono48AVX2", dot1x)
	sincStereo("sincStereoAVX2", dot2)
	sincStereo("sincStereo48AVX2", dot2x)
}

var _ Mem
