package flac

import (
	"bytes"
	"errors"
	"flag"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/voices"
)

var updateSeeds = flag.Bool("update-seeds", false, "rewrite testdata/fuzz/FuzzDecode from the files the tests build")

// fuzzLimit keeps each fuzz run's memory small: a declared length is
// trusted only up to the limit, so the fuzzer meets the limit's checks
// rather than 32 MiB buffers.
const fuzzLimit = 1 << 20

// seeds are the committed corpus: each kind of stream Decode reads, cut
// short, refused, or hostile.
func seeds(t *testing.T) map[string][]byte {
	s16 := readFile(t, "tone-s16-stereo-22050.flac")
	s8 := readFile(t, "tone-s8-mono-22050.flac")
	return map[string][]byte{
		"s16-stereo":      s16,
		"s8-mono":         s8,
		"s24-mono":        readFile(t, "tone-s24-mono-44100.flac"),
		"s32-mono":        readFile(t, "tone-s32-mono-48000.flac"),
		"three-channels":  readFile(t, "three-channels-22050.flac"),
		"s16-header-only": s16[:metadataEnd(t, s16)],
		"s16-cut":         s16[:len(s16)/2],
		"s8-cut-header":   s8[:30],
		"s16-unknown-len": withSamples(s16, 0),
		"s16-huge-len":    withSamples(s16, 1<<36-1),
		"s8-lying-len":    withSamples(s8, 1<<24),
		"s16-bad-crc":     flip(s16, len(s16)-300),
		"s16-bad-md5":     flip(s16, siBody+20),
		"s16-rate-44100":  withRate(s16, 44100),
		"id3-prefix":      append([]byte("ID3\x04\x00\x00\x00\x00\x00\x04abcd"), s8...),
		"id3-huge":        append([]byte("ID3\x04\x00\x00\x7f\x7f\x7f\x7f"), s8...),
		"empty":           {},
		"text":            []byte("fLaC but not really a stream"),
		"only-magic":      []byte("fLaC"),
	}
}

// TestFuzzSeedsCommitted keeps the committed corpus in step with seeds:
// run with -update-seeds to rewrite it.
func TestFuzzSeedsCommitted(t *testing.T) {
	testenv.FuzzSeeds(t, "FuzzDecode", seeds(t), *updateSeeds)
}

// FuzzDecode checks Decode never lets a panic out, stays within its limit,
// and returns either whole frames of mono or stereo PCM in the encoding
// the depth calls for, or an error that wraps exactly one sentinel.
func FuzzDecode(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		fm, pcm, err := DecodeLimit(bytes.NewReader(b), fuzzLimit)
		if err != nil {
			n := 0
			for _, s := range []error{ErrRead, ErrMalformed, ErrTruncated, ErrUnsupported, ErrTooLarge} {
				if errors.Is(err, s) {
					n++
				}
			}
			if n != 1 || pcm != nil {
				t.Fatalf("error %v wraps %d sentinels; pcm %d bytes", err, n, len(pcm))
			}
			return
		}
		if fm.Rate <= 0 || fm.Channels < 1 || fm.Channels > 2 ||
			(fm.Encoding != voices.EncodingInt16LE && fm.Encoding != voices.EncodingFloat32LE) {
			t.Fatalf("format %v", fm)
		}
		if len(pcm) == 0 || len(pcm)%fm.FrameBytes() != 0 || len(pcm) > fuzzLimit {
			t.Fatalf("%d bytes of %v PCM", len(pcm), fm)
		}
	})
}
