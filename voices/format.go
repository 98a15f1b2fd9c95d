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
	Rate     int // frames per second: any integer from MinRate to MaxRate
	Channels int // 1 (mono) or 2 (stereo, left first)
	Encoding Encoding
}

// DefaultDeviceFormat is the format the device runs in unless configured:
// float32 stereo at 48 kHz.
var DefaultDeviceFormat = Format{Rate: 48000, Channels: 2, Encoding: EncodingFloat32LE}

// The rates a Format may have, in frames per second.
const (
	MinRate = 8000
	MaxRate = 192000
)

// MaxFormats is the most source formats one engine pools voices for
// (EngineDesc.Formats), the length of Stats.Formats.
const MaxFormats = 64

// defaultRates are the rates of the default formats.
var defaultRates = [...]int{8000, 11025, 16000, 22050, 32000, 44100, 48000, 88200, 96000}

// DefaultFormats returns the source formats an engine pools unless
// EngineDesc.Formats declares others: 8000, 11025, 16000, 22050, 32000,
// 44100, 48000, 88200 and 96000 Hz, each mono and stereo, s16le and
// f32le, 36 formats, in that order (rate, then channels, then encoding).
// The slice is the caller's.
func DefaultFormats() []Format {
	fs := make([]Format, 0, len(defaultRates)*4)
	for _, r := range defaultRates {
		for ch := 1; ch <= 2; ch++ {
			fs = append(fs, Format{r, ch, EncodingInt16LE}, Format{r, ch, EncodingFloat32LE})
		}
	}
	return fs
}

// Validate returns nil if f is a format this package plays, or an error
// wrapping ErrFormat that says which field is wrong. An engine plays the
// source formats it pools (EngineDesc.Formats).
func (f Format) Validate() error {
	switch {
	case f.Rate < MinRate || f.Rate > MaxRate:
		return fmt.Errorf("%w: %v: rate %d Hz (want %d to %d)", ErrFormat, f, f.Rate, MinRate, MaxRate)
	case f.Channels < 1 || f.Channels > 2:
		return fmt.Errorf("%w: %v: %d channels (want 1 or 2)", ErrFormat, f, f.Channels)
	case f.Encoding.SampleBytes() == 0:
		return fmt.Errorf("%w: %v: encoding %v (want s16le or f32le)", ErrFormat, f, f.Encoding)
	}
	return nil
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
