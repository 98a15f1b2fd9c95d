package dsp

// Frame is one stereo frame of the mix bus, left then right. Typing the
// bus as frames rather than interleaved floats lets the inner loops index
// both channels without bounds checks. It is a plain value.
type Frame [2]float32

// Kind selects a source's decoder: its encoding and channel count. It is
// fixed per voice pool, so starting a voice configures nothing. A plain
// value.
type Kind uint8

// The source kinds, in the order the kernel tables index them.
const (
	KindS16Mono Kind = iota
	KindS16Stereo
	KindF32Mono
	KindF32Stereo
)

// kindFrameBytes is the size of one source frame of each kind.
var kindFrameBytes = [...]int{KindS16Mono: 2, KindS16Stereo: 4, KindF32Mono: 4, KindF32Stereo: 8}

var kindNames = [...]string{KindS16Mono: "s16 mono", KindS16Stereo: "s16 stereo", KindF32Mono: "f32 mono", KindF32Stereo: "f32 stereo"}

// FrameBytes returns the size of one source frame of kind k.
func (k Kind) FrameBytes() int { return kindFrameBytes[k] }

// Stereo reports whether a source of kind k has two channels.
func (k Kind) Stereo() bool { return k == KindS16Stereo || k == KindF32Stereo }

// String returns the kind's name, such as "s16 mono".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(?)"
}

// FracOne is 1.0 in the 32.32 fixed-point source position.
const FracOne = 1 << 32

// Frac returns the interpolation weight of the next source frame: the
// fraction of the 32.32 position p.
func Frac(p uint64) float32 { return frac(p) }
