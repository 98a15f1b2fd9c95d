package flac

import (
	"crypto/md5"
	"encoding/binary"
	"hash"
	"math"
	"slices"

	"github.com/mewkiz/flac/frame"
)

// appendFrame appends n frames of the subframes' samples, interleaved, as
// 16-bit integers (bps ≤ 16, shifted up to full scale) or 32-bit floats
// in [-1, 1] (bps > 16). A valid stream's samples fit bps bits; a hostile
// one's are clamped, so that they cannot wrap round into a loud click.
func appendFrame(pcm []byte, sub []*frame.Subframe, n, bps int) []byte {
	ch := len(sub)
	le := binary.LittleEndian
	if bps <= 16 {
		off := len(pcm)
		pcm = slices.Grow(pcm, n*ch*2)[:off+n*ch*2]
		out := pcm[off:]
		shift := 16 - bps
		lo, hi := int32(-1)<<(bps-1), int32(1)<<(bps-1)-1
		for c, sf := range sub {
			for i, v := range sf.Samples[:n] {
				v = min(max(v, lo), hi) << shift
				le.PutUint16(out[2*(i*ch+c):], uint16(int16(v)))
			}
		}
		return pcm
	}
	off := len(pcm)
	pcm = slices.Grow(pcm, n*ch*4)[:off+n*ch*4]
	out := pcm[off:]
	// A power of two: the scaling itself is exact, so 24-bit samples
	// come out exact; 32-bit ones round to float32's 24-bit mantissa.
	scale := float32(1 / math.Exp2(float64(bps-1)))
	for c, sf := range sub {
		for i, v := range sf.Samples[:n] {
			x := min(max(float32(v)*scale, -1), 1)
			le.PutUint32(out[4*(i*ch+c):], math.Float32bits(x))
		}
	}
	return pcm
}

// md5Hasher computes a FLAC stream's MD5 signature: the MD5 of its
// samples, interleaved, each signed little endian in (bps+7)/8 bytes.
// mewkiz/flac's Frame.Hash skips samples past 24 bits, so this one does
// the whole range itself.
type md5Hasher struct {
	h     hash.Hash
	width int
	buf   []byte
}

func newMD5Hasher(bps int) *md5Hasher {
	return &md5Hasher{h: md5.New(), width: (bps + 7) / 8}
}

func (m *md5Hasher) add(sub []*frame.Subframe, n int) {
	m.buf = slices.Grow(m.buf[:0], n*len(sub)*m.width)
	for i := range n {
		for _, sf := range sub {
			v := sf.Samples[i]
			for b := range m.width {
				m.buf = append(m.buf, byte(v>>(8*b)))
			}
		}
	}
	m.h.Write(m.buf)
}

func (m *md5Hasher) sum() [md5.Size]byte {
	var s [md5.Size]byte
	m.h.Sum(s[:0])
	return s
}
