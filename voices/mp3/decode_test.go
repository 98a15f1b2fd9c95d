package mp3

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"os"
	"runtime"
	"strings"
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

func readTone(t testing.TB) []byte { return readFile(t, "tone-1k-44100-mono.mp3") }

// channels splits 16-bit stereo into two float channels in [-1, 1).
func channels(pcm []byte) (l, r []float32) {
	n := len(pcm) / 4
	l, r = make([]float32, n), make([]float32, n)
	for i := range n {
		l[i] = float32(int16(binary.LittleEndian.Uint16(pcm[4*i:]))) / 32768
		r[i] = float32(int16(binary.LittleEndian.Uint16(pcm[4*i+2:]))) / 32768
	}
	return l, r
}

// TestDecodeTone decodes the committed tones, 0.25 s of 1 kHz at half
// scale, mono, in MPEG-1 and MPEG-2, and checks what comes out is that
// tone, after the encoder's and decoder's delay.
func TestDecodeTone(t *testing.T) {
	for _, c := range []struct {
		file    string
		rate    int
		granule int // frames per MP3 frame
		delay   int // frames before the tone starts: measured against lame --decode
	}{
		{"tone-1k-44100-mono.mp3", 44100, 1152, 2257},
		{"tone-1k-22050-mono.mp3", 22050, 576, 1681},
	} {
		f, pcm, err := Decode(bytes.NewReader(readFile(t, c.file)))
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if want := (voices.Format{Rate: c.rate, Channels: 2, Encoding: voices.EncodingInt16LE}); f != want {
			t.Errorf("%s: format %v, want %v", c.file, f, want)
		}
		tone := c.rate / 4
		frames := len(pcm) / 4
		if frames < c.delay+tone || frames > c.delay+tone+2*c.granule || len(pcm)%4 != 0 {
			t.Errorf("%s: %d bytes (%d frames), want %d frames of delay and tone and a little padding", c.file, len(pcm), frames, c.delay+tone)
		}
		if cap(pcm) != len(pcm) {
			t.Errorf("%s: buffer capacity %d for %d bytes: it was not sized from the frame headers", c.file, cap(pcm), len(pcm))
		}
		l, r := channels(pcm)
		for i := range l {
			if l[i] != r[i] {
				t.Fatalf("%s: frame %d: left %v, right %v; a mono file should decode to equal channels", c.file, i, l[i], r[i])
			}
		}
		mid := l[c.delay+200 : c.delay+tone-200]
		if hz := pcmcheck.Frequency(mid, f.Rate); hz < 999 || hz > 1001 {
			t.Errorf("%s: tone at %.2f Hz, want 1000", c.file, hz)
		}
		// LAME lowers a half-scale sine by about 0.45 dB (RMS 0.336, as
		// lame --decode also measures), within the 1 dB allowed here.
		if rms, want := pcmcheck.RMS(mid), 0.5/math.Sqrt2; rms < want*0.89 || rms > want*1.01 {
			t.Errorf("%s: RMS %.3f, want %.3f (half scale) less at most 1 dB", c.file, rms, want)
		}
		if lead := pcmcheck.Peak(l[:c.delay-600]); lead > 0.01 {
			t.Errorf("%s: peak %.3f in the delay, want silence", c.file, lead)
		}
	}
}

type failingReader struct{ err error }

func (r failingReader) Read([]byte) (int, error) { return 0, r.err }

func TestDecodeRefuses(t *testing.T) {
	tone := readTone(t)
	boom := errors.New("disk on fire")
	for _, c := range []struct {
		name  string
		r     io.Reader
		limit int
		want  error
		says  string
	}{
		{"empty", bytes.NewReader(nil), 0, ErrMalformed, "no MPEG audio frame"},
		{"text", strings.NewReader("this is not an MP3 file at all"), 0, ErrMalformed, ""},
		{"read error", io.MultiReader(bytes.NewReader(tone[:100]), failingReader{boom}), 0, ErrRead, "disk on fire"},
		{"input past limit", bytes.NewReader(tone), 1000, ErrTooLarge, "input is longer than the 1000-byte limit"},
		{"PCM past limit", bytes.NewReader(tone), 20000, ErrTooLarge, "bytes of PCM, past the 20000-byte limit"},
		{"MPEG 2.5", bytes.NewReader(readFile(t, "tone-1k-11025-mono.mp3")), 0, ErrUnsupported, "MPEG version 2.5"},
		{"ID3 past the end", bytes.NewReader([]byte("ID3\x04\x00\x00\xff\xff\xff\xff")), 0, ErrMalformed, "ID3 tag declares"},
	} {
		f, pcm, err := DecodeLimit(c.r, c.limit)
		if !errors.Is(err, c.want) || !strings.HasPrefix(err.Error(), "mp3: ") || !strings.Contains(err.Error(), c.says) {
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

// TestID3SizeBounded checks a tiny file declaring a huge ID3 tag is
// refused before go-mp3 allocates the declared size.
func TestID3SizeBounded(t *testing.T) {
	in := append([]byte("ID3\x04\x00\x00\x7f\x7f\x7f\x7f"), readTone(t)...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, err := Decode(bytes.NewReader(in))
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrMalformed) {
		t.Errorf("err = %v, want ErrMalformed", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("refusing a %d-byte file allocated %d bytes", len(in), n)
	}
}

// TestDecodeTruncated checks a file cut short decodes what it holds or is
// refused, never more.
func TestDecodeTruncated(t *testing.T) {
	tone := readTone(t)
	_, full, err := Decode(bytes.NewReader(tone))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{len(tone) / 2, len(tone) - 1, 200} {
		_, pcm, err := Decode(bytes.NewReader(tone[:n]))
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("cut at %d: %v", n, err)
			}
			continue
		}
		if len(pcm) > len(full) || len(pcm)%4 != 0 {
			t.Errorf("cut at %d of %d bytes: decoded %d of %d bytes", n, len(tone), len(pcm), len(full))
		}
	}
}

// panicScalefactors is a 67-byte stream the fuzzer found that makes
// go-mp3 v0.3.4 index out of range in getScaleFactorsMpeg2.
const panicScalefactors = "\xff\xf37\xe5000001\xa60000000000000000000000000000000000000000000000000000000000000"

// TestDecoderPanicIsAnError checks a panic inside go-mp3 comes back as
// ErrMalformed, not as a crash of the loading goroutine.
func TestDecoderPanicIsAnError(t *testing.T) {
	_, pcm, err := Decode(strings.NewReader(panicScalefactors))
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "the decoder panicked: runtime error: index out of range") || pcm != nil {
		t.Errorf("Decode = %d bytes, %v; want ErrMalformed saying the decoder panicked", len(pcm), err)
	}
}
