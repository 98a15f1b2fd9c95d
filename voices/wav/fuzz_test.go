package wav

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/voices"
)

var updateSeeds = flag.Bool("update-seeds", false, "rewrite testdata/fuzz/FuzzParse from the files the tests build")

// seeds are the files the committed corpus holds: every kind Parse reads
// and every kind it refuses.
func seeds() map[string][]byte {
	s := map[string][]byte{}
	for _, f := range []voices.Format{s16mono, s16stereo, f32mono, f32stereo} {
		b, err := Append(nil, f, ramp(8*f.FrameBytes()))
		if err != nil {
			panic(err)
		}
		s["valid-"+f.Encoding.String()+"-"+fmt.Sprint(f.Channels)+"ch"] = b
	}
	s["valid-ext-s16-stereo"] = riff(fmtChunk(ext(pcm16(2, 44100))), chunk{"data", ramp(16)})
	s["valid-ext-f32-mono"] = riff(fmtChunk(ext(float32fmt(1, 96000))), chunk{"data", ramp(16)})
	s["valid-odd-chunks"] = riff(chunk{"JUNK", ramp(5)}, fmtChunk(pcm16(1, 8000)), chunk{"LIST", ramp(9)},
		chunk{"data", ramp(10)}, chunk{"cue ", ramp(1)})
	for _, r := range refusals() {
		s["refused-"+strings.NewReplacer(" ", "-", "/", "-").Replace(r.name)] = r.b
	}
	return s
}

// TestFuzzSeedsCommitted keeps the committed corpus in step with seeds:
// run with -update-seeds to rewrite it.
func TestFuzzSeedsCommitted(t *testing.T) {
	testenv.FuzzSeeds(t, "FuzzParse", seeds(), *updateSeeds)
}

// FuzzParse checks that Parse never panics and that what it accepts is
// sound: the PCM is a view inside the file, whole frames of a format the
// package reads, and writing it back with Append parses the same. What it
// refuses wraps exactly one of its sentinels.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		orig := bytes.Clone(b)
		fm, data, err := Parse(b)
		if !bytes.Equal(b, orig) {
			t.Fatal("Parse wrote to its input")
		}
		if err != nil {
			n := 0
			for _, s := range []error{ErrNotWAV, ErrTruncated, ErrMalformed, ErrUnsupported} {
				if errors.Is(err, s) {
					n++
				}
			}
			if n != 1 || data != nil {
				t.Fatalf("error %v wraps %d sentinels; data %d bytes", err, n, len(data))
			}
			return
		}
		if fm.Rate <= 0 || fm.Channels < 1 || fm.Channels > 2 ||
			(fm.Encoding != voices.EncodingInt16LE && fm.Encoding != voices.EncodingFloat32LE) {
			t.Fatalf("accepted format %v", fm)
		}
		if len(data)%fm.FrameBytes() != 0 || cap(data) != len(data) {
			t.Fatalf("data of %d bytes (cap %d) is not whole %v frames", len(data), cap(data), fm)
		}
		if !within(data, b) {
			t.Fatal("data does not lie inside the file")
		}
		if fm.Validate() != nil || len(data) == 0 {
			return
		}
		again, err := Append(nil, fm, data)
		if err != nil {
			t.Fatalf("Append of what Parse returned: %v", err)
		}
		fm2, data2, err := Parse(again)
		if err != nil || fm2 != fm || !bytes.Equal(data2, data) {
			t.Fatalf("round trip: %v %v, %v", fm2, fm, err)
		}
	})
}
