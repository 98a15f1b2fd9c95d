package voices

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestWAVHeader(t *testing.T) {
	for _, c := range []struct {
		f        Format
		tag      uint16
		dataOffs int
	}{
		{Format{Rate: 44100, Channels: 1, Encoding: EncodingInt16LE}, wavPCM, 36},
		{DefaultDeviceFormat, wavFloat, 50},
	} {
		h, err := WAVHeader(c.f, 1000)
		if err != nil {
			t.Fatal(err)
		}
		le := binary.LittleEndian
		if string(h[:4]) != "RIFF" || string(h[8:16]) != "WAVEfmt " || le.Uint16(h[20:]) != c.tag ||
			int(le.Uint16(h[22:])) != c.f.Channels || int(le.Uint32(h[24:])) != c.f.Rate ||
			int(le.Uint16(h[32:])) != c.f.FrameBytes() || string(h[c.dataOffs:c.dataOffs+4]) != "data" ||
			int(le.Uint32(h[c.dataOffs+4:])) != 1000*c.f.FrameBytes() ||
			int(le.Uint32(h[4:])) != len(h)-8+1000*c.f.FrameBytes() {
			t.Errorf("%v: bad header % x", c.f, h)
		}
	}
	if _, err := WAVHeader(Format{}, 1); !errors.Is(err, ErrFormat) {
		t.Errorf("WAVHeader of a bad format: %v", err)
	}
	// A RIFF size is 32 bits: 2^28 stereo float frames (2 GiB) fit, 2^29
	// (4 GiB) do not, and a negative count is refused too.
	if _, err := WAVHeader(DefaultDeviceFormat, 1<<28); err != nil {
		t.Errorf("2 GiB of frames: %v", err)
	}
	for _, n := range []int{1 << 29, -1} {
		if _, err := WAVHeader(DefaultDeviceFormat, n); !errors.Is(err, ErrPCM) || !strings.Contains(err.Error(), "RIFF") {
			t.Errorf("WAVHeader of %d frames: %v, want ErrPCM naming the RIFF limit", n, err)
		}
	}
}

// TestRenderWAVMatchesRender checks the WAV's samples are exactly what a
// second, identical engine renders.
func TestRenderWAVMatchesRender(t *testing.T) {
	mk := func() (*Engine, *Offline) {
		e, dev := offlineEngine(t, EngineDesc{})
		_, c := clipOf(t, e, "t", mono44, tone(mono44, 4410, 440, 0.5), ClipDesc{})
		_, _ = e.Play(c, PlayDesc{Pan: 0.3})
		return e, dev
	}
	_, a := mk()
	_, b := mk()
	var wav bytes.Buffer
	if err := a.RenderWAV(&wav, 3000); err != nil {
		t.Fatal(err)
	}
	raw := make([]byte, 3000*8)
	_, _ = b.Render(raw)
	if !bytes.Equal(wav.Bytes()[wav.Len()-len(raw):], raw) {
		t.Fatal("WAV samples differ from Render's")
	}
	if a.Clock() != 62500*time.Microsecond {
		t.Fatalf("clock %v after 3000 frames", a.Clock())
	}
}

// TestOfflineRealTime checks the real-time offline device paces blocks by
// the wall clock, feeds its sink, and is not read after Close.
func TestOfflineRealTime(t *testing.T) {
	var mu sync.Mutex
	var sink bytes.Buffer
	dev := NewOffline(OfflineDesc{RealTime: true, BlockFrames: 480, Sink: writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return sink.Write(p)
	})})
	e, err := NewEngine(EngineDesc{Device: dev})
	if err != nil {
		t.Fatal(err)
	}
	_, c := clipOf(t, e, "t", mono44, tone(mono44, 44100, 440, 0.5), ClipDesc{})
	_, _ = e.Play(c, PlayDesc{})
	start, r0 := time.Now(), dev.Stats().Reads
	for dev.Stats().Reads < r0+10 {
		if time.Since(start) > 10*time.Second {
			t.Fatal("real-time device pulled fewer than 10 blocks in 10 s")
		}
		time.Sleep(time.Millisecond)
	}
	// Paced by the clock: 10 more blocks of 10 ms span at least 9 ticks;
	// the bound leaves room for late ticks delivered close together.
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Fatalf("10 blocks in %v: the device runs faster than real time", d)
	}
	if err := e.StopAll(time.Second); err != nil {
		t.Fatal(err)
	}
	if s := e.Stats(); s.StopAllFallbacks != 0 {
		t.Fatalf("StopAll fell back on a running device")
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	reads := dev.Stats().Reads
	time.Sleep(30 * time.Millisecond)
	if dev.Stats().Reads != reads {
		t.Fatal("device read the mixer after Close")
	}
	mu.Lock()
	defer mu.Unlock()
	if sink.Len() != int(reads)*480*8 {
		t.Fatalf("sink got %d bytes for %d reads", sink.Len(), reads)
	}
	if _, err := dev.Render(make([]byte, 8)); !errors.Is(err, ErrDevice) {
		t.Fatalf("Render on a real-time device: %v", err)
	}
	if err := dev.Start(DefaultDeviceFormat, nil); !errors.Is(err, ErrDevice) {
		t.Fatalf("second Start: %v", err)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestOfflineClosePrompt checks that Close stops a real-time device
// without waiting out its block period (here 47 s).
func TestOfflineClosePrompt(t *testing.T) {
	f := Format{Rate: 22050, Channels: 1, Encoding: EncodingInt16LE}
	dev := NewOffline(OfflineDesc{RealTime: true, BlockFrames: 1 << 20})
	var reads atomic.Int64
	src := readerFunc(func(p []byte) (int, error) {
		reads.Add(1)
		clear(p)
		return len(p), nil
	})
	if err := dev.Start(f, src); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond) // the loop is asleep in its first period
	closed := make(chan error, 1)
	go func() { closed <- dev.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close waited more than 5 s for a device with a 47 s block period")
	}
	if n := reads.Load(); n != 0 {
		t.Fatalf("%d reads before the first period ended", n)
	}
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }
