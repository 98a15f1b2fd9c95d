// The A64 vector instructions Go's arm64 assembler does not spell, as
// WORDs, for the NEON kernels of mix_arm64.s, linear_arm64.s and
// split_arm64.s. Arguments are register numbers (d, n, m for Vd, Vn, Vm);
// every float operation is on four float32 lanes (4S), separately
// rounded. There is deliberately no FMLA here: the scalar reference
// rounds each product before adding it, and a fused multiply-add would
// round once.

// FADD4 sets Vd = Vn + Vm, FSUB4 Vd = Vn - Vm, FMUL4 Vd = Vn × Vm.
#define FADD4(d, n, m) WORD $(0x4E20D400 | ((m)<<16) | ((n)<<5) | (d))
#define FSUB4(d, n, m) WORD $(0x4EA0D400 | ((m)<<16) | ((n)<<5) | (d))
#define FMUL4(d, n, m) WORD $(0x6E20DC00 | ((m)<<16) | ((n)<<5) | (d))

// FMAX4 and FMIN4 set Vd to the larger or smaller of Vn and Vm (NaN if
// either is NaN); FCMEQ4 sets each lane of Vd to all ones where Vn = Vm,
// else zero (so FCMEQ4(d, n, n) marks the lanes that are not NaN).
#define FMAX4(d, n, m) WORD $(0x4E20F400 | ((m)<<16) | ((n)<<5) | (d))
#define FMIN4(d, n, m) WORD $(0x4EA0F400 | ((m)<<16) | ((n)<<5) | (d))
#define FCMEQ4(d, n, m) WORD $(0x4E20E400 | ((m)<<16) | ((n)<<5) | (d))

// SCVTF4 and UCVTF4 convert four int32 or uint32 lanes of Vn to float32,
// rounded to nearest as Go's float32(x) rounds.
#define SCVTF4(d, n) WORD $(0x4E21D800 | ((n)<<5) | (d))
#define UCVTF4(d, n) WORD $(0x6E21D800 | ((n)<<5) | (d))

// SXTL4 sign-extends the lower four int16 lanes of Vn to int32, SXTL4HI
// the upper four (SSHLL and SSHLL2 by 0).
#define SXTL4(d, n) WORD $(0x0F10A400 | ((n)<<5) | (d))
#define SXTL4HI(d, n) WORD $(0x4F10A400 | ((n)<<5) | (d))

// AND16 sets Vd = Vn & Vm, bit by bit.
#define AND16(d, n, m) WORD $(0x4E201C00 | ((m)<<16) | ((n)<<5) | (d))

// SSHR16 shifts each int32 lane of Vn right by 16, arithmetically.
#define SSHR16(d, n) WORD $(0x4F300400 | ((n)<<5) | (d))

// FMOV4ONE and FMOV4MINUSONE set every lane of Vd to 1 or -1.
#define FMOV4ONE(d) WORD $(0x4F03F600 | (d))
#define FMOV4MINUSONE(d) WORD $(0x4F07F600 | (d))

// CLAMP4 is clamp (convert.go) on the four lanes of Vv, with V28 = -1,
// V29 = 1 and Vt scratch: NaN becomes +0, the rest is limited to [-1, 1].
// A lane clamp would leave alone comes out with its bits (-0, denormals,
// ±1 included), and one it would change comes out as Sanitize returns it.
#define CLAMP4(v, t) \
	FCMEQ4(t, v, v) \
	AND16(v, v, t) \
	FMAX4(v, v, 28) \
	FMIN4(v, v, 29)
