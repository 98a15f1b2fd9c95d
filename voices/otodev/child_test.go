package otodev

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/voices"
)

// The oto tests run in child processes of the test binary: ALSA reads
// ALSA_CONFIG_PATH when it first loads its configuration, and oto allows
// one context per process, so each scenario gets a fresh process with its
// own configuration. TestMain runs the child's scenario when
// OTODEV_CHILD names one.

const (
	envChild  = "OTODEV_CHILD"  // scenario to run
	envResult = "OTODEV_RESULT" // where the child writes its childResult
	envRaw    = "OTODEV_RAW"    // the ALSA file plugin's output
	envTone   = "OTODEV_TONE"   // the quality scenario's tone: "rate freq"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(envChild); mode != "" {
		res := runChild(mode)
		b, _ := json.Marshal(res)
		if err := os.WriteFile(os.Getenv(envResult), b, 0o600); err != nil {
			fmt.Fprintln(os.Stderr, "otodev child:", err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// childResult is what a child reports to its parent test.
type childResult struct {
	DeviceErr  string // the engine's Err(): set when oto could not open the device
	DeviceName string
	Fail       string // a failure inside the child
	StopOffset int64  // size of the raw file when StopAll returned
	StopAll    time.Duration
	Fallbacks  uint64
	PlayToMix  time.Duration
	DevLatency time.Duration
	Underruns  uint64
	MixMax     time.Duration
	Blocks     uint64
	// For an adopted context: the raw file's size once the engine was
	// closed, and once the application's own player had played after it.
	CloseOffset int64
	AppOffset   int64
	// GuardNoEntry is a guard scenario's verdict where it may fail.
	GuardNoEntry string
	// The paced scenario's figures: Play-to-output, one a click; and over
	// its steady play the time elapsed, the device's reads, and how far
	// the audio the mixer rendered fell short of the time elapsed.
	Latencies []time.Duration
	Steady    time.Duration
	Reads     uint64
	Shortfall time.Duration
}

// toneAmp is the test tone's amplitude; centred mono plays at
// toneAmp·cos(π/4) on each side.
const toneAmp = 0.5

func sine(f voices.Format, frames int, freq float64) []byte {
	b := make([]byte, frames*f.FrameBytes())
	for i := 0; i < frames; i++ {
		s := toneAmp * math.Sin(2*math.Pi*freq*float64(i)/float64(f.Rate))
		binary.LittleEndian.PutUint16(b[2*i:], uint16(int16(math.Round(s*32767))))
	}
	return b
}

func runChild(mode string) childResult {
	if mode == "adopt" {
		return runAdopt()
	}
	if mode == "paced" {
		return runPaced()
	}
	if run, ok := guardScenarios[mode]; ok {
		return run()
	}
	var res childResult
	eng, err := voices.NewEngine(voices.EngineDesc{
		Device: New(Desc{}),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		res.Fail = err.Error()
		return res
	}
	defer eng.Close()
	s := eng.Stats()
	res.DeviceName = s.Device.Name
	if err := eng.Err(); err != nil {
		res.DeviceErr = err.Error()
	}
	if mode == "fallback" || res.DeviceErr != "" {
		// Prove the fallback engine works: a voice plays and ends.
		f := voices.Format{Rate: 44100, Channels: 1, Encoding: voices.EncodingInt16LE}
		bank, _ := eng.NewBank("short", sine(f, 441, 440))
		c, _ := bank.Clip(voices.ClipDesc{Format: f})
		h, err := eng.Play(c, voices.PlayDesc{})
		if err != nil {
			res.Fail = err.Error()
			return res
		}
		for deadline := time.Now().Add(5 * time.Second); eng.Playing(h); {
			if time.Now().After(deadline) {
				res.Fail = "the fallback device never finished a 10 ms clip"
				return res
			}
			time.Sleep(time.Millisecond)
		}
		return res
	}
	play := playTone
	if mode == "quality" {
		play = playQuality
	}
	if err := play(eng, &res); err != nil {
		res.Fail = err.Error()
	}
	return res
}

// qualityAmp is the quality scenario's level: -6 dBFS.
const qualityAmp = 0.5

// playQuality loops one second of a float32 stereo tone at the rate and
// frequency OTODEV_TONE names (a whole number of periods, so the loop is
// seamless) for about 1.4 s of mixed audio, then stops it. The tone
// starts at a phase of 0.3 rad, where neither it nor its resampled
// version lands exactly on zero.
func playQuality(eng *voices.Engine, res *childResult) error {
	raw := os.Getenv(envRaw)
	var rate int
	var freq float64
	if _, err := fmt.Sscan(os.Getenv(envTone), &rate, &freq); err != nil {
		return fmt.Errorf("%s: %v", envTone, err)
	}
	f := voices.Format{Rate: rate, Channels: 2, Encoding: voices.EncodingFloat32LE}
	pcm := make([]byte, rate*f.FrameBytes())
	for i := 0; i < rate; i++ {
		s := math.Float32bits(float32(qualityAmp * math.Sin(2*math.Pi*freq*float64(i)/float64(rate)+0.3)))
		binary.LittleEndian.PutUint32(pcm[8*i:], s)
		binary.LittleEndian.PutUint32(pcm[8*i+4:], s)
	}
	c, err := eng.NewClip("tone", pcm, f)
	if err != nil {
		return err
	}
	if _, err := eng.Play(c, voices.PlayDesc{Loop: true}); err != nil {
		return err
	}
	if err := waitBlocks(eng, raw, 260); err != nil { // 1.4 s
		return err
	}
	if err := eng.StopAll(time.Second); err != nil {
		return err
	}
	if err := waitBlocks(eng, raw, 4); err != nil {
		return err
	}
	return eng.Err()
}

// playTone plays a looping 440 Hz tone, stops everything, overwrites the
// PCM with a DC marker, and lets the device run on.
func playTone(eng *voices.Engine, res *childResult) error {
	raw := os.Getenv(envRaw)
	// oto allows one context per process: a second device asking for
	// another buffer size must be refused, not handed the first one's.
	other := New(Desc{BufferFrames: 2 * DefaultBufferFrames})
	if err := other.Start(eng.Format(), strings.NewReader("")); !errors.Is(err, ErrFormatMismatch) {
		return fmt.Errorf("a second device with another buffer size: %v, want ErrFormatMismatch", err)
	}
	f := voices.Format{Rate: 44100, Channels: 1, Encoding: voices.EncodingInt16LE}
	pcm := sine(f, 44100, 440)
	bank, err := eng.NewBank("tone", pcm)
	if err != nil {
		return err
	}
	c, err := bank.Clip(voices.ClipDesc{Format: f})
	if err != nil {
		return err
	}
	if err := waitBlocks(eng, raw, 20); err != nil {
		return err
	}
	if _, err := eng.Play(c, voices.PlayDesc{Loop: true}); err != nil {
		return err
	}
	if err := waitBlocks(eng, raw, 400); err != nil { // 2.1 s of mixed audio
		return err
	}
	if err := eng.StopAll(time.Second); err != nil {
		return err
	}
	if res.StopOffset, err = fileSize(raw); err != nil {
		return err
	}
	// The DC marker, 0.6 of full scale: if any voice still read pcm, a
	// constant 0.6·cos(π/4) would appear in the output.
	const marker = 19660
	for i := 0; i < len(pcm); i += 2 {
		binary.LittleEndian.PutUint16(pcm[i:], marker)
	}
	if err := waitBlocks(eng, raw, 200); err != nil {
		return err
	}
	s := eng.Stats()
	res.StopAll, res.Fallbacks = s.StopAllLast, s.StopAllFallbacks
	res.PlayToMix, res.DevLatency, res.Underruns = s.PlayToMixMax, s.DeviceLatency, s.Underruns
	res.MixMax, res.Blocks = s.MixMax, s.Blocks
	return eng.Err()
}

// maxRaw bounds the unpaced null device's output file.
const maxRaw = 256 << 20

// waitBlocks waits for the mixer to render n more blocks, bounded in time
// and by the size of the raw file.
func waitBlocks(eng *voices.Engine, raw string, n uint64) error {
	want := eng.Stats().Blocks + n
	deadline := time.Now().Add(30 * time.Second)
	for eng.Stats().Blocks < want {
		if n, err := fileSize(raw); err == nil && n > maxRaw {
			return fmt.Errorf("raw file passed %d bytes before %d blocks were mixed", maxRaw, n)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("only %d of %d blocks mixed in 30 s", eng.Stats().Blocks, want)
		}
		time.Sleep(time.Millisecond)
	}
	return nil
}

func fileSize(path string) (int64, error) {
	st, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}
