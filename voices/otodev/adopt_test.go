package otodev

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ebitengine/oto/v3"

	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/voices"
)

// appTone is the frequency and level of the tone the application plays on
// its own context once the engine is closed.
const (
	appFreq = 660
	appAmp  = 0.25
)

// TestOtoAdoptsContext hands the engine an oto context the application
// made itself (ALSA pointed at a file): the engine's tone must arrive
// through it, a format other than the context's must be refused, and after
// the engine is closed the context must still be the application's,
// running: its own player's tone follows in the capture.
func TestOtoAdoptsContext(t *testing.T) {
	dir := t.TempDir()
	raw := filepath.Join(dir, "out.raw")
	res := child(t, "adopt", append(alsaToFile(t, dir, raw), envRaw+"="+raw))
	if res.DeviceErr != "" {
		testenv.SkipOrFail(t, "oto could not open the ALSA file device: "+res.DeviceErr)
	}
	if res.DeviceName != "oto" {
		t.Fatalf("device %q, want oto on the adopted context", res.DeviceName)
	}
	data, err := os.ReadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !(0 < res.StopOffset && res.StopOffset <= res.CloseOffset && res.CloseOffset < res.AppOffset && res.AppOffset <= int64(len(data))) {
		t.Fatalf("raw file of %d bytes; StopAll at %d, Close at %d, the application's tone until %d",
			len(data), res.StopOffset, res.CloseOffset, res.AppOffset)
	}
	l, _ := decode(data)
	nonZero := func(x []float32) []float32 {
		var out []float32
		for _, v := range x {
			if v != 0 {
				out = append(out, v)
			}
		}
		return out
	}
	ours := nonZero(l[:res.StopOffset/8])
	if len(ours) < 48000 {
		t.Fatalf("only %d frames of the engine's tone captured", len(ours))
	}
	// Measured across the joins nonZero closes, without the band-limited
	// ringing at the tone's ends (see TestOtoToFile).
	if f := frequency(trimQuiet(ours, 1e-3), 48000); math.Abs(f-440) > 1 {
		t.Errorf("the engine's tone is %.2f Hz, want 440", f)
	}
	if p, want := peakOf(ours), toneAmp*math.Cos(math.Pi/4); math.Abs(p-want) > 0.01 {
		t.Errorf("the engine's tone peaks at %.4f, want %.4f", p, want)
	}
	// What oto and ALSA still held of the engine's output may open the
	// window (at most 8192 frames, as in TestOtoToFile); after it, the
	// application's tone alone.
	after := nonZero(l[res.CloseOffset/8 : res.AppOffset/8])
	app := after[min(8192, len(after)):]
	if len(app) < 48000 {
		t.Fatalf("only %d frames of the application's tone captured after Close", len(app))
	}
	if f := frequency(app, 48000); math.Abs(f-appFreq) > 1 {
		t.Errorf("after the engine closed, the context played %.2f Hz, want the application's %d", f, appFreq)
	}
	if p := peakOf(app); math.Abs(p-appAmp) > 0.01 {
		t.Errorf("the application's tone peaks at %.4f, want %v", p, appAmp)
	}
	t.Logf("captured %d frames: the engine's tone, then %d of the application's on its context", len(l), len(app))
}

// runAdopt is the child side: the application makes its oto context, the
// engine plays on it, and the application plays on after the engine.
func runAdopt() childResult {
	var res childResult
	raw := os.Getenv(envRaw)
	ctx, err := newContext(&oto.NewContextOptions{
		SampleRate: 48000, ChannelCount: 2, Format: oto.FormatFloat32LE, BufferSize: 10 * time.Millisecond,
	})
	if err != nil {
		res.DeviceErr = err.Error()
		return res
	}
	if err := adopt(ctx, raw, &res); err != nil {
		res.Fail = err.Error()
	}
	return res
}

func adopt(ctx *oto.Context, raw string, res *childResult) error {
	at22k := voices.Format{Rate: 22050, Channels: 2, Encoding: voices.EncodingFloat32LE}
	wrong := New(Desc{Context: ctx, ContextFormat: at22k})
	if err := wrong.Start(voices.DefaultDeviceFormat, strings.NewReader("")); !errors.Is(err, ErrFormatMismatch) {
		return fmt.Errorf("an engine format other than the context's: %v, want ErrFormatMismatch", err)
	}
	eng, err := voices.NewEngine(voices.EngineDesc{
		Device: New(Desc{Context: ctx}),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		return err
	}
	if err := eng.Err(); err != nil {
		return fmt.Errorf("the engine fell back instead of adopting the context: %w", err)
	}
	res.DeviceName = eng.Stats().Device.Name
	f := voices.Format{Rate: 44100, Channels: 1, Encoding: voices.EncodingInt16LE}
	c, err := eng.NewClip("tone", sine(f, 44100, 440), f)
	if err != nil {
		return err
	}
	if err := waitBlocks(eng, raw, 20); err != nil {
		return err
	}
	if _, err := eng.Play(c, voices.PlayDesc{Loop: true}); err != nil {
		return err
	}
	if err := waitBlocks(eng, raw, 400); err != nil {
		return err
	}
	if err := eng.StopAll(time.Second); err != nil {
		return err
	}
	if res.StopOffset, err = fileSize(raw); err != nil {
		return err
	}
	if err := eng.Close(); err != nil {
		return err
	}
	if res.CloseOffset, err = fileSize(raw); err != nil {
		return err
	}
	// The context is still the application's, and running: its own
	// player plays two seconds of tone, and the device drains them.
	src := &sineF32{freq: appFreq, amp: appAmp}
	p := ctx.NewPlayer(src)
	p.Play()
	var played int64
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
		n, err := fileSize(raw)
		if err != nil {
			return err
		}
		if played == 0 && src.frames.Load() >= 2*48000 {
			played = n
		}
		if played != 0 && n > played+4<<20 {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the application's player on its context played %d frames in 30 s after the engine closed", src.frames.Load())
		}
	}
	p.Pause()
	if res.AppOffset, err = fileSize(raw); err != nil {
		return err
	}
	return ctx.Err()
}

// sineF32 is the application's own endless float32 stereo tone at 48 kHz.
type sineF32 struct {
	freq, amp float64
	i         int
	frames    atomic.Int64 // frames read so far
}

func (s *sineF32) Read(p []byte) (int, error) {
	n := len(p) / 8 * 8
	for o := 0; o < n; o += 8 {
		v := math.Float32bits(float32(s.amp * math.Sin(2*math.Pi*s.freq*float64(s.i)/48000)))
		binary.LittleEndian.PutUint32(p[o:], v)
		binary.LittleEndian.PutUint32(p[o+4:], v)
		s.i++
	}
	s.frames.Add(int64(n / 8))
	return n, nil
}
