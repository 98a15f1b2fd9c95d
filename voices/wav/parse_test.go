package wav

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"

	"github.com/steadyframe/steadyframe/voices"
)

var (
	s16mono   = voices.Format{Rate: 44100, Channels: 1, Encoding: voices.EncodingInt16LE}
	s16stereo = voices.Format{Rate: 22050, Channels: 2, Encoding: voices.EncodingInt16LE}
	f32mono   = voices.Format{Rate: 48000, Channels: 1, Encoding: voices.EncodingFloat32LE}
	f32stereo = voices.Format{Rate: 44100, Channels: 2, Encoding: voices.EncodingFloat32LE}
)

// within reports whether view lies inside b, sharing its memory.
func within(view, b []byte) bool {
	if len(view) == 0 {
		return true
	}
	for i := 0; i+len(view) <= len(b); i++ {
		if &b[i] == &view[0] {
			return true
		}
	}
	return false
}

// mustParse parses b and checks the result is f with data pcm, viewing b.
func mustParse(t *testing.T, name string, b []byte, f voices.Format, pcm []byte) {
	t.Helper()
	got, data, err := Parse(b)
	if err != nil {
		t.Fatalf("%s: Parse: %v", name, err)
	}
	if got != f {
		t.Errorf("%s: format %v, want %v", name, got, f)
	}
	if !bytes.Equal(data, pcm) {
		t.Errorf("%s: data of %d bytes differs from the %d written", name, len(data), len(pcm))
	}
	if !within(data, b) {
		t.Errorf("%s: data is a copy, not a view of the file", name)
	}
	if cap(data) != len(data) {
		t.Errorf("%s: data has capacity %d past its %d bytes: an append would overwrite the file", name, cap(data), len(data))
	}
}

func TestAppendParseRoundTrip(t *testing.T) {
	for _, f := range []voices.Format{s16mono, s16stereo, f32mono, f32stereo} {
		pcm := ramp(100 * f.FrameBytes())
		prefix := []byte("kept")
		b, err := Append(prefix, f, pcm)
		if err != nil {
			t.Fatalf("%v: Append: %v", f, err)
		}
		if string(b[:4]) != "kept" {
			t.Errorf("%v: Append overwrote dst", f)
		}
		mustParse(t, f.String(), b[4:], f, pcm)
	}
}

// TestParseReadsRenderWAV parses what the offline device writes: the
// engine's writer and this reader agree on the format.
func TestParseReadsRenderWAV(t *testing.T) {
	dev := voices.NewOffline(voices.OfflineDesc{})
	eng, err := voices.NewEngine(voices.EngineDesc{Device: dev})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	var buf bytes.Buffer
	if err := dev.RenderWAV(&buf, 1000); err != nil {
		t.Fatal(err)
	}
	f, data, err := Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if f != voices.DefaultDeviceFormat || len(data) != 1000*f.FrameBytes() {
		t.Errorf("RenderWAV parsed as %v with %d bytes, want %v with %d", f, len(data), voices.DefaultDeviceFormat, 8000)
	}
}

// TestParseAnyRate checks rates come back as found: the mixer, not the
// parser, decides what it plays.
func TestParseAnyRate(t *testing.T) {
	for _, rate := range []uint32{8000, 11025, 16000, 32000, 88200, 96000, 12345, 1} {
		pcm := ramp(40)
		b := riff(fmtChunk(pcm16(2, rate)), chunk{"data", pcm})
		mustParse(t, "rate", b, voices.Format{Rate: int(rate), Channels: 2, Encoding: voices.EncodingInt16LE}, pcm)
	}
}

func TestParseExtensible(t *testing.T) {
	pcm := ramp(48)
	mustParse(t, "ext s16 stereo", riff(fmtChunk(ext(pcm16(2, 44100))), chunk{"data", pcm}), voices.Format{Rate: 44100, Channels: 2, Encoding: voices.EncodingInt16LE}, pcm)
	mustParse(t, "ext f32 mono", riff(fmtChunk(ext(float32fmt(1, 48000))), chunk{"data", pcm}), voices.Format{Rate: 48000, Channels: 1, Encoding: voices.EncodingFloat32LE}, pcm)
	d := ext(pcm16(1, 22050))
	d.validBits = 12 // left-justified in the 16-bit container: plays as 16-bit
	mustParse(t, "ext 12 of 16 bits", riff(fmtChunk(d), chunk{"data", pcm}), voices.Format{Rate: 22050, Channels: 1, Encoding: voices.EncodingInt16LE}, pcm)
}

func TestParseWalksChunks(t *testing.T) {
	pcm := ramp(64)
	b := riff(
		chunk{"JUNK", make([]byte, 28)},
		fmtChunk(float32fmt(2, 44100)),
		chunk{"fact", []byte{8, 0, 0, 0}},
		chunk{"LIST", []byte("INFOISFT\x05\x00\x00\x00odd!\x00")}, // 17 bytes: padded
		chunk{"cue ", []byte{0, 0, 0}},                            // 3 bytes: padded
		chunk{"data", pcm},
		chunk{"LIST", []byte("after")},
	)
	b = append(b, "ID3 tag appended past the RIFF body"...)
	mustParse(t, "chunks", b, f32stereo, pcm)

	// An empty data chunk is a valid, empty file.
	f, data, err := Parse(riff(fmtChunk(pcm16(1, 44100)), chunk{"data", nil}))
	if err != nil || f != s16mono || len(data) != 0 {
		t.Errorf("empty data: %v %d %v", f, len(data), err)
	}
	// An odd-sized last chunk whose pad byte is missing ends the walk
	// cleanly: the error is the missing data chunk, not a bad offset.
	b = riff(fmtChunk(pcm16(1, 44100)), chunk{"LIST", []byte("abc")})
	b = b[:len(b)-1]
	binary.LittleEndian.PutUint32(b[4:], uint32(len(b)-8))
	if _, _, err := Parse(b); !errors.Is(err, ErrTruncated) || !strings.Contains(err.Error(), "no data chunk") {
		t.Errorf("odd last chunk without its pad byte: %v", err)
	}
}

func TestParseAllocatesNothing(t *testing.T) {
	b := riff(chunk{"LIST", []byte("odd")}, fmtChunk(ext(float32fmt(2, 44100))), chunk{"data", ramp(800)})
	testenv.NoAllocs(t, "Parse", 100, func() {
		if _, _, err := Parse(b); err != nil {
			t.Fatal(err)
		}
	})
}

func TestAppendRefuses(t *testing.T) {
	dst := []byte("x")
	if b, err := Append(dst, voices.Format{Rate: 44100, Channels: 3, Encoding: voices.EncodingInt16LE}, nil); !errors.Is(err, voices.ErrFormat) || len(b) != 1 {
		t.Errorf("3 channels: %q %v", b, err)
	}
	if b, err := Append(dst, s16stereo, make([]byte, 6)); !errors.Is(err, voices.ErrPCM) || len(b) != 1 {
		t.Errorf("partial frame: %q %v", b, err)
	}
}
