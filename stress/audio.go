package main

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/steadyframe/steadyframe/internal/tones"
	"github.com/steadyframe/steadyframe/voices"
	"github.com/steadyframe/steadyframe/voices/otodev"
)

// audio is the stress tool's sound side: one voices.Engine, whose audio
// goroutine (oto's, or the offline device's) owns every voice, and the
// PCM memory the banks view. The memory is the stress tool's: it is
// released only after StopAll and Bank.Release have proved that no voice
// reads it, which is the shutdown order the reference got wrong.
//
// Play is safe from any goroutine (it only enqueues into the engine's
// bounded command queue); the rest belongs to the goroutine that built it.
type audio struct {
	engine  *voices.Engine
	name    string // "oto" or "offline (...)"
	offline bool   // the engine plays on voices.Offline
	pcm     [][]byte
	banks   []*voices.Bank
	clips   []voices.Clip
	music   voices.Handle
}

// soundSpecs are the effects workers play: one per source format family,
// so the mixer's converters and resampler all run.
var soundSpecs = []tones.Tone{
	{Format: voices.Format{Rate: 48000, Channels: 2, Encoding: voices.EncodingFloat32LE}, Freq: 440, Length: 120 * time.Millisecond},
	{Format: voices.Format{Rate: 44100, Channels: 1, Encoding: voices.EncodingInt16LE}, Freq: 660, Length: 90 * time.Millisecond},
	{Format: voices.Format{Rate: 22050, Channels: 1, Encoding: voices.EncodingInt16LE}, Freq: 330, Length: 200 * time.Millisecond},
	{Format: voices.Format{Rate: 44100, Channels: 2, Encoding: voices.EncodingFloat32LE}, Freq: 880, Length: 60 * time.Millisecond},
	{Format: voices.Format{Rate: 48000, Channels: 1, Encoding: voices.EncodingInt16LE}, Freq: 550, Length: 150 * time.Millisecond},
	{Format: voices.Format{Rate: 22050, Channels: 2, Encoding: voices.EncodingInt16LE}, Freq: 220, Length: 300 * time.Millisecond},
}

// musicSpec is the protected looping voice that plays for the whole run.
var musicSpec = tones.Tone{Format: voices.Format{Rate: 44100, Channels: 2, Encoding: voices.EncodingInt16LE},
	Freq: 110, Length: time.Second, Loop: true, Level: 0.5}

// newAudio opens the engine on the device mode asks for: "oto" must open
// the sound card (ALSA; point it at a file on CI), "offline" renders on a
// real-time simulated clock, "auto" tries oto and lets the engine fall back.
func newAudio(mode string, logger *slog.Logger) (*audio, error) {
	desc := voices.EngineDesc{Policy: voices.PolicySteal, Logger: logger}
	name := "oto"
	switch mode {
	case "offline":
		desc.Device = voices.NewOffline(voices.OfflineDesc{RealTime: true})
		name = "offline (real-time simulated clock)"
	default:
		desc.Device = otodev.New(otodev.Desc{})
	}
	e, err := voices.NewEngine(desc)
	if err != nil {
		return nil, fmt.Errorf("stress: audio engine: %w", err)
	}
	if mode != "offline" {
		if derr := e.Err(); derr != nil {
			if mode == "oto" {
				_ = e.Close()
				return nil, fmt.Errorf("stress: -audio oto: no sound device (without a sound card, point ALSA at a file; see -h): %w", derr)
			}
			// voices has logged oto's error in full.
			name = "offline (oto could not open a sound device)"
		}
	}
	_, off := e.Device().(*voices.Offline)
	a := &audio{engine: e, name: name, offline: off}
	if err := a.load(); err != nil {
		_ = e.Close()
		return nil, err
	}
	return a, nil
}

// load generates every sound into memory the stress tool owns and makes a
// bank and clip over each. All of it happens before the guard arms.
func (a *audio) load() error {
	for i, s := range append(soundSpecs[:len(soundSpecs):len(soundSpecs)], musicSpec) {
		mem, err := tones.Synth(s)
		if err != nil {
			return fmt.Errorf("stress: sound %d: %w", i, err)
		}
		bank, err := a.engine.NewBank(fmt.Sprintf("sound%d-%s", i, s.Format), mem)
		if err != nil {
			return fmt.Errorf("stress: bank %d: %w", i, err)
		}
		clip, err := bank.Clip(voices.ClipDesc{Format: s.Format})
		if err != nil {
			return fmt.Errorf("stress: clip %d: %w", i, err)
		}
		a.pcm = append(a.pcm, mem)
		a.banks = append(a.banks, bank)
		a.clips = append(a.clips, clip)
	}
	music := a.clips[len(a.clips)-1]
	h, err := a.engine.Play(music, voices.PlayDesc{Volume: 0.15, Loop: true, Protected: true, Priority: 100})
	if err != nil {
		return fmt.Errorf("stress: music: %w", err)
	}
	a.music = h
	return nil
}

// Sounds is the number of effects a worker may play (music excluded).
func (a *audio) Sounds() int { return len(soundSpecs) }

// Play starts effect sound. It allocates nothing on success; the engine's
// refusals come back as errQueueFull or errNoVoice, so a worker can tell
// them from a failure.
func (a *audio) Play(sound int, volume, pan float32) error {
	_, err := a.engine.Play(a.clips[sound], voices.PlayDesc{Volume: volume, Pan: pan, Priority: int16(sound)})
	// A switch on the value, as voices documents: Play returns its
	// refusals as the bare sentinels, and comparing them allocates nothing,
	// where errors.Is against a sentinel that does not match may (the
	// runtime fills a type-assertion cache).
	switch err {
	case nil:
		return nil
	case voices.ErrQueueFull:
		return errQueueFull
	case voices.ErrNoVoice:
		return errNoVoice
	}
	return err
}

// stopAll is the first teardown stage: no voice reads caller memory once
// it returns nil.
func (a *audio) stopAll() error {
	return a.engine.StopAll(time.Second)
}

// releaseBanks is the second: every bank proves it has no readers, then
// the memory is dropped.
func (a *audio) releaseBanks() error {
	var errs []error
	for _, b := range a.banks {
		if err := b.Release(time.Second); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) == 0 {
		a.pcm = nil
	}
	return errors.Join(errs...)
}

// close stops the device.
func (a *audio) close() error { return a.engine.Close() }
