package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The unity-rate mixers take any count of frames: the multiple of 8 in
// a loop, then the last n%8 from one more group. That group reads eight
// whole source frames (the Go wrapper checks the source holds them) but
// adds only the first n%8 into the bus, four, two and one frames at a
// time, so no frame past n is touched. Masked stores (VMASKMOVPS) did
// this before; on AMD's cores they cost about 8 ns a call, half of a
// rate bus member's 29-frame call at 64-frame blocks. The sinc's
// converters take a multiple of 8 frames; the Go wrappers run the scalar
// loops over the rest. The frame layout of the bus: [2]float32 per
// frame, L then R; the gain vector Y15 holds gl, gr, gl, gr, ... in
// every routine.

const unitySig = "func(out *[2]float32, src *byte, n int, gl, gr float32)"

// unityHead loads DI out, SI src, CX n and the gains.
func unityHead(name string) {
	TEXT(name, NOSPLIT, unitySig)
	Pragma("noescape")
	MOVQ(param("out", 0), RDI)
	MOVQ(param("src", 8), RSI)
	MOVQ(param("n", 16), RCX)
	gains(24)
}

// unityBody runs group, which adds eight frames through add, over the
// n&^7 frames in CX, then over the last n&7 (DX) through add8Tail.
func unityBody(name string, group func(add func(a, b VecPhysical))) {
	MOVQ(RCX, RDX)
	ANDQ(U32(7), RDX)
	ANDQ(I32(-8), RCX)
	JZ(LabelRef(name + "Tail"))
	loop(name, 8, func() { group(add8) })
	Label(name + "Tail")
	TESTQ(RDX, RDX)
	JZ(LabelRef(name + "Done"))
	group(add8Tail)
	Label(name + "Done")
	end()
}

// add8Tail is add8 for the first DX (1 to 7) of its eight frames, a
// (frames 0-3) and b (4-7): four frames from a if DX has 4, then two and
// one from what is left, each read, added in add8's order and written
// whole. X6 is scratch.
func add8Tail(a, b VecPhysical) {
	VMULPS(Y15, a, a)
	VMULPS(Y15, b, b)
	two, one, done := newLabel("ut2"), newLabel("ut1"), newLabel("utdone")
	TESTQ(U32(4), RDX)
	JZ(LabelRef(two))
	VADDPS(m(RDI, 0), a, a)
	VMOVUPS(a, m(RDI, 0))
	VMOVAPS(b, a)
	ADDQ(U8(32), RDI)
	Label(two)
	TESTQ(U32(2), RDX)
	JZ(LabelRef(one))
	xa := a.AsX()
	VADDPS(m(RDI, 0), xa, X6)
	VMOVUPS(X6, m(RDI, 0))
	VEXTRACTF128(U8(1), a, xa)
	ADDQ(U8(16), RDI)
	Label(one)
	TESTQ(U32(1), RDX)
	JZ(LabelRef(done))
	VMOVSD(m(RDI, 0), X6)
	VADDPS(X6, xa, X6)
	VMOVSD(X6, m(RDI, 0))
	Label(done)
}

func unity() {
	unityHead("mixS16MonoAVX2")
	VMOVDQU(dupPairs, Y10)
	VMOVDQU(at(dupPairs, 32), Y11)
	unityBody("ms16m", func(add func(a, b VecPhysical)) {
		VPMOVSXWD(m(RSI, 0), Y0)
		VCVTDQ2PS(Y0, Y0)
		VPERMPS(Y0, Y10, Y1)
		VPERMPS(Y0, Y11, Y2)
		add(Y1, Y2)
		ADDQ(U32(16), RSI)
		ADDQ(U32(64), RDI)
	})

	unityHead("mixS16StereoAVX2")
	unityBody("ms16s", func(add func(a, b VecPhysical)) {
		VPMOVSXWD(m(RSI, 0), Y0)
		VPMOVSXWD(m(RSI, 16), Y1)
		VCVTDQ2PS(Y0, Y0)
		VCVTDQ2PS(Y1, Y1)
		add(Y0, Y1)
		ADDQ(U32(32), RSI)
		ADDQ(U32(64), RDI)
	})

	unityHead("mixF32MonoAVX2")
	VMOVDQU(dupPairs, Y10)
	VMOVDQU(at(dupPairs, 32), Y11)
	VBROADCASTSS(vecOne, Y13)
	VBROADCASTSS(vecNegOne, Y12)
	unityBody("mf32m", func(add func(a, b VecPhysical)) {
		VMOVUPS(m(RSI, 0), Y0)
		sanitize(Y0, Y3, Y13, Y12)
		VPERMPS(Y0, Y10, Y1)
		VPERMPS(Y0, Y11, Y2)
		add(Y1, Y2)
		ADDQ(U32(32), RSI)
		ADDQ(U32(64), RDI)
	})

	unityHead("mixF32StereoAVX2")
	VBROADCASTSS(vecOne, Y13)
	VBROADCASTSS(vecNegOne, Y12)
	unityBody("mf32s", func(add func(a, b VecPhysical)) {
		VMOVUPS(m(RSI, 0), Y0)
		VMOVUPS(m(RSI, 32), Y1)
		sanitize(Y0, Y3, Y13, Y12)
		sanitize(Y1, Y4, Y13, Y12)
		add(Y0, Y1)
		ADDQ(U32(64), RSI)
		ADDQ(U32(64), RDI)
	})
}

// converters fill the sinc's planes: 16-bit samples as floats, unscaled;
// float32 samples sanitized; stereo split into a plane per channel, the
// right one roff bytes after the left.
func converters() {
	TEXT("s16ToFloatAVX2", NOSPLIT, "func(dst *float32, src *byte, n int)")
	Pragma("noescape")
	MOVQ(param("dst", 0), RDI)
	MOVQ(param("src", 8), RSI)
	MOVQ(param("n", 16), RCX)
	loop("cvm", 8, func() {
		VPMOVSXWD(m(RSI, 0), Y0)
		VCVTDQ2PS(Y0, Y0)
		VMOVUPS(Y0, m(RDI, 0))
		ADDQ(U32(16), RSI)
		ADDQ(U32(32), RDI)
	})
	end()

	TEXT("s16SplitAVX2", NOSPLIT, "func(l *float32, roff int, src *byte, n int)")
	Pragma("noescape")
	MOVQ(param("l", 0), RDI)
	MOVQ(param("roff", 8), RAX)
	MOVQ(param("src", 16), RSI)
	MOVQ(param("n", 24), RCX)
	loop("cvs", 8, func() {
		VMOVDQU(m(RSI, 0), Y0) // eight frames: L | R<<16
		VPSLLD(U8(16), Y0, Y1)
		VPSRAD(U8(16), Y1, Y1)
		VPSRAD(U8(16), Y0, Y0)
		VCVTDQ2PS(Y1, Y1)
		VCVTDQ2PS(Y0, Y0)
		VMOVUPS(Y1, m(RDI, 0))
		VMOVUPS(Y0, mi(RDI, RAX, 1, 0))
		ADDQ(U32(32), RSI)
		ADDQ(U32(32), RDI)
	})
	end()

	TEXT("f32PlaneAVX2", NOSPLIT, "func(dst *float32, src *byte, n int)")
	Pragma("noescape")
	Doc("f32PlaneAVX2 sanitizes n float32 samples into dst: NaN as 0, the rest clamped to [-1, 1], as clamp does.")
	MOVQ(param("dst", 0), RDI)
	MOVQ(param("src", 8), RSI)
	MOVQ(param("n", 16), RCX)
	VBROADCASTSS(vecOne, Y13)
	VBROADCASTSS(vecNegOne, Y12)
	loop("cfm", 8, func() {
		VMOVUPS(m(RSI, 0), Y0)
		sanitize(Y0, Y1, Y13, Y12)
		VMOVUPS(Y0, m(RDI, 0))
		ADDQ(U32(32), RSI)
		ADDQ(U32(32), RDI)
	})
	end()

	stereoSplit("f32SplitAVX2", "*byte", "f32SplitAVX2 splits n stereo frames into the planes, sanitized as f32PlaneAVX2 does.", true)
	stereoSplit("framesSplitAVX2", "*[2]float32", "framesSplitAVX2 splits n frames of a stereo mix into the planes, unchanged: Kernels.Deinterleave.", false)
}

// stereoSplit writes a routine that splits n stereo f32 frames at src
// (of Go type srcType) into the planes l and l+roff, eight at a time,
// each sample sanitized (clamped, NaN read as 0) if clamp.
func stereoSplit(name, srcType, doc string, clamp bool) {
	TEXT(name, NOSPLIT, "func(l *float32, roff int, src "+srcType+", n int)")
	Pragma("noescape")
	Doc(doc)
	MOVQ(param("l", 0), RDI)
	MOVQ(param("roff", 8), RAX)
	MOVQ(param("src", 16), RSI)
	MOVQ(param("n", 24), RCX)
	if clamp {
		VBROADCASTSS(vecOne, Y13)
		VBROADCASTSS(vecNegOne, Y12)
	}
	loop(map[bool]string{true: "cfs", false: "cfx"}[clamp], 8, func() {
		VMOVUPS(m(RSI, 0), Y0)
		VMOVUPS(m(RSI, 32), Y1)
		if clamp {
			sanitize(Y0, Y4, Y13, Y12)
			sanitize(Y1, Y5, Y13, Y12)
		}
		VSHUFPS(U8(0x88), Y1, Y0, Y2) // L0 L1 L4 L5 | L2 L3 L6 L7
		VSHUFPS(U8(0xDD), Y1, Y0, Y3)
		VPERMPD(U8(0xD8), Y2, Y2)
		VPERMPD(U8(0xD8), Y3, Y3)
		VMOVUPS(Y2, m(RDI, 0))
		VMOVUPS(Y3, mi(RDI, RAX, 1, 0))
		ADDQ(U32(64), RSI)
		ADDQ(U32(32), RDI)
	})
	end()
}
