package scene

import (
	_ "embed"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/steadyframe/steadyframe/internal/tones"
	"github.com/steadyframe/steadyframe/voices"
	"github.com/steadyframe/steadyframe/voices/otodev"
	"github.com/steadyframe/steadyframe/voices/wav"
)

// keyWAV is the key-press chime, a committed WAV file loaded through
// voices/wav as a game loads its sound files. gen_test.go made it and
// checks that it still matches (go test ./internal/scene -run
// TestKeyWAV -update rewrites it).
//
//go:embed sounds/key.wav
var keyWAV []byte

// The scene's effects, by index for Audio.Play. Each is in its own source
// format, so playing them at random runs every converter and the
// resampler in the mixer.
const (
	SoundKey    = iota // a key press: sounds/key.wav, 44100 Hz mono int16
	SoundBounce        // a sprite hitting a wall
	soundA440
	soundA880
	soundC550
	soundA220
	// Effects is the number of effects; Play takes 0..Effects-1.
	Effects
)

// effectTones are the synthesised effects (SoundKey is the WAV file).
var effectTones = [Effects]tones.Tone{
	SoundBounce: {Format: voices.Format{Rate: 22050, Channels: 1, Encoding: voices.EncodingInt16LE}, Freq: 1200, Length: 40 * time.Millisecond, Level: 0.4},
	soundA440:   {Format: voices.Format{Rate: 48000, Channels: 2, Encoding: voices.EncodingFloat32LE}, Freq: 440, Length: 120 * time.Millisecond},
	soundA880:   {Format: voices.Format{Rate: 44100, Channels: 2, Encoding: voices.EncodingFloat32LE}, Freq: 880, Length: 60 * time.Millisecond},
	soundC550:   {Format: voices.Format{Rate: 48000, Channels: 1, Encoding: voices.EncodingInt16LE}, Freq: 550, Length: 150 * time.Millisecond},
	soundA220:   {Format: voices.Format{Rate: 22050, Channels: 2, Encoding: voices.EncodingInt16LE}, Freq: 220, Length: 300 * time.Millisecond},
}

// musicTone is the music's tone. Its one-second loop is the probes' clip
// (PlayProbe); the music itself streams MusicLength of it from a file
// (music.go).
var musicTone = tones.Tone{Format: voices.Format{Rate: 44100, Channels: 2, Encoding: voices.EncodingInt16LE},
	Freq: 110, Length: time.Second, Loop: true, Level: 0.4}

// sceneBuses are the buses a game would have: the world's effects
// under "world" (what a pause menu pauses), the interface's on "ui",
// the music on "music", ducked while the interface sounds.
var sceneBuses = []voices.BusDesc{
	{Name: "world"}, {Name: "sfx", Parent: "world"}, {Name: "ui"},
	{Name: "music", Duck: voices.DuckDesc{By: "ui", Depth: 6, Attack: 20 * time.Millisecond, Release: 200 * time.Millisecond}},
}

// soundBus is the bus each effect plays on.
var soundBus = [Effects + 1]string{SoundKey: "ui", SoundBounce: "sfx", soundA440: "sfx", soundA880: "sfx", soundC550: "ui", soundA220: "music", Effects: "music"}

// soundCooldown keeps an effect from restarting within this long of its
// last start (a Play within it returns voices.ErrCooldown).
var soundCooldown = [Effects + 1]time.Duration{SoundBounce: 20 * time.Millisecond, soundA880: 10 * time.Millisecond}

// Audio is the scene's sound side: one voices.Engine, whose audio
// goroutine (oto's, or the offline device's) owns every voice, and the
// memory its banks view: the embedded WAV file's PCM and the synthesised
// tones. Play is safe from any goroutine (it only enqueues into the
// engine's bounded command queue); the rest belongs to the goroutine that
// opened it.
type Audio struct {
	Engine *voices.Engine
	// Name says which device plays: "oto" or "offline (...)".
	Name string
	// Offline reports that the engine plays on voices.Offline.
	Offline bool
	// Music is the looping voice Open started.
	Music voices.Handle

	// World is the bus of the world's effects (PauseBus pauses them).
	World voices.Bus

	banks [Effects + 1]*voices.Bank
	clips [Effects + 1]voices.Clip
	buses [Effects + 1]voices.Bus
	sfx   voices.Bus
	pitch pitcher // the sfx plays' random pitches: pitch.go

	// Emitters (emitters.go): their loops' banks and clips.
	emitBanks [len(emitterTones)]*voices.Bank
	emitClips [len(emitterTones)]voices.Clip

	// The streamed music (music.go).
	music music
}

// OpenAudio opens the engine on the device mode asks for. "oto" must open
// the sound card (ALSA on Linux; point it at a file on a machine without
// one). "offline" renders on a real-time simulated clock. "auto" tries oto
// and lets the engine fall back. OpenAudio loads the effects and the music
// into banks and starts the music. It allocates everything Play needs.
func OpenAudio(mode string, logger *slog.Logger) (*Audio, error) {
	desc := voices.EngineDesc{Policy: voices.PolicySteal, Logger: logger, Buses: sceneBuses}
	emitterEngine(&desc)
	name := "oto"
	if mode == "offline" {
		desc.Device = voices.NewOffline(voices.OfflineDesc{RealTime: true})
		name = "offline (real-time simulated clock)"
	} else {
		desc.Device = otodev.New(otodev.Desc{})
	}
	e, err := voices.NewEngine(desc)
	if err != nil {
		return nil, fmt.Errorf("scene: audio engine: %w", err)
	}
	if mode != "offline" {
		if derr := e.Err(); derr != nil {
			if mode == "oto" {
				_ = e.Close()
				return nil, fmt.Errorf("scene: -audio oto: no sound device (without a sound card, point ALSA at a file; see -h): %w", derr)
			}
			// voices has logged oto's error in full.
			name = "offline (oto could not open a sound device)"
		}
	}
	_, off := e.Device().(*voices.Offline)
	a := &Audio{Engine: e, Name: name, Offline: off}
	if err := a.load(); err != nil {
		_ = a.Close()
		return nil, err
	}
	return a, nil
}

// load makes a bank and a clip over each sound. All of it happens before
// any frame runs.
func (a *Audio) load() error {
	for i := range a.banks {
		var f voices.Format
		var mem []byte
		var err error
		switch i {
		case SoundKey:
			f, mem, err = wav.Parse(keyWAV)
		case Effects:
			f = musicTone.Format
			mem, err = tones.Synth(musicTone)
		default:
			f = effectTones[i].Format
			mem, err = tones.Synth(effectTones[i])
		}
		if err != nil {
			return fmt.Errorf("scene: sound %d: %w", i, err)
		}
		bank, err := a.Engine.NewBank(fmt.Sprintf("sound%d-%s", i, f), mem)
		if err != nil {
			return fmt.Errorf("scene: bank %d: %w", i, err)
		}
		clip, err := bank.Clip(voices.ClipDesc{Format: f, Cooldown: soundCooldown[i]})
		if err != nil {
			return fmt.Errorf("scene: clip %d: %w", i, err)
		}
		a.banks[i], a.clips[i] = bank, clip
		a.buses[i], _ = a.Engine.Bus(soundBus[i])
	}
	a.World, _ = a.Engine.Bus("world")
	a.sfx, _ = a.Engine.Bus("sfx")
	if err := a.loadEmitterClips(); err != nil {
		return err
	}
	if err := a.openMusic(); err != nil {
		return err
	}
	h, err := a.Engine.Play(a.music.stream.Clip(), voices.PlayDesc{Volume: 0.3, Loop: true, Protected: true, Priority: 100, Bus: a.buses[Effects]})
	if err != nil {
		return fmt.Errorf("scene: music: %w", err)
	}
	a.Music = h
	// Wait for the mixer to start the music: a StopAll before its first
	// block would cancel it, and a caller that counts the plays StopAll
	// cancels (the stress tool) would count one it never made.
	return a.waitStarted("music")
}

// waitStarted returns once every Play queued before the call has been
// applied: it waits for the mixer to run two blocks, the second of which
// began after the call and so drained the queue first. The count is taken
// here, after the Plays: counted from before them, a fast (unpaced)
// device could run its two blocks while a long run of Plays was still
// being queued (a race-instrumented NewEmitters queueing 500 took longer
// than two blocks), and StopAll would cancel the rest, which a caller
// counting the Plays StopAll cancels (the stress tool) would count as
// ones it never made. It fails with ErrMixerStalled after startWait.
func (a *Audio) waitStarted(what string) error {
	blocks := a.Engine.Stats().Blocks
	start := time.Now()
	for a.Engine.Stats().Blocks < blocks+2 {
		if time.Since(start) > startWait {
			return fmt.Errorf("%w: the mixer ran %d blocks in %v after the %s were queued, want 2",
				ErrMixerStalled, a.Engine.Stats().Blocks-blocks, startWait, what)
		}
		time.Sleep(time.Millisecond)
	}
	return nil
}

// startWait bounds waitStarted.
const startWait = 30 * time.Second

// Effects returns the number of effects Play takes.
func (a *Audio) Effects() int { return Effects }

// Play starts effect sound (0..Effects-1) at volume (0..1; 0 means 1) and
// pan (-1..1), with the effect's index as its priority, on the effect's
// bus (sfx, ui or music); one sfx play in four has a random pitch
// (pitch.go). It allocates nothing, refusals included: those
// are the engine's bare sentinels (voices.ErrNoVoice, voices.ErrCooldown,
// voices.ErrQueueFull, voices.ErrClosed), to be told
// apart by comparing the value (a switch), never errors.Is against a
// sentinel that may not match, which can allocate.
func (a *Audio) Play(sound int, volume, pan float32) error {
	d := voices.PlayDesc{Volume: volume, Pan: pan, Priority: int16(sound), Bus: a.buses[sound]}
	if d.Bus == a.sfx {
		_, _, err := a.playPitched(a.clips[sound], d)
		return err
	}
	_, err := a.Engine.Play(a.clips[sound], d)
	return err
}

// StopAll is the first audio teardown stage: once it returns nil no voice
// reads any bank's memory.
func (a *Audio) StopAll() error { return a.Engine.StopAll(time.Second) }

// ReleaseBanks is the second: every bank proves it has no readers and
// refuses new voices from then on, so nothing reads the memory again.
func (a *Audio) ReleaseBanks() error {
	var errs []error
	for _, b := range append(a.banks[:], a.emitBanks[:]...) {
		if err := b.Release(time.Second); err != nil {
			errs = append(errs, err)
		}
	}
	errs = append(errs, a.closeMusic())
	return errors.Join(errs...)
}

// Close stops the device, the last audio stage. Without the stages
// before it (a failed start), it also closes the music stream and file.
func (a *Audio) Close() error {
	err := a.Engine.Close()
	if a.music.stream == nil || a.music.closed {
		return errors.Join(err, a.music.drop())
	}
	return errors.Join(err, a.closeMusic())
}
