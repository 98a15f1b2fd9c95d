package flac

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/lifetime/guard"
	"github.com/steadyframe/steadyframe/voices"
)

// readAll reads a source to its end in reads of n bytes.
func readAll(t testing.TB, s *Source, n int) []byte {
	t.Helper()
	var out []byte
	buf := make([]byte, n)
	for {
		k, err := s.Read(buf)
		out = append(out, buf[:k]...)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
	}
}

var streamFiles = []string{"tone-s16-stereo-22050.flac", "tone-s24-mono-44100.flac", "tone-s8-mono-22050.flac"}

// TestSourceMatchesDecode streams each file in odd-sized reads: the PCM
// must be Decode's, byte for byte, in Decode's format.
func TestSourceMatchesDecode(t *testing.T) {
	for _, name := range streamFiles {
		in := readFile(t, name)
		f, want, err := Decode(bytes.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewSource(bytes.NewReader(in))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if s.Format() != f || s.Frames() != int64(len(want)/f.FrameBytes()) {
			t.Errorf("%s: source %v of %d frames, Decode %v of %d", name, s.Format(), s.Frames(), f, len(want)/f.FrameBytes())
		}
		if got := readAll(t, s, 3*f.FrameBytes()*111); !bytes.Equal(got, want) {
			t.Errorf("%s: the source streamed %d bytes that differ from Decode's %d", name, len(got), len(want))
		}
	}
}

// TestSourceSeek seeks to frames across block boundaries: what follows
// must be Decode's PCM from there, bit for bit.
func TestSourceSeek(t *testing.T) {
	in := readFile(t, "tone-s16-stereo-22050.flac")
	f, want, err := Decode(bytes.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSource(bytes.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	fb := int64(f.FrameBytes())
	for _, at := range []int64{0, 1, 100, 1000, 2000, s.Frames() - 1, s.Frames()} {
		if err := s.SeekFrame(at); err != nil {
			t.Fatalf("SeekFrame(%d): %v", at, err)
		}
		if got := readAll(t, s, 4096); !bytes.Equal(got, want[at*fb:]) {
			t.Errorf("after a seek to %d: %d bytes that differ from Decode's %d", at, len(got), len(want[at*fb:]))
		}
	}
	if err := s.SeekFrame(s.Frames() + 1); !errors.Is(err, voices.ErrInvalid) {
		t.Errorf("SeekFrame past the end: %v, want ErrInvalid", err)
	}
}

// TestStreamGuard plays a looping FLAC stream under the allocation guard.
// With GuardAllow the guard tolerates mewkiz/flac's own allocations and
// the standard library's io.TeeReader and encoding/binary.Read where it
// calls them for each frame's CRC, and the run
// passes. Without GuardAllow every decoding frame is a violation, named
// by the innermost guarded frame: this package's code that called the
// decoder.
func TestStreamGuard(t *testing.T) {
	defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
	guard.EnableSiteProfiling()
	in := readFile(t, "tone-s16-stereo-22050.flac")
	for _, allow := range []bool{true, false} {
		dev := voices.NewOffline(voices.OfflineDesc{})
		e, err := voices.NewEngine(voices.EngineDesc{Device: dev})
		if err != nil {
			t.Fatal(err)
		}
		src, err := NewSource(bytes.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		s, err := e.NewStream(voices.StreamDesc{Name: "tone", Source: src, Loop: true, Buffer: 500 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Play(s.Clip(), voices.PlayDesc{Loop: true}); err != nil {
			t.Fatal(err)
		}
		d := guard.Desc{Settle: 20, Window: 4, MinFrames: 200, Sites: true, Logger: slog.New(slog.DiscardHandler)}
		if allow {
			d.Allow = GuardAllow()
		}
		g, err := guard.New(d)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 1024*8)
		for range 400 {
			g.BeginFrame()
			dev.Render(buf)
			g.EndFrame()
			time.Sleep(5 * time.Millisecond) // about 4 times real time
		}
		verdict := g.Verdict()
		var tolerated, named int
		for _, site := range g.Report().Sites {
			switch {
			case site.Allowed != "" && (strings.HasPrefix(site.Function, mewkizSite) || strings.HasPrefix(site.Function, bitioSite) ||
				strings.HasPrefix(site.Function, "encoding/binary.") || site.Function == "io.TeeReader"):
				tolerated++
			case site.Allowed == "" && strings.Contains(site.Function, "voices/flac."):
				named++
			case site.Allowed == "":
				t.Errorf("allow %v: a violation at %v", allow, site)
			}
		}
		if allow && (tolerated == 0 || verdict != nil || named != 0) {
			t.Errorf("with GuardAllow: verdict %v, %d tolerated sites, %d named; want a pass with tolerated sites", verdict, tolerated, named)
		}
		if !allow && (!errors.Is(verdict, guard.ErrAllocation) || named == 0) {
			t.Errorf("without GuardAllow: verdict %v, %d sites named in this package, want a violation there", verdict, named)
		}
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(time.Second); err != nil {
			t.Fatal(err)
		}
		t.Logf("allow %v: %d tolerated sites, %d named; %d underruns (site profiling slows the decoder)",
			allow, tolerated, named, e.Stats().StreamUnderruns)
	}
}
