package mp3

import (
	"bytes"
	"errors"
	"flag"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

var updateSeeds = flag.Bool("update-seeds", false, "rewrite testdata/fuzz/FuzzDecode from the files the tests build")

// fuzzLimit keeps each fuzz run's memory small; the limit's own checks
// are what the fuzzer should reach, not the default's 256 MiB.
const fuzzLimit = 1 << 22

// seeds are the committed corpus: each kind of stream Decode reads, cut
// short, refused, or hostile.
func seeds(t testing.TB) map[string][]byte {
	mpeg1 := readFile(t, "tone-1k-44100-mono.mp3")
	mpeg2 := readFile(t, "tone-1k-22050-mono.mp3")
	return map[string][]byte{
		"mpeg1":                    mpeg1,
		"mpeg2":                    mpeg2,
		"mpeg2.5":                  readFile(t, "tone-1k-11025-mono.mp3"),
		"mpeg1-half":               mpeg1[:len(mpeg1)/2],
		"mpeg2-head":               mpeg2[:300],
		"mpeg1-no-xing":            mpeg1[208:], // from the second frame: no LAME info frame
		"id3-small":                append([]byte("ID3\x04\x00\x00\x00\x00\x00\x04abcd"), mpeg1...),
		"id3-huge":                 []byte("ID3\x04\x00\x00\xff\xff\xff\xff"),
		"id3-short":                []byte("ID3\x04\x00"),
		"tag-v1":                   append(append([]byte("TAG"), make([]byte, 125)...), mpeg2...),
		"empty":                    {},
		"text":                     []byte("not an mp3 file, just words"),
		"sync-garbage":             []byte("\xff\xfb\x90\x00" + string(make([]byte, 100))),
		"free-format":              []byte("\xff\xfb\x00\x00" + string(make([]byte, 100))),
		"layer2":                   []byte("\xff\xfd\x90\x00" + string(make([]byte, 400))),
		"mpeg1-bitflip-body":       flip(mpeg1, 900, 1300, 1700),
		"panic-mpeg2-scalefactors": []byte(panicScalefactors),
	}
}

// flip returns a copy of b with the bytes at offs inverted.
func flip(b []byte, offs ...int) []byte {
	c := bytes.Clone(b)
	for _, o := range offs {
		c[o] ^= 0xff
	}
	return c
}

// TestFuzzSeedsCommitted keeps the committed corpus in step with seeds:
// run with -update-seeds to rewrite it.
func TestFuzzSeedsCommitted(t *testing.T) {
	testenv.FuzzSeeds(t, "FuzzDecode", seeds(t), *updateSeeds)
}

// mpegRates are the rates of the MPEG versions go-mp3 decodes.
var mpegRates = map[int]bool{32000: true, 44100: true, 48000: true, 16000: true, 22050: true, 24000: true}

// FuzzDecode checks Decode never lets a panic out, stays within its limit,
// and returns either whole stereo frames at an MPEG rate or an error that
// wraps exactly one sentinel.
func FuzzDecode(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		fm, pcm, err := DecodeLimit(bytes.NewReader(b), fuzzLimit)
		if err != nil {
			n := 0
			for _, s := range []error{ErrRead, ErrMalformed, ErrUnsupported, ErrTooLarge} {
				if errors.Is(err, s) {
					n++
				}
			}
			if n != 1 || pcm != nil {
				t.Fatalf("error %v wraps %d sentinels; pcm %d bytes", err, n, len(pcm))
			}
			return
		}
		if !mpegRates[fm.Rate] || fm.Channels != 2 || fm.Encoding != format.Encoding {
			t.Fatalf("format %v", fm)
		}
		if len(pcm) == 0 || len(pcm)%4 != 0 || len(pcm) > fuzzLimit {
			t.Fatalf("%d bytes of PCM", len(pcm))
		}
	})
}
