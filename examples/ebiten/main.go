// Command ebiten plays sound through package voices inside an Ebitengine
// game. Ebitengine owns the process's audio output (its oto context), so
// the voices engine does not open one. It renders into a voices.Pull
// instead. An Ebitengine player reads that like any float32 stereo
// stream. The game plays a looping 440 Hz tone for -frames frames. It
// stops the tone with StopAll, after which the tone's memory is the
// game's again, and exits.
//
//	go run . -frames 120
//
// It is a separate module, so it can only use the library's public API.
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"image/color"
	"log"
	"math"
	"os"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/audio"

	"github.com/steadyframe/steadyframe/voices"
)

// sampleRate is Ebitengine's audio rate, and so the engine's device rate:
// NewPlayerF32 reads float32 stereo at the context's rate, which is
// voices.DefaultDeviceFormat at 48 kHz.
const sampleRate = 48000

func main() {
	frames := flag.Int("frames", 120, "game frames (60 a second) to play the tone for before exiting")
	flag.Parse()
	if *frames < 1 {
		fmt.Fprintln(os.Stderr, "ebiten: -frames must be at least 1")
		os.Exit(2)
	}
	if err := run(*frames); err != nil {
		log.Fatal(err)
	}
}

func run(frames int) error {
	// The engine renders into pull; Ebitengine's player pulls it from its
	// own audio goroutine, which thereby becomes the mixer's.
	// The Pull is told the context's rate, so the engine renders at it.
	pull := voices.NewPull(sampleRate)
	eng, err := voices.NewEngine(voices.EngineDesc{Device: pull, Buses: []voices.BusDesc{{Name: "music"}, {Name: "sfx"}}})
	if err != nil {
		return err
	}
	defer eng.Close()
	player, err := audio.NewContext(sampleRate).NewPlayerF32(pull)
	if err != nil {
		return err
	}
	defer player.Close()
	// Ebitengine's default buffer is half a second, pulled at once: every
	// Play queued in it would start in the same block.
	player.SetBufferSize(50 * time.Millisecond)
	player.Play()

	pcm := sine(44100, 440, 0.5) // the game's memory: voices plays it in place
	tone, err := eng.NewClip("tone", pcm, voices.Format{Rate: 44100, Channels: 1, Encoding: voices.EncodingInt16LE})
	if err != nil {
		return err
	}
	ebiten.SetWindowSize(320, 240)
	ebiten.SetWindowTitle("voices through Ebitengine")
	music, _ := eng.Bus("music")
	sfx, _ := eng.Bus("sfx")
	g := &game{eng: eng, tone: tone, limit: frames, music: music, sfx: sfx}
	if err := ebiten.RunGame(g); err != nil {
		return err
	}
	fmt.Printf("played a 440 Hz tone for %d frames; %v\n", g.frames, eng.Stats().Device)
	return eng.Close()
}

// game starts the tone on its first frame and ends the run on its last.
type game struct {
	eng    *voices.Engine
	tone   voices.Clip
	frames int
	limit  int
	// The tone plays on two buses, half its volume on each: a game's
	// music and effects sliders are SetBusGain on them.
	music, sfx voices.Bus
}

func (g *game) Update() error {
	g.frames++
	if g.frames == 1 {
		for _, b := range []voices.Bus{g.music, g.sfx} {
			if _, err := g.eng.Play(g.tone, voices.PlayDesc{Loop: true, Volume: 0.5, Bus: b}); err != nil {
				return err
			}
		}
	}
	if g.frames < g.limit {
		return nil
	}
	// No voice reads the tone's memory once StopAll returns nil.
	if err := g.eng.StopAll(time.Second); err != nil {
		return err
	}
	return ebiten.Termination
}

func (g *game) Draw(screen *ebiten.Image) { screen.Fill(color.RGBA{0x20, 0x30, 0x40, 0xff}) }

func (g *game) Layout(int, int) (int, int) { return 320, 240 }

// sine returns one second of a tone of freq Hz at amplitude amp, 16-bit
// mono at rate Hz: a whole number of cycles, so it loops seamlessly.
func sine(rate int, freq, amp float64) []byte {
	pcm := make([]byte, 2*rate)
	for i := range rate {
		s := amp * math.Sin(2*math.Pi*freq*float64(i)/float64(rate))
		binary.LittleEndian.PutUint16(pcm[2*i:], uint16(int16(math.Round(s*32767))))
	}
	return pcm
}
