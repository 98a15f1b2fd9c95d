// Package scene is the one scene that the stress tool (stress/) and the
// demo (cmd/demo/) both run. So neither command keeps a copy of the
// other's setup:
//
//   - Arenas: the upload arena layout (renderer, sprites, particles; 4, 4
//     and 1 MiB per frame). The layout is a renderer's choice, not the
//     upload package's. upload keeps the mechanism; this package divides
//     it.
//   - Textures: the texture population after the reference engine, and its
//     churn. The population is a white texel, the font atlas pages, 30
//     quality textures and a level of 194, LoadedSlots in all. The churn is
//     font rebakes, quality swaps and level transitions, allocation-free
//     once loaded.
//   - Audio: the voices engine on oto or the offline device, the sound
//     banks and the looping music. The banks are sounds/key.wav (embedded
//     and read through voices/wav) and synthesised tones in five more
//     source formats. The music is a stream: a WAV file written to a
//     temporary directory at start, read as it plays.
//   - Emitters: a few hundred looping positioned sounds that circle
//     points of the world around a walking listener. The engine mixes the
//     most audible. Doppler stays off, since pitched voices cost far more.
//   - Render: the GL bootstrap and the headless one (OpenHeadless).
//     OpenWindow brings up a GLFW window, GL fences, the persistently
//     mapped upload buffer, gltex textures and the quad renderer. It starts
//     Xvfb when there is no display.
//   - Plan: the shutdown order as a validated teardown.Plan.
//   - Options: the flags both commands take, parsed and checked with the
//     command's own. NewLogger is the allocation-free log both write.
//
// # Pitch
//
// One play in four on the sfx bus gets a random pitch, up to an octave
// either way. Half of those glide to a second pitch with SetPitch. A
// pitched voice is resampled alone. With the vector kernels it costs
// about 6 unpitched voices, and about 43 in the scalar build
// (steadyframe_scalar, or a CPU without AVX2 or NEON). The mixer renders
// at most 32 voices, the rest being virtual, and at most about half are
// sfx. So some four are pitched, about 2% of a core even in the scalar
// build, which a 2-core machine rendering with llvmpipe can spare. A
// quarter also leaves most sfx voices on the shared rate buses, the path
// the rest of the mix is measured on.
//
// # Ownership
//
// Everything here belongs to the render goroutine that opened it. With a
// window, that is the main goroutine, locked to the main OS thread with
// the GL context current. The exception is Audio.Play, which any goroutine
// may call. It only enqueues into the engine's bounded command queue, and
// the engine's audio goroutine owns every voice. Arenas returns a new
// slice each call, owned by the caller. Options and the constants are
// plain values.
//
// # Lifetime
//
// A Render lives from OpenWindow or OpenHeadless until its Plan has run.
// When the start fails, call Abort instead. NewTextures makes the textures
// on the first frame. They live until the Plan's textures-free stage.
// Their slots are reclaimed when the clock drains.
//
// The audio goroutine reads the Audio's bank memory until two things have
// happened. The Plan's voices-stopall stage has returned, and each bank's
// Release has proved it has no readers. Nothing reads it after. The bank
// memory is the embedded WAV file's PCM (a view of the embedded bytes,
// from voices/wav) and the synthesised tones. The music stream's decoder
// reads its file until the same stage closes the stream, then the file.
// The file is unlinked once open (on Unix), so a killed run leaves none.
// The upload Set reserves
// scene.Reserved bytes at start-up and never more.
package scene
