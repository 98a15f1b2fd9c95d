package voices

import (
	"fmt"
	"time"
)

// Encoding is how one sample is stored. The zero Encoding is invalid. It
// is a plain value, safe to share between goroutines.
type Encoding uint8

const (
	// EncodingInt16LE is signed 16-bit little-endian PCM.
	EncodingInt16LE Encoding = iota + 1
	// EncodingFloat32LE is 32-bit IEEE float little-endian PCM in [-1, 1].
	EncodingFloat32LE
)

// String returns the encoding's name.
func (e Encoding) String() string {
	switch e {
	case EncodingInt16LE:
		return "s16le"
	case EncodingFloat32LE:
		return "f32le"
	}
	return fmt.Sprintf("encoding(%d)", uint8(e))
}

// SampleBytes returns the size of one sample, or 0 for an unknown encoding.
func (e Encoding) SampleBytes() int {
	switch e {
	case EncodingInt16LE:
		return 2
	case EncodingFloat32LE:
		return 4
	}
	return 0
}

// Format is a PCM layout: sample rate × channels × encoding, with samples
// interleaved by frame. A Format is a plain value, safe to copy and share.
type Format struct {
	Rate     int // frames per second: 8000, 11025, 16000, 22050, 32000, 44100, 48000, 88200 or 96000
	Channels int // 1 (mono) or 2 (stereo, left first)
	Encoding Encoding
}

// DefaultDeviceFormat is the format the device runs in unless configured:
// float32 stereo at 48 kHz.
var DefaultDeviceFormat = Format{Rate: 48000, Channels: 2, Encoding: EncodingFloat32LE}

// supportedRates are the rates of every pooled source format. The order
// fixes each format's index (see Format.index), and so the order of
// Stats.Formats.
var supportedRates = [...]int{8000, 11025, 16000, 22050, 32000, 44100, 48000, 88200, 96000}

// NumFormats is the number of source formats this package pools voices
// for: 9 rates × 2 channel counts × 2 encodings.
const NumFormats = len(supportedRates) * 2 * 2

// Validate returns nil if f is a format this package plays, or an error
// wrapping ErrFormat that says which field is wrong.
func (f Format) Validate() error {
	if f.index() < 0 {
		return fmt.Errorf("%w: %v (want a rate in %v, 1 or 2 channels, s16le or f32le)", ErrFormat, f, supportedRates)
	}
	return nil
}

// index returns f's position in 0..NumFormats-1, or -1 if unsupported.
func (f Format) index() int {
	r := -1
	for i, rate := range supportedRates {
		if f.Rate == rate {
			r = i
		}
	}
	if r < 0 || f.Channels < 1 || f.Channels > 2 {
		return -1
	}
	var e int
	switch f.Encoding {
	case EncodingInt16LE:
		e = 0
	case EncodingFloat32LE:
		e = 1
	default:
		return -1
	}
	return (r*2+f.Channels-1)*2 + e
}

// formatAt is the inverse of index.
func formatAt(i int) Format {
	enc := EncodingInt16LE
	if i%2 == 1 {
		enc = EncodingFloat32LE
	}
	i /= 2
	return Format{Rate: supportedRates[i/2], Channels: i%2 + 1, Encoding: enc}
}

// FrameBytes returns the size of one frame (one sample per channel).
func (f Format) FrameBytes() int { return f.Channels * f.Encoding.SampleBytes() }

// Duration returns how long frames frames play at f's rate.
func (f Format) Duration(frames int) time.Duration {
	if f.Rate <= 0 {
		return 0
	}
	return time.Duration(int64(frames) * int64(time.Second) / int64(f.Rate))
}

// String formats f as "48000Hz/2ch/f32le".
func (f Format) String() string {
	return fmt.Sprintf("%dHz/%dch/%v", f.Rate, f.Channels, f.Encoding)
}
