package flac

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"testing"

	"github.com/steadyframe/steadyframe/internal/pcmcheck"
	"github.com/steadyframe/steadyframe/voices"
)

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// tone is sample i of a sine of hz at amp of full scale, as a bps-bit
// integer: the samples testdata/gen.go encoded.
func tone(hz, amp float64, rate, bps, i int) int32 {
	full := math.Exp2(float64(bps-1)) - 1
	return int32(math.Round(amp * full * math.Sin(2*math.Pi*hz*float64(i)/float64(rate))))
}

// sample returns channel c of frame i of pcm in f, scaled back to a
// bps-bit integer, and as a float in [-1, 1).
func sample(f voices.Format, pcm []byte, bps, i, c int) (int32, float32) {
	at := (i*f.Channels + c) * f.Encoding.SampleBytes()
	if f.Encoding == voices.EncodingInt16LE {
		v := int16(binary.LittleEndian.Uint16(pcm[at:]))
		return int32(v) >> (16 - bps), float32(v) / 32768
	}
	x := math.Float32frombits(binary.LittleEndian.Uint32(pcm[at:]))
	return int32(math.Round(float64(x) * math.Exp2(float64(bps-1)))), x
}

type toneFile struct {
	name   string
	format voices.Format
	bps    int
	hz     []float64 // per channel
	amp    []float64
}

var toneFiles = []toneFile{
	{"tone-s16-stereo-22050.flac", voices.Format{Rate: 22050, Channels: 2, Encoding: voices.EncodingInt16LE}, 16, []float64{1000, 500}, []float64{0.5, 0.25}},
	{"tone-s24-mono-44100.flac", voices.Format{Rate: 44100, Channels: 1, Encoding: voices.EncodingFloat32LE}, 24, []float64{1000}, []float64{0.5}},
	{"tone-s8-mono-22050.flac", voices.Format{Rate: 22050, Channels: 1, Encoding: voices.EncodingInt16LE}, 8, []float64{1000}, []float64{0.5}},
}

// checkTone checks pcm holds exactly 0.1 s of tf's tones: every sample
// within 1 LSB (at the file's depth) of what was encoded, and each
// channel measuring at its frequency and level.
func checkTone(t *testing.T, tf toneFile, f voices.Format, pcm []byte) {
	t.Helper()
	if f != tf.format {
		t.Errorf("%s: format %v, want %v", tf.name, f, tf.format)
	}
	frames := f.Rate / 10
	if len(pcm) != frames*f.FrameBytes() {
		t.Fatalf("%s: %d bytes, want %d frames of %d bytes", tf.name, len(pcm), frames, f.FrameBytes())
	}
	for c := range f.Channels {
		x := make([]float32, frames)
		for i := range frames {
			v, fl := sample(f, pcm, tf.bps, i, c)
			x[i] = fl
			if want := tone(tf.hz[c], tf.amp[c], f.Rate, tf.bps, i); v < want-1 || v > want+1 {
				t.Fatalf("%s: channel %d frame %d is %d, want %d", tf.name, c, i, v, want)
			}
		}
		if hz := pcmcheck.Frequency(x, f.Rate); math.Abs(hz-tf.hz[c]) > 1 {
			t.Errorf("%s: channel %d at %.2f Hz, want %v", tf.name, c, hz, tf.hz[c])
		}
		if p := pcmcheck.Peak(x); math.Abs(p-tf.amp[c]) > 0.01 {
			t.Errorf("%s: channel %d peaks at %.4f, want %v", tf.name, c, p, tf.amp[c])
		}
	}
}

func TestDecodeTones(t *testing.T) {
	for _, tf := range toneFiles {
		f, pcm, err := Decode(bytes.NewReader(readFile(t, tf.name)))
		if err != nil {
			t.Fatalf("%s: %v", tf.name, err)
		}
		checkTone(t, tf, f, pcm)
		if cap(pcm) != len(pcm) {
			t.Errorf("%s: capacity %d for %d bytes: the buffer was not sized from STREAMINFO", tf.name, cap(pcm), len(pcm))
		}
	}
}

// metadataEnd returns the offset of the first frame: past "fLaC" and
// every metadata block.
func metadataEnd(t *testing.T, b []byte) int {
	off := 4
	for {
		if off+4 > len(b) {
			t.Fatal("metadata runs past the file")
		}
		last := b[off]&0x80 != 0
		off += 4 + int(b[off+1])<<16 | int(b[off+2])<<8 | int(b[off+3])
		if last {
			return off
		}
	}
}

// crc8 and crc16 are FLAC's header and frame checksums (polynomials 0x07
// and 0x8005, MSB first, initial value 0).
func crc8(b []byte) byte {
	var c byte
	for _, x := range b {
		c ^= x
		for range 8 {
			if c&0x80 != 0 {
				c = c<<1 ^ 0x07
			} else {
				c <<= 1
			}
		}
	}
	return c
}

func crc16(b []byte) uint16 {
	var c uint16
	for _, x := range b {
		c ^= uint16(x) << 8
		for range 8 {
			if c&0x8000 != 0 {
				c = c<<1 ^ 0x8005
			} else {
				c <<= 1
			}
		}
	}
	return c
}

// TestSampleSizeFromStreamInfo rewrites the 24-bit file's only frame
// header to leave its sample size to STREAMINFO (code 000, as libFLAC
// writes for depths without a code of their own, such as 4 or 28 bits),
// which mewkiz/flac alone would decode as 0 bits. It must decode the same.
func TestSampleSizeFromStreamInfo(t *testing.T) {
	tf := toneFiles[1]
	b := bytes.Clone(readFile(t, tf.name))
	h := metadataEnd(t, b)
	if b[h] != 0xFF || b[h+1] != 0xF8 || b[h+4] != 0 {
		t.Fatalf("no fixed-block frame 0 header at %d: % x", h, b[h:h+6])
	}
	n := 5 // sync, block size and rate, channels and depth, frame number 0
	switch b[h+2] >> 4 {
	case 6:
		n++
	case 7:
		n += 2
	}
	switch b[h+2] & 0x0F {
	case 12:
		n++
	case 13, 14:
		n += 2
	}
	if depth := b[h+3] >> 1 & 7; depth != 6 {
		t.Fatalf("frame header gives depth code %03b, want 110 (24 bits)", depth)
	}
	b[h+3] &^= 7 << 1
	b[h+n] = crc8(b[h : h+n])
	binary.BigEndian.PutUint16(b[len(b)-2:], crc16(b[h:len(b)-2]))

	f, pcm, err := Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	checkTone(t, tf, f, pcm)
}
