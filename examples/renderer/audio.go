package main

import (
	"encoding/binary"
	"math"

	"github.com/steadyframe/steadyframe/voices"
	"github.com/steadyframe/steadyframe/voices/otodev"
)

const (
	toneEvery = 40 // frames between tones
	toneCount = 3  // tones played in a run
)

// audio plays a short tone a few times through voices on the sound card
// (otodev). Without a sound card NewEngine logs a warning and falls back
// to the silent offline device, and the example runs the same way.
type audio struct {
	eng   *voices.Engine
	bank  *voices.Bank
	tone  voices.Clip
	pcm   []byte // the application's memory: the mixer reads it in place until the bank is released
	plays int
}

func newAudio() (*audio, error) {
	eng, err := voices.NewEngine(voices.EngineDesc{Device: otodev.New(otodev.Desc{})})
	if err != nil {
		return nil, err
	}
	a := &audio{eng: eng, pcm: tone(48000, 660, 0.15)}
	if a.bank, err = eng.NewBank("tones", a.pcm); err == nil {
		a.tone, err = a.bank.Clip(voices.ClipDesc{
			Format: voices.Format{Rate: 48000, Channels: 1, Encoding: voices.EncodingInt16LE}})
	}
	if err != nil {
		_ = eng.Close()
		return nil, err
	}
	return a, nil
}

// tick plays the tone every toneEvery frames until it has played
// toneCount times. Play only enqueues a command (no allocation, no
// blocking); the audio goroutine starts the voice at its next block.
func (a *audio) tick(f int) error {
	if f%toneEvery != 0 || a.plays == toneCount {
		return nil
	}
	switch _, err := a.eng.Play(a.tone, voices.PlayDesc{Volume: 0.5}); err {
	case nil:
		a.plays++
	case voices.ErrNoVoice, voices.ErrQueueFull:
		// A beep skipped under load is not worth failing a frame for.
	default:
		return err
	}
	return nil
}

// tone returns seconds of a sine at freq Hz, 16-bit mono at rate Hz, with
// a short fade in and out so it starts and ends without a click.
func tone(rate int, freq, seconds float64) []byte {
	n := int(float64(rate) * seconds)
	pcm := make([]byte, 2*n)
	for i := range n {
		env := math.Min(1, math.Min(float64(i), float64(n-i))/(0.005*float64(rate)))
		s := 0.5 * env * math.Sin(2*math.Pi*freq*float64(i)/float64(rate))
		binary.LittleEndian.PutUint16(pcm[2*i:], uint16(int16(math.Round(s*32767))))
	}
	return pcm
}
