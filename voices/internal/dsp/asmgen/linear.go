package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The AVX2 linear resamplers keep the eight 32.32 positions of the next
// eight outputs in Y8 (outputs 0-3) and Y9 (4-7), advance them by 8·step
// (Y7) per iteration, and split them into source frame indices (Y0) and
// the fractions' weights t (Y1), in output order. t is the fraction
// converted exactly as the scalar code's float32(uint32) conversion
// rounds it: the upper and lower 16 bits are each exact as floats, and
// their sum rounds once, to nearest; then × 2^-32, exact. Source frames
// are gathered (VPGATHERDD reads a dword at each index; its mask, all
// ones, is consumed by each gather). 16-bit samples are interpolated as
// floats, unscaled, as the scalar loops do.

const linearSig = "func(out *[2]float32, src *byte, n int, pos *[8]uint64, step8 uint64, gl, gr float32)"

// positions sets Y0 = frame indices, Y1 = weights of positions Y8, Y9.
func positions() {
	VSHUFPS(U8(0xDD), Y9, Y8, Y0)
	VPERMQ(U8(0xD8), Y0, Y0)
	VSHUFPS(U8(0x88), Y9, Y8, Y1)
	VPERMQ(U8(0xD8), Y1, Y1)
	VPSRLD(U8(16), Y1, Y2)
	VPAND(Y14, Y1, Y1)
	VCVTDQ2PS(Y2, Y2)
	VCVTDQ2PS(Y1, Y1)
	VMULPS(Y13, Y2, Y2)
	VADDPS(Y1, Y2, Y1)
	VMULPS(Y12, Y1, Y1)
	VPADDQ(Y7, Y8, Y8)
	VPADDQ(Y7, Y9, Y9)
}

// linearHead loads DI out, SI src, CX n, the gains, the positions and
// the constants.
func linearHead(name string) {
	TEXT(name, NOSPLIT, linearSig)
	Pragma("noescape")
	MOVQ(param("out", 0), RDI)
	MOVQ(param("src", 8), RSI)
	MOVQ(param("n", 16), RCX)
	gains(40) // before the positions: they use X14
	MOVQ(param("pos", 24), RAX)
	VMOVDQU(m(RAX, 0), Y8)
	VMOVDQU(m(RAX, 32), Y9)
	VPBROADCASTQ(param("step8", 32), Y7)
	VPBROADCASTD(lo16, Y14)
	VBROADCASTSS(f65536, Y13)
	VBROADCASTSS(fracScale, Y12)
}

// lerp sets a = a + (b - a)·Y1: subtract, multiply and add, rounded one
// by one, as the scalar code does.
func lerp(a, b VecPhysical) {
	VSUBPS(a, b, b)
	VMULPS(Y1, b, b)
	VADDPS(b, a, a)
}

// gather loads the dword at disp + index·scale from SI for each lane of
// Y0 into dst.
func gather(disp int, scale uint8, dst VecPhysical) {
	VPCMPEQD(Y6, Y6, Y6)
	VPGATHERDD(Y6, Mem{Base: RSI, Index: Y0, Scale: scale, Disp: disp}, dst)
}

func linearAVX2() {
	linearHead("resampleS16MonoAVX2")
	VMOVDQU(dupPairs, Y10)
	VMOVDQU(at(dupPairs, 32), Y11)
	loop("rs16m", 8, func() {
		positions()
		gather(0, 2, Y3) // samples j and j+1
		VPSLLD(U8(16), Y3, Y4)
		VPSRAD(U8(16), Y4, Y4) // s0
		VPSRAD(U8(16), Y3, Y3) // s1
		VCVTDQ2PS(Y4, Y4)
		VCVTDQ2PS(Y3, Y3)
		lerp(Y4, Y3)
		mono8(Y4, Y2, Y3)
		ADDQ(U32(64), RDI)
	})
	end()

	linearHead("resampleS16StereoAVX2")
	loop("rs16s", 8, func() {
		positions()
		gather(0, 4, Y3) // frame j: L | R<<16
		gather(4, 4, Y5) // frame j+1
		VPSLLD(U8(16), Y3, Y2)
		VPSRAD(U8(16), Y2, Y2) // L0
		VPSRAD(U8(16), Y3, Y3) // R0
		VPSLLD(U8(16), Y5, Y4)
		VPSRAD(U8(16), Y4, Y4) // L1
		VPSRAD(U8(16), Y5, Y5) // R1
		VCVTDQ2PS(Y2, Y2)
		VCVTDQ2PS(Y3, Y3)
		VCVTDQ2PS(Y4, Y4)
		VCVTDQ2PS(Y5, Y5)
		lerp(Y2, Y4)
		lerp(Y3, Y5)
		stereo8()
		ADDQ(U32(64), RDI)
	})
	end()

	linearHead("resampleF32MonoAVX2")
	VMOVDQU(dupPairs, Y10)
	VMOVDQU(at(dupPairs, 32), Y11)
	loop("rf32m", 8, func() {
		positions()
		gather(0, 4, Y3)
		gather(4, 4, Y4)
		lerp(Y3, Y4)
		// sanitize with the constants 1 and -1 in Y4 and Y5 here: Y12
		// and Y13 hold the position constants.
		VCMPPS(U8(7), Y3, Y3, Y2)
		VANDPS(Y2, Y3, Y3)
		VBROADCASTSS(vecOne, Y4)
		VBROADCASTSS(vecNegOne, Y5)
		VMINPS(Y4, Y3, Y3)
		VMAXPS(Y5, Y3, Y3)
		mono8(Y3, Y2, Y3)
		ADDQ(U32(64), RDI)
	})
	end()

	linearHead("resampleF32StereoAVX2")
	VBROADCASTSS(vecOne, Y10)
	VBROADCASTSS(vecNegOne, Y11)
	loop("rf32s", 8, func() {
		positions()
		gather(0, 8, Y2)  // L0
		gather(4, 8, Y3)  // R0
		gather(8, 8, Y4)  // L1
		gather(12, 8, Y5) // R1
		lerp(Y2, Y4)
		lerp(Y3, Y5)
		sanitize(Y2, Y4, Y10, Y11)
		sanitize(Y3, Y4, Y10, Y11)
		stereo8()
		ADDQ(U32(64), RDI)
	})
	end()
}

// The AVX-512 linear resamplers, for upsampling: a step under one source
// frame, so 16 consecutive outputs read at most 17 consecutive frames,
// and one load of the 16 frames from the first output's, permuted, gives
// each lane its frame (another, a frame on, the frame after it). The
// AVX2 kernels gather instead, one load per lane, which on CPUs patched
// against Gather Data Sampling costs more than the rest of the loop. n is
// a multiple of 16, and src holds the 17 frames from the last group's
// first.

const linear512Sig = "func(out *[2]float32, src *byte, n int, p uint64, offs *[16]uint64, step16 uint64, gl, gr float32)"

// linear512Head loads DI out, SI src, CX n, R8 the position, R9
// 16·step, Z31 and Z30 the offsets of outputs 0-7 and 8-15 from the
// first (i·step, 32.32), Z29 2^-32, Z28 the gains (gl, gr, gl, gr, ...),
// Z25 1 and Z24 -1.
func linear512Head(name string) {
	TEXT(name, NOSPLIT, linear512Sig)
	Pragma("noescape")
	MOVQ(param("out", 0), RDI)
	MOVQ(param("src", 8), RSI)
	MOVQ(param("n", 16), RCX)
	MOVQ(param("p", 24), R8)
	MOVQ(param("offs", 32), RAX)
	VMOVDQU64(m(RAX, 0), Z31)
	VMOVDQU64(m(RAX, 64), Z30)
	MOVQ(param("step16", 40), R9)
	VBROADCASTSS(fracScale, Z29)
	VBROADCASTSS(param("gl", 48), Z28)
	VBROADCASTSS(param("gr", 52), Z0)
	MOVL(U32(0xAAAA), EAX)
	KMOVW(EAX, K3)
	VMOVAPS(Z0, K3, Z28)
	VBROADCASTSS(vecOne, Z25)
	VBROADCASTSS(vecNegOne, Z24)
}

// linPos splits the group's 16 positions: Z3 each lane's frame less the
// first lane's, Z1 its weight t (the fraction converted as the scalar
// float32(uint32) conversion rounds it, times 2^-32, exact), AX the first
// lane's frame. Then the position moves on 16 outputs.
func linPos() {
	MOVL(R8L, EAX)
	VPBROADCASTQ(RAX, Z0)
	VPADDQ(Z31, Z0, Z1)
	VPADDQ(Z30, Z0, Z2)
	VPSRLQ(U8(32), Z1, Z3)
	VPSRLQ(U8(32), Z2, Z4)
	VPMOVQD(Z3, Y3)
	VPMOVQD(Z4, Y4)
	VINSERTI64X4(U8(1), Y4, Z3, Z3)
	VPMOVQD(Z1, Y1)
	VPMOVQD(Z2, Y2)
	VINSERTI64X4(U8(1), Y2, Z1, Z1)
	VCVTUDQ2PS(Z1, Z1)
	VMULPS(Z29, Z1, Z1)
	MOVQ(R8, RAX)
	SHRQ(U8(32), RAX)
	ADDQ(R9, R8)
}

// linLerp sets a = a + (b - a)·Z1, rounded step by step as the scalar
// loops do.
func linLerp(a, b VecPhysical) {
	VSUBPS(a, b, b)
	VMULPS(Z1, b, b)
	VADDPS(b, a, a)
}

// linSan reads NaN lanes of y as 0 and clamps the rest to [-1, 1], as
// clamp does.
func linSan(y VecPhysical) {
	VCMPPS(U8(7), y, y, K1)
	VMOVAPS_Z(y, K1, y)
	VMINPS(Z25, y, y)
	VMAXPS(Z24, y, y)
}

// linOut adds frames Z6 (0-7) and Z7 (8-15), times the gains, into the
// bus and moves on 16 frames.
func linOut() {
	VMULPS(Z28, Z6, Z6)
	VMULPS(Z28, Z7, Z7)
	VADDPS(m(RDI, 0), Z6, Z6)
	VADDPS(m(RDI, 64), Z7, Z7)
	VMOVUPS(Z6, m(RDI, 0))
	VMOVUPS(Z7, m(RDI, 64))
	ADDQ(U32(128), RDI)
}

func linearAVX512() {
	linear512Head("resampleF32MonoAVX512")
	VMOVDQU32(dupPairs, Z27)
	VMOVDQU32(at(dupPairs, 64), Z26)
	loop("lfm", 16, func() {
		linPos()
		LEAQ(mi(RSI, RAX, 4, 0), RBX)
		VPERMPS(m(RBX, 0), Z3, Z5)
		VPERMPS(m(RBX, 4), Z3, Z6)
		linLerp(Z5, Z6)
		linSan(Z5)
		VPERMPS(Z5, Z27, Z6)
		VPERMPS(Z5, Z26, Z7)
		linOut()
	})
	end()

	linear512Head("resampleS16MonoAVX512")
	VMOVDQU32(dupPairs, Z27)
	VMOVDQU32(at(dupPairs, 64), Z26)
	loop("lsm", 16, func() {
		linPos()
		LEAQ(mi(RSI, RAX, 2, 0), RBX)
		VPMOVSXWD(m(RBX, 0), Z5)
		VPMOVSXWD(m(RBX, 2), Z6)
		VPERMD(Z5, Z3, Z5)
		VPERMD(Z6, Z3, Z6)
		VCVTDQ2PS(Z5, Z5)
		VCVTDQ2PS(Z6, Z6)
		linLerp(Z5, Z6)
		VPERMPS(Z5, Z27, Z6)
		VPERMPS(Z5, Z26, Z7)
		linOut()
	})
	end()

	linear512Head("resampleS16StereoAVX512")
	VMOVDQU32(zipPairs, Z27)
	VMOVDQU32(at(zipPairs, 64), Z26)
	loop("lss", 16, func() {
		linPos()
		LEAQ(mi(RSI, RAX, 4, 0), RBX)
		VPERMD(m(RBX, 0), Z3, Z5) // frame j: L | R<<16
		VPERMD(m(RBX, 4), Z3, Z6) // frame j+1
		VPSLLD(U8(16), Z5, Z7)
		VPSRAD(U8(16), Z7, Z7) // L0
		VPSRAD(U8(16), Z5, Z5) // R0
		VPSLLD(U8(16), Z6, Z8)
		VPSRAD(U8(16), Z8, Z8) // L1
		VPSRAD(U8(16), Z6, Z6) // R1
		VCVTDQ2PS(Z7, Z7)
		VCVTDQ2PS(Z5, Z5)
		VCVTDQ2PS(Z8, Z8)
		VCVTDQ2PS(Z6, Z6)
		linLerp(Z7, Z8)
		linLerp(Z5, Z6)
		VMOVAPS(Z7, Z6)
		VPERMT2PS(Z5, Z27, Z6)
		VPERMT2PS(Z5, Z26, Z7)
		linOut()
	})
	end()

	linear512Head("resampleF32StereoAVX512")
	VMOVDQU32(zipPairs, Z27)
	VMOVDQU32(at(zipPairs, 64), Z26)
	VPBROADCASTD(intOne, Z23)
	loop("lfs", 16, func() {
		linPos()
		LEAQ(mi(RSI, RAX, 8, 0), RBX)
		VPADDD(Z3, Z3, Z9)      // 2·frame: the left sample
		VPADDD(Z23, Z9, Z10)    // the right
		VMOVUPS(m(RBX, 0), Z5)  // frames 0-7
		VMOVUPS(m(RBX, 64), Z6) // frames 8-15
		VMOVUPS(m(RBX, 8), Z7)  // frames 1-8
		VMOVUPS(m(RBX, 72), Z8) // frames 9-16
		VMOVAPS(Z5, Z11)
		VPERMT2PS(Z6, Z9, Z11) // L0
		VPERMT2PS(Z6, Z10, Z5) // R0
		VMOVAPS(Z7, Z12)
		VPERMT2PS(Z8, Z9, Z12) // L1
		VPERMT2PS(Z8, Z10, Z7) // R1
		linLerp(Z11, Z12)
		linLerp(Z5, Z7)
		linSan(Z11)
		linSan(Z5)
		VMOVAPS(Z11, Z6)
		VPERMT2PS(Z5, Z27, Z6)
		VMOVAPS(Z11, Z7)
		VPERMT2PS(Z5, Z26, Z7)
		linOut()
	})
	end()
}

var _ Op = nil
