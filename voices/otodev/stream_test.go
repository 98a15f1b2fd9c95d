package otodev

import (
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/voices"
	"github.com/steadyframe/steadyframe/voices/wav"
)

// The stream scenario runs in a child like the others; it registers with
// the guard scenarios' table, which runChild consults by mode.
func init() { guardScenarios["stream"] = runStream }

// streamSeconds is the streamed file's length. Its stream buffers more
// than that: oto into ALSA's null device pulls about 500 times faster
// than real time, which no decoder polling every few milliseconds keeps
// up with, so the test proves the oto path, not the decoder's pace
// (voices' TestStreamTenMinutes does that).
const streamSeconds = 2

// TestOtoStreamToFile streams a WAV file of a 440 Hz tone, written in the
// test, through oto into an ALSA file, and checks the capture: a clean
// 440 Hz tone at the centred level, as long as the file, with no
// underrun.
func TestOtoStreamToFile(t *testing.T) {
	dir := t.TempDir()
	raw := filepath.Join(dir, "out.raw")
	f := voices.Format{Rate: 44100, Channels: 1, Encoding: voices.EncodingInt16LE}
	file, err := wav.Append(nil, f, sine(f, streamSeconds*44100, 440))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "tone.wav")
	if err := os.WriteFile(path, file, 0o600); err != nil {
		t.Fatal(err)
	}
	res := child(t, "stream", append(alsaToFile(t, dir, raw), envRaw+"="+raw, envWAV+"="+path))
	if res.DeviceErr != "" || res.DeviceName != "oto" {
		testenv.SkipOrFail(t, "oto could not open the ALSA file device: "+res.DeviceErr)
	}
	data, err := os.ReadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	l, r := decode(data)
	var tone []float32
	for i := range l {
		if l[i] != r[i] {
			t.Fatalf("frame %d: left %v right %v differ for a centred mono tone", i, l[i], r[i])
		}
		if l[i] != 0 {
			tone = append(tone, l[i])
		}
	}
	// The file's 2 s at 48 kHz, give or take the band-limited edges and
	// the exact zeros a resampled sine may cross.
	if want := streamSeconds * 48000; len(tone) < want-200 || len(tone) > want+200 {
		t.Errorf("%d tone frames captured, want about %d", len(tone), want)
	}
	// The frequency is measured on each unbroken run of oto's 1024-frame
	// reads (the unpaced device pads with silence whenever it outruns
	// oto's buffer), so that each stretch the stream fed is checked.
	runs := 0
	for i, start := 0, 0; i <= len(l); i++ {
		if i == len(l) || l[i] == 0 {
			// The clip's band-limited end rings on at a level far below
			// the tone's, crossing zero at random: trimmed.
			end := i
			for end > start && math.Abs(float64(l[end-1])) < 1e-3 {
				end--
			}
			if end-start >= 300 {
				runs++
				if f := frequency(l[start:end], 48000); math.Abs(f-440) > 1 {
					t.Errorf("the run of %d frames at %d is %.2f Hz, want 440", i-start, start, f)
				}
			}
			start = i + 1
		}
	}
	if runs < 20 {
		t.Errorf("only %d unbroken runs of 300 frames or more", runs)
	}
	if p, want := peakOf(tone), toneAmp*math.Cos(math.Pi/4); math.Abs(p-want) > 0.01 {
		t.Errorf("captured tone peaks at %.4f, want %.4f", p, want)
	}
	if res.Underruns != 0 {
		t.Errorf("%d stream underruns", res.Underruns)
	}
	t.Logf("captured %d frames, %d of the streamed tone, %d runs measured", len(l), len(tone), runs)
}

// envWAV names the stream scenario's file.
const envWAV = "OTODEV_WAV"

// runStream plays the WAV file envWAV names as a stream until it ends,
// then closes the stream.
func runStream() childResult {
	var res childResult
	eng, err := voices.NewEngine(voices.EngineDesc{Device: New(Desc{}), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		res.Fail = err.Error()
		return res
	}
	defer eng.Close()
	res.DeviceName = eng.Stats().Device.Name
	if err := eng.Err(); err != nil {
		res.DeviceErr = err.Error()
		return res
	}
	if err := playStream(eng, &res); err != nil {
		res.Fail = err.Error()
	}
	return res
}

func playStream(eng *voices.Engine, res *childResult) error {
	file, err := os.Open(os.Getenv(envWAV))
	if err != nil {
		return err
	}
	defer file.Close()
	st, err := file.Stat()
	if err != nil {
		return err
	}
	src, err := wav.NewSource(file, st.Size())
	if err != nil {
		return err
	}
	s, err := eng.NewStream(voices.StreamDesc{Name: "tone", Source: src, Buffer: (streamSeconds + 1) * time.Second})
	if err != nil {
		return err
	}
	h, err := eng.Play(s.Clip(), voices.PlayDesc{})
	if err != nil {
		return err
	}
	for deadline := time.Now().Add(30 * time.Second); eng.Playing(h); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			return io.ErrNoProgress
		}
	}
	if err := waitBlocks(eng, os.Getenv(envRaw), 20); err != nil {
		return err
	}
	if err := s.Close(time.Second); err != nil {
		return err
	}
	res.Underruns = eng.Stats().StreamUnderruns
	return eng.Err()
}
