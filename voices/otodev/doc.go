// Package otodev is the sound-card Device for package voices, on
// github.com/ebitengine/oto/v3. It uses one oto context per process and
// one oto.Player per Device, whose reader is the engine's mixer. It is the
// only package of voices that needs cgo (ALSA on Linux).
//
// Use it as the engine's device:
//
//	eng, err := voices.NewEngine(voices.EngineDesc{Device: otodev.New(otodev.Desc{})})
//
// If oto cannot open a sound card, NewEngine logs it and falls back to the
// offline device. It keeps oto's error for Engine.Err.
//
// A program that already made its oto context (oto allows one per process)
// hands it over instead, with the format it made it in:
//
//	dev := otodev.New(otodev.Desc{Context: ctx, ContextFormat: voices.DefaultDeviceFormat})
//
// The engine then makes one player on that context and never suspends or
// closes it. Ebitengine keeps its oto context to itself. With Ebitengine,
// use a voices.Pull as an Ebitengine player's source instead.
//
// # Ownership
//
// oto's mux goroutine is the audio goroutine: it alone reads the mixer.
// The engine calls Start and Close. Stats and Err are safe from any
// goroutine.
//
// # Lifetime
//
// oto allows one context per process. The first Device without
// Desc.Context opens it with its format and buffer size. Later ones must
// ask for the same ones (ErrFormatMismatch otherwise). An adopted context
// is the application's for its whole life; the Device only adds a player
// to it.
//
// No context is ever closed. Close detaches the Device's player and waits
// out a read in progress. So the mixer is not read after Close returns.
//
// # Latency
//
// A Play reaches the sound card within three buffers of BufferFrames and
// one mixer block: 3 × 512 + 256 frames, 37.3 ms at 48 kHz by default
// (MaxLatency). oto reads the mixer a player buffer (10.7 ms) at a time.
// So a Play waits up to one buffer for the next read. One more buffer may
// be queued ahead of it in oto's player. Then ALSA plays its own buffer, of
// the same size.
//
// An underrun (Stats' Underruns) is a read that came over a buffer after
// the device, playing at its rate, had played all it was handed: the
// sound card ran dry. A device without a clock (ALSA's null slave) never
// counts one; docs/audio-device.md measures both on a paced device.
package otodev
