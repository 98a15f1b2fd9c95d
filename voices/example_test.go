package voices_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"github.com/steadyframe/steadyframe/voices"
)

// sine returns a second of a 440 Hz tone, 16-bit mono at 44.1 kHz.
func sine() []byte {
	pcm := make([]byte, 44100*2)
	for i := 0; i < 44100; i++ {
		s := 0.5 * math.Sin(2*math.Pi*440*float64(i)/44100)
		binary.LittleEndian.PutUint16(pcm[2*i:], uint16(int16(s*32767)))
	}
	return pcm
}

// A game loads its sounds into a bank (no copy), plays them from any
// goroutine, and proves the memory free with StopAll before reusing it.
// The offline device stands in for the sound card (otodev.New).
func Example() {
	dev := voices.NewOffline(voices.OfflineDesc{})
	eng, err := voices.NewEngine(voices.EngineDesc{Device: dev})
	if err != nil {
		panic(err)
	}
	defer eng.Close()

	pcm := sine() // the game owns this memory
	bank, _ := eng.NewBank("ui", pcm)
	beep, _ := bank.Clip(voices.ClipDesc{Format: voices.Format{Rate: 44100, Channels: 1, Encoding: voices.EncodingInt16LE}})

	h, err := eng.Play(beep, voices.PlayDesc{Volume: 0.8, Pan: -0.5})
	if err != nil {
		panic(err)
	}
	out := make([]byte, 4800*8) // 100 ms of the device's float32 stereo
	_, _ = dev.Render(out)      // the audio goroutine pulls
	fmt.Println("playing:", eng.Playing(h))

	// Nothing pulls this device any more, as if the sound card had died:
	// StopAll takes its fallback after 75 ms and still proves the memory
	// free.
	if err := eng.StopAll(100 * time.Millisecond); err != nil {
		panic(err)
	}
	clear(pcm) // safe: no voice reads it any more
	fmt.Println("playing after StopAll:", eng.Playing(h), "readers:", bank.Readers())
	// Output:
	// playing: true
	// playing after StopAll: false readers: 0
}

// Release proves a bank's memory free once its voices have ended, or says
// which voices still read it.
func ExampleBank_Release() {
	dev := voices.NewOffline(voices.OfflineDesc{})
	eng, _ := voices.NewEngine(voices.EngineDesc{Device: dev})
	defer eng.Close()
	bank, _ := eng.NewBank("level1", sine())
	music, _ := bank.Clip(voices.ClipDesc{Format: voices.Format{Rate: 44100, Channels: 1, Encoding: voices.EncodingInt16LE}})
	h, _ := eng.Play(music, voices.PlayDesc{Loop: true, Protected: true})
	_, _ = dev.Render(make([]byte, 256*8))

	err := bank.Release(10 * time.Millisecond)
	fmt.Println(err != nil, bank.Readers())

	_ = eng.Stop(h)
	_, _ = dev.Render(make([]byte, 256*8)) // the fade ends within a block
	fmt.Println(bank.Release(10*time.Millisecond), bank.Readers())
	// Output:
	// true 1
	// <nil> 0
}

// RenderWAV writes what the engine plays to a WAV file, on the simulated
// clock.
func ExampleOffline_RenderWAV() {
	dev := voices.NewOffline(voices.OfflineDesc{})
	eng, _ := voices.NewEngine(voices.EngineDesc{Device: dev})
	defer eng.Close()
	bank, _ := eng.NewBank("tone", sine())
	c, _ := bank.Clip(voices.ClipDesc{Format: voices.Format{Rate: 44100, Channels: 1, Encoding: voices.EncodingInt16LE}})
	_, _ = eng.Play(c, voices.PlayDesc{})

	var wav bytes.Buffer
	if err := dev.RenderWAV(&wav, 48000); err != nil {
		panic(err)
	}
	fmt.Println(wav.Len(), string(wav.Bytes()[:4]), string(wav.Bytes()[8:12]), dev.Clock())
	// Output:
	// 384058 RIFF WAVE 1s
}

// A game that skips a sound when the mixer is full tells the refusals
// apart by value: each is the bare sentinel, so neither the refusal nor
// the switch allocates in a steady frame. What the error leaves out is in
// Stats.LastRefusal.
func ExampleEngine_Play_refused() {
	eng, _ := voices.NewEngine(voices.EngineDesc{Device: voices.NewOffline(voices.OfflineDesc{}), MaxVoices: 1})
	defer eng.Close()
	f := voices.Format{Rate: 44100, Channels: 1, Encoding: voices.EncodingInt16LE}
	beep, _ := eng.NewClip("beep", sine(), f)

	for i := 0; i < 2; i++ {
		switch _, err := eng.Play(beep, voices.PlayDesc{}); err {
		case nil:
			fmt.Println("playing")
		case voices.ErrNoVoice, voices.ErrQueueFull:
			fmt.Println("skipped:", eng.Stats().LastRefusal)
		default:
			panic(err) // a bug: a bad volume, a released bank, ...
		}
	}
	// Output:
	// playing
	// skipped: Play of a 44100Hz/1ch/s16le clip: voices: no voice free (every voice the caps allow is busy)
}

// A Pull device is read by whatever already runs the application's audio;
// here the example pulls it itself. With Ebitengine:
//
//	player, err := audioContext.NewPlayerF32(pull)
func ExampleNewPull() {
	pull := voices.NewPull(48000)
	eng, err := voices.NewEngine(voices.EngineDesc{Device: pull})
	if err != nil {
		panic(err)
	}
	beep, _ := eng.NewClip("beep", sine(), voices.Format{Rate: 44100, Channels: 1, Encoding: voices.EncodingInt16LE})
	if _, err := eng.Play(beep, voices.PlayDesc{}); err != nil {
		panic(err)
	}
	buf := make([]byte, 4800*8) // 100 ms of float32 stereo at 48 kHz
	n, err := pull.Read(buf)
	fmt.Println(n, err, math.Float32frombits(binary.LittleEndian.Uint32(buf[8*100:])) != 0)

	if err := eng.Close(); err != nil {
		panic(err)
	}
	n, err = pull.Read(buf)
	fmt.Println(n, err)
	// Output:
	// 38400 <nil> true
	// 0 EOF
}
