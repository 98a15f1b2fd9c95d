// Command demo shows how a renderer embeds steadyframe. It opens a GLFW
// window (OpenGL 4.5 core) with a few hundred sprites textured from the
// descriptor heap. Their vertices stream through the upload arenas every
// frame. Where a sprite hits a wall, sparks appear in a pools.Slots. Sounds
// play through voices/ on key presses (a WAV file read with voices/wav)
// and on each bounce.
//
// An on-screen panel shows:
//
//   - descriptor live/peak/capacity as a bar with the 75% and 90% warning
//     marks;
//   - the font atlas's slots;
//   - arena use per consumer (renderer, sprites, particles);
//   - the active voices;
//   - the emitters, the real and virtual sounds, the swaps between them
//     and the music stream's underruns.
//
// A world map in the bottom-left corner shows the scene's emitters from
// above (-emitters, 200 by default) around the walking listener. An
// emitter is lit while the mixer mixes it and dim while it is virtual.
//
// It runs the scene it shares with the stress tool (internal/scene). That
// is the same upload arena layout, texture population and churn, sound
// banks, GL and audio bootstrap, flags and teardown plan.
//
//	go run ./cmd/demo
//	go run ./cmd/demo -frames 200 -auto -screenshot out.png
//
// Without a display (DISPLAY unset) the demo starts Xvfb itself and draws
// with Mesa's llvmpipe. So the screenshot run works on a headless machine
// with xvfb installed.
//
// Keys:
//
//   - Q swaps the 30 sprite textures between low and high quality. All 30
//     slots are freed and recycled.
//   - R, or resizing the window, rebakes the font atlas at a new scale. Its
//     page slots are freed and recycled, and the panel shows which slots
//     the pages now use.
//   - Space plays a sound.
//   - Escape quits.
//
// -auto presses them by itself.
//
// -sprite-path array draws the sprites from a texture array
// (descriptors/glarray) in one draw a frame, instead of binding a texture
// per draw. The demo logs the draw calls and GPU time of either path at
// exit.
//
// The performance overlay, down the right edge, graphs the last 240
// frames. It shows descriptor occupancy (live and pending stacked, the
// high-water mark, the 75% and 90% lines), frame time, upload arena use
// and active voices. Below them is the slot map, one cell per descriptor
// slot (live, pending, free, never used). Each graph is one draw call of
// quads streamed through the renderer arena. Nothing allocates per frame.
//
// Three keys push a budget past its limit, so it can be watched filling
// and recovering:
//
//   - L leaks a level's textures every quarter second until the heap
//     refuses. Pressed again, it frees them.
//   - V plays 300 sounds in one frame.
//   - U floods the upload arenas for two seconds.
//
// -keys L@20,V@100 presses keys at given frames, for screenshots and
// tests.
//
// # Ownership
//
// The main goroutine is the render goroutine. It is locked to the main OS
// thread with the GL context current. It owns the scene's Render (the
// frame clock, the upload Set, the texture manager and its heap), the
// textures, the sprites, the particles' Slots and the panel. The voices
// engine's audio goroutine owns the voices. The render goroutine reaches
// it only through Engine.Play.
//
// # Lifetime
//
// The first frame creates the textures. Each frame begins on the frame
// clock. The clock reclaims the slots whose frames have completed and
// opens the arenas. The demo writes sprites, particles and panel into them
// and draws them. Sparks live in their Slots from a burst until their life
// runs out; the frame's walk releases them.
//
// At exit the scene's teardown plan (lifetime/teardown) runs, and logs,
// the explicit order:
//
//  1. voices StopAll, then the sound memory, then the audio device;
//  2. textures freed;
//  3. the frame clock drained (GL textures deleted);
//  4. the texture Manager closed;
//  5. the upload buffer unmapped;
//  6. the clock closed;
//  7. the GL context destroyed last.
package main
