package mp3

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

// TestSourceMatchesDecode streams the tone in odd-sized reads: the PCM
// must be Decode's, byte for byte, and the format and length Decode's.
func TestSourceMatchesDecode(t *testing.T) {
	in := readTone(t)
	f, want, err := Decode(bytes.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSource(bytes.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if s.Format() != f || s.Frames() != int64(len(want)/f.FrameBytes()) {
		t.Errorf("source %v of %d frames, Decode %v of %d", s.Format(), s.Frames(), f, len(want)/f.FrameBytes())
	}
	if got := readAll(t, s, 4*333); !bytes.Equal(got, want) {
		t.Errorf("the source streamed %d bytes that differ from Decode's %d", len(got), len(want))
	}
}

// TestSourceSeek seeks to frames inside the tone and compares what
// follows with Decode's PCM there: the position must be exact, and the
// samples match to within go-mp3's one-frame pre-roll.
func TestSourceSeek(t *testing.T) {
	in := readTone(t)
	_, want, err := Decode(bytes.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSource(bytes.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []int64{0, 1, 1151, 1152, 3000, 3456, 5555, 7000, 10000} {
		if err := s.SeekFrame(at); err != nil {
			t.Fatal(err)
		}
		got := readAll(t, s, 4096)
		w := want[4*at:]
		if len(got) != len(w) {
			t.Fatalf("after a seek to %d: %d bytes, want %d", at, len(got), len(w))
		}
		worst := 0
		for i := 0; i+1 < len(got); i += 2 {
			d := int(int16(uint16(got[i])|uint16(got[i+1])<<8)) - int(int16(uint16(w[i])|uint16(w[i+1])<<8))
			worst = max(worst, d, -d)
		}
		if worst != 0 {
			t.Errorf("after a seek to %d the samples differ from a decode from the start by up to %d LSB", at, worst)
		}
	}
	if err := s.SeekFrame(-1); !errors.Is(err, voices.ErrInvalid) {
		t.Errorf("SeekFrame(-1): %v, want ErrInvalid", err)
	}
}

// TestStreamGuard plays a looping MP3 stream under the allocation guard.
// With GuardAllow the guard passes and names go-mp3 as tolerated;
// without it, the frames where go-mp3 decoded are violations named by
// go-mp3's code.
func TestStreamGuard(t *testing.T) {
	defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
	guard.EnableSiteProfiling()
	in := readTone(t)
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
			d.Allow = []guard.Allow{GuardAllow()}
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
		r := g.Report()
		// Unallowed, go-mp3's allocations are named by the innermost
		// guarded frame: this package's Read, which called it.
		var tolerated, named int
		for _, site := range r.Sites {
			switch {
			case strings.HasPrefix(site.Function, goMP3Site) && site.Allowed != "":
				tolerated++
			case site.Allowed == "" && (strings.HasSuffix(site.Function, "voices/mp3.(*Source).Read") ||
				strings.HasSuffix(site.Function, "voices/mp3.(*Source).SeekFrame")):
				named++
			case site.Allowed == "":
				t.Errorf("allow %v: a violation at %v", allow, site)
			}
		}
		if allow && (verdict != nil || tolerated == 0) {
			t.Errorf("with GuardAllow: verdict %v, %d tolerated go-mp3 sites, want nil and some", verdict, tolerated)
		}
		if !allow && (!errors.Is(verdict, guard.ErrAllocation) || named == 0) {
			t.Errorf("without GuardAllow: verdict %v, %d go-mp3 sites named, want a violation naming go-mp3", verdict, named)
		}
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(time.Second); err != nil {
			t.Fatal(err)
		}
		t.Logf("allow %v: %d tolerated go-mp3 sites, %d named; %d underruns (site profiling slows go-mp3)",
			allow, tolerated, named, e.Stats().StreamUnderruns)
	}
}
