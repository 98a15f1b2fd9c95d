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

// Sounds the demo plays.
const (
	soundKey    = iota // a key press
	soundBounce        // a sprite hitting a wall
	soundMusic         // the protected loop
	soundCount
)

var soundTones = [soundCount]tones.Tone{
	soundKey:    {Format: voices.Format{Rate: 48000, Channels: 2, Encoding: voices.EncodingFloat32LE}, Freq: 523.25, Length: 250 * time.Millisecond},
	soundBounce: {Format: voices.Format{Rate: 22050, Channels: 1, Encoding: voices.EncodingInt16LE}, Freq: 1200, Length: 40 * time.Millisecond, Level: 0.4},
	soundMusic:  {Format: voices.Format{Rate: 44100, Channels: 2, Encoding: voices.EncodingInt16LE}, Freq: 110, Length: time.Second, Loop: true, Level: 0.3},
}

// sound is the demo's audio: a voices engine (oto, or the offline device)
// and the PCM memory its banks view, which the demo owns and releases only
// after StopAll has proved no voice reads it. play is safe from any
// goroutine; the rest belongs to the render goroutine.
type sound struct {
	engine  *voices.Engine
	pcm     [soundCount][]byte
	banks   [soundCount]*voices.Bank
	clips   [soundCount]voices.Clip
	refused uint64
}

func newSound(mode string, logger *slog.Logger) (*sound, error) {
	desc := voices.EngineDesc{Policy: voices.PolicySteal, Logger: logger}
	if mode == "offline" {
		desc.Device = voices.NewOffline(voices.OfflineDesc{RealTime: true})
	} else {
		desc.Device = otodev.New(otodev.Desc{})
	}
	e, err := voices.NewEngine(desc)
	if err != nil {
		return nil, fmt.Errorf("demo: audio: %w", err)
	}
	if mode == "oto" && e.Err() != nil {
		err := e.Err()
		_ = e.Close()
		return nil, fmt.Errorf("demo: -audio oto: %w", err)
	}
	s := &sound{engine: e}
	for i, t := range soundTones {
		if s.pcm[i], err = tones.Synth(t); err != nil {
			_ = e.Close()
			return nil, err
		}
		if s.banks[i], err = e.NewBank(fmt.Sprintf("demo-%d", i), s.pcm[i]); err != nil {
			_ = e.Close()
			return nil, err
		}
		if s.clips[i], err = s.banks[i].Clip(voices.ClipDesc{Format: t.Format}); err != nil {
			_ = e.Close()
			return nil, err
		}
	}
	if _, err := e.Play(s.clips[soundMusic], voices.PlayDesc{Loop: true, Protected: true, Priority: 100, Volume: 0.5}); err != nil {
		_ = e.Close()
		return nil, fmt.Errorf("demo: music: %w", err)
	}
	return s, nil
}

// play starts sound i; a refusal is counted, never fatal.
func (s *sound) play(i int, volume, pan float32) {
	if _, err := s.engine.Play(s.clips[i], voices.PlayDesc{Volume: volume, Pan: pan, Priority: int16(i)}); err != nil {
		s.refused++
	}
}

// stopAll, releaseBanks and close are the audio side's teardown stages,
// in this order.
func (s *sound) stopAll() error { return s.engine.StopAll(time.Second) }

func (s *sound) releaseBanks() error {
	var errs []error
	for _, b := range s.banks {
		if err := b.Release(time.Second); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) == 0 {
		s.pcm = [soundCount][]byte{}
	}
	return errors.Join(errs...)
}

func (s *sound) close() error { return s.engine.Close() }
