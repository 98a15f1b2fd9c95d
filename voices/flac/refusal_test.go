package flac

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/voices"
)

// STREAMINFO's body starts after "fLaC" and its 4-byte block header; its
// bytes 10..17 hold rate (20 bits), channels-1 (3), depth-1 (5) and the
// sample count (36), big endian, then 16 bytes of MD5.
const siBody = 8

// withSamples returns a copy of b whose STREAMINFO declares n samples.
func withSamples(b []byte, n uint64) []byte {
	b = bytes.Clone(b)
	at := b[siBody+10:]
	v := binary.BigEndian.Uint64(at)
	binary.BigEndian.PutUint64(at, v&^(1<<36-1)|n)
	return b
}

// withRate returns a copy of b whose STREAMINFO gives rate.
func withRate(b []byte, rate uint32) []byte {
	b = bytes.Clone(b)
	at := b[siBody+10:]
	v := binary.BigEndian.Uint64(at)
	binary.BigEndian.PutUint64(at, v&^((1<<20-1)<<44)|uint64(rate)<<44)
	return b
}

func flip(b []byte, offs ...int) []byte {
	b = bytes.Clone(b)
	for _, o := range offs {
		b[o] ^= 0xFF
	}
	return b
}

type failingReader struct{ err error }

func (r failingReader) Read([]byte) (int, error) { return 0, r.err }

func TestDecodeRefuses(t *testing.T) {
	s16 := readFile(t, "tone-s16-stereo-22050.flac")
	audio := metadataEnd(t, s16)
	boom := errors.New("disk on fire")
	for _, c := range []struct {
		name  string
		r     io.Reader
		limit int
		want  error
		says  string
	}{
		{"empty", bytes.NewReader(nil), 0, ErrMalformed, "empty input"},
		{"not FLAC", strings.NewReader("RIFF....WAVEfmt "), 0, ErrMalformed, "invalid FLAC signature"},
		{"3 channels", bytes.NewReader(readFile(t, "three-channels-22050.flac")), 0, ErrUnsupported, "3 channels"},
		{"32-bit", bytes.NewReader(readFile(t, "tone-s32-mono-48000.flac")), 0, ErrUnsupported, "32-bit"},
		{"header cut", bytes.NewReader(s16[:20]), 0, ErrTruncated, "the input ends in the header"},
		{"frame cut", bytes.NewReader(s16[:len(s16)-100]), 0, ErrTruncated, "the input ends in the frame after sample"},
		{"cut at a frame", bytes.NewReader(s16[:audio]), 0, ErrTruncated, "after 0 of the 2205 samples"},
		{"declares fewer", bytes.NewReader(withSamples(s16, 1000)), 0, ErrMalformed, "more samples than the 1000"},
		{"declares too many", bytes.NewReader(withSamples(s16, 1<<35)), 0, ErrTooLarge, "declares 34359738368 samples"},
		{"past the limit", bytes.NewReader(s16), 8000, ErrTooLarge, "8820 bytes of 22050Hz/2ch/s16le PCM, past the 8000-byte limit"},
		{"past the limit, unknown length", bytes.NewReader(withSamples(s16, 0)), 8000, ErrTooLarge, "more than 8000 bytes"},
		{"MD5", bytes.NewReader(flip(s16, siBody+20)), 0, ErrMalformed, "MD5"},
		{"CRC", bytes.NewReader(flip(s16, len(s16)-300)), 0, ErrMalformed, "CRC"},
		{"rate contradicts", bytes.NewReader(withRate(s16, 44100)), 0, ErrMalformed, "22050 Hz in a 44100 Hz stream"},
		{"rate 0", bytes.NewReader(withRate(s16, 0)), 0, ErrMalformed, "invalid sample rate"},
		{"read error", io.MultiReader(bytes.NewReader(s16[:500]), failingReader{boom}), 0, ErrRead, "disk on fire"},
	} {
		f, pcm, err := DecodeLimit(c.r, c.limit)
		if !errors.Is(err, c.want) || !strings.HasPrefix(err.Error(), "flac: ") || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want %v saying %q", c.name, err, c.want, c.says)
		}
		if pcm != nil || f != (voices.Format{}) {
			t.Errorf("%s: refused, yet returned %v and %d bytes", c.name, f, len(pcm))
		}
		if c.want == ErrRead && !errors.Is(err, boom) {
			t.Errorf("%s: %v does not wrap the reader's error", c.name, err)
		}
	}
}

// TestLyingLengthBounded checks a stream declaring far more samples than
// it holds reserves at most maxPrealloc before it is found out.
func TestLyingLengthBounded(t *testing.T) {
	in := withSamples(readFile(t, "tone-s16-stereo-22050.flac"), 60<<20) // 240 MiB of PCM, under MaxBytes
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, err := Decode(bytes.NewReader(in))
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTruncated) {
		t.Errorf("err = %v, want ErrTruncated", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > maxPrealloc+4<<20 {
		t.Errorf("a %d-byte stream claiming 240 MiB made Decode allocate %d bytes", len(in), n)
	}
}

type panickingReader struct{}

func (panickingReader) Read([]byte) (int, error) { panic("reader bug") }

// TestReaderPanicPropagates checks the recover that guards against the
// decoder's panics does not hide a panic of the caller's own reader.
func TestReaderPanicPropagates(t *testing.T) {
	defer func() {
		if p := recover(); p != "reader bug" {
			t.Errorf("recovered %v, want the reader's panic", p)
		}
	}()
	_, _, err := Decode(panickingReader{})
	t.Errorf("Decode returned %v instead of letting the reader's panic through", err)
}

// TestTrailingTagIgnored checks bytes after the declared samples, such as
// an ID3v1 tag, are not read as frames.
func TestTrailingTagIgnored(t *testing.T) {
	tf := toneFiles[0]
	in := append(bytes.Clone(readFile(t, tf.name)), "TAG"+strings.Repeat("\x00", 125)...)
	f, pcm, err := Decode(bytes.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	checkTone(t, tf, f, pcm)
	// Without a declared length the tag is read as a frame and refused.
	if _, _, err := Decode(bytes.NewReader(withSamples(in, 0))); !errors.Is(err, ErrMalformed) {
		t.Errorf("unknown length and a trailing tag: %v, want ErrMalformed", err)
	}
}
