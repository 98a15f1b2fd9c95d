// Package scene is the one scene that the stress tool (stress/) and the
// demo (cmd/demo/) both run, so that neither command keeps a copy of the
// other's setup:
//
//   - Arenas: the upload arena layout (renderer, sprites, particles; 4, 4
//     and 1 MiB per frame). The layout is a renderer's choice, not the
//     upload package's: upload keeps the mechanism, this package divides it.
//   - Textures: the texture population after the reference engine (a white
//     texel, the font atlas pages, 30 quality textures and a level of 194,
//     LoadedSlots in all) and its churn: font rebakes, quality swaps and
//     level transitions, allocation-free once loaded.
//   - Audio: the voices engine on oto or the offline device, the sound
//     banks (sounds/key.wav, embedded and read through voices/wav, and
//     synthesised tones in five more source formats) and the looping music.
//   - Render: the GL bootstrap (OpenWindow: a GLFW window, GL fences, the
//     persistently mapped upload buffer, gltex textures, the quad renderer,
//     Xvfb when there is no display) and the headless one (OpenHeadless).
//   - Plan: the shutdown order as a validated teardown.Plan.
//   - Options: the flags both commands take, parsed and checked with
//     the command's own, and NewLogger, the allocation-free log both
//     write.
//
// # Ownership
//
// Everything here belongs to the render goroutine that opened it (with a
// window, the main goroutine locked to the main OS thread with the GL
// context current), except Audio.Play, which any goroutine may call: it
// only enqueues into the engine's bounded command queue, and the engine's
// audio goroutine owns every voice. Arenas returns a new slice each call,
// owned by the caller; Options and the constants are plain values.
//
// # Lifetime
//
// A Render lives from OpenWindow or OpenHeadless until its Plan has run
// (Abort instead, when the start fails). Textures are made by NewTextures
// on the first frame and live until the Plan's textures-free stage; their
// slots are reclaimed when the clock drains. The Audio's bank memory (the
// embedded WAV file's PCM, which voices/wav returns as a view of the
// embedded bytes, and the synthesised tones) is read by the audio
// goroutine until the Plan's voices-stopall stage has returned and each
// bank's Release has proved it has no readers; nothing reads it after. The
// upload Set reserves scene.Reserved bytes at start-up and never more.
package scene
