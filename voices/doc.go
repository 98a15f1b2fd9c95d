// Package voices plays PCM clips through one mixer without allocating or
// copying in the steady state, and makes the lifetime of the caller's
// sample memory explicit.
//
// An Engine owns one mixer, which a Device pulls as an io.Reader: the
// sound card through package otodev (one oto.Player whose reader is the
// mixer, on the process's oto context or on one the application made); a
// Pull, which an audio system the application already runs reads like
// any other stream (an Ebitengine player made with NewPlayerF32); or the
// Offline device, which pulls on a simulated clock and can render to a
// WAV file. Voices are pooled per source format (Format: rate × channels
// × encoding; any integer rate from 8 to 192 kHz), for the formats the
// engine declares when it is made (EngineDesc.Formats; DefaultFormats,
// 36 of them, unless told), each preconfigured with its converter and
// resampler, so Play never builds a table, under a total cap (32 by default) and optional per-format
// caps. When no voice is free, the Policy chosen at construction refuses
// (ErrNoVoice) or steals by priority, then age, never a protected voice.
// Stop, steal and StopAll fade out over a few milliseconds; volume and
// pan changes are ramped over a block; the mix goes through a master gain
// and the limiter. The same commands at the same block positions give
// bit-identical output.
//
// A game's grouping is the bus (bus.go): a fixed tree declared in
// EngineDesc.Buses under Master, each voice on one, each bus with a
// ramped gain, mute, pause, a stop with a fade, an optional voice cap and
// optional ducking by another bus's level. Voices and buses pause and
// resume at the frame (a paused voice keeps its position and is not
// mixed), fade to a level over a time (linear in amplitude, exact to the
// frame), and a voice may start at a frame of the engine's sample clock
// (Engine.Clock) and at an offset into its clip. Clips may cap their
// instances and set a cooldown (limits.go). With EngineDesc.Events, the
// end of every voice (ended, stopped, stolen, refused) is queued once on
// a bounded syncs.Queue that the game drains with PollEvent.
//
// A Handle names a voice by slot and generation, with pools' conventions:
// the zero Handle is "none", String reads "slot N gen G", and a slot whose
// generations are spent is retired for good (Stats.Retired) rather than
// reissued. voices keeps its own slot table instead of a pools.Pool
// because Play reserves a slot on whichever game goroutine calls it, many
// at once, while the audio goroutine frees slots: a Pool belongs to one
// goroutine, and a lock around it would let one Play queue behind
// another (and allocate a waiter) in a steady frame. The table is a
// lock-free stack per format with atomic generations.
//
// # Sound
//
// A source at another rate than the device's is resampled by a
// band-limited polyphase FIR (ResamplerSinc, the default): a
// Kaiser-windowed sinc of 48 source frames (96 for 88.2 and 96 kHz
// sources, whose cutoff moves down to the device's Nyquist frequency),
// evaluated at the exact rational phase of every device frame, from
// tables built when the engine starts and shared by every engine of the
// process (a rate whose exact ratio would need more than 4096 phases,
// such as 44101 Hz, takes the same filter at 512 phases interpolated, at
// a 32.32 position: the same THD+N, but scalar code, 0.24 to 0.58 ms per
// 1024 frames for each such rate on the development machine, where a
// whole 32-voice mix of the default rates takes 0.05 ms).
// The voices of one source rate share one filter: summed at the source
// rate, filtered once (see ResamplerSinc for how their starts are
// quantised). From 22050 or 44100 Hz to 48 kHz the THD+N of a -6 dBFS 1 kHz
// tone is about -105 dB from float sources (-91.6 dB from 16-bit ones,
// their own quantisation); a 10 kHz tone from 22050 Hz comes out 0.3 dB
// low with its images more than 100 dB down. The filter is linear phase
// with no delay, so voices of every rate stay aligned; it reads across a
// loop seam from the loop's start, plays the band-limited onset and tail
// of a one-shot clip (a voice ends half a window after its last frame),
// and keeps a fixed-size state per voice. ResamplerLinear (EngineDesc)
// interpolates linearly instead, at about a quarter of the cost
// (BenchmarkMix32), for effects where the dull top octave and the images
// do not matter.
//
// A voice played with PlayDesc.Pitch (0.25 to 4) is resampled alone, not
// on its rate's shared filter. SetPitch changes it, the step ramped
// linearly across one block. Its filter is the same windowed sinc, at 512
// interpolated phases. Pitched up past the device rate, the cutoff drops
// with the ratio. The ratios are quantised to 1, 1.25, 1.5 and 1.75 per
// octave, each a table built by NewEngine. So nothing aliases, and the
// cutoff sits at most 20% low. Its filter has AVX2 kernels (scalar on
// arm64): 32 pitched voices cost about 6 times the unpitched mix
// (BenchmarkMix32). SetPitch on a voice played without a pitch returns
// ErrNotPitched.
//
// The output is protected by a look-ahead peak limiter, which delays the
// mix by 1.5 ms (72 frames at 48 kHz, counted in Stats.DeviceLatency):
// while every sample is within full scale it does nothing but delay, bit
// for bit (music mastered to -0.1 dBFS plays untouched); before a frame
// that would pass full scale the gain ramps down over the look-ahead, so
// that the over leaves just under full scale (-0.0085 dB) and no sample
// is pinned at it, and the gain recovers with a 50 ms time constant. A centred mono voice
// plays at unity on a mono device (its pan is a balance there).
//
// The inner loops live in an internal package (voices/internal/dsp),
// which users never import. Which CPU runs which:
//
//   - amd64 with AVX2: AVX2 assembly for every loop; with AVX-512F too,
//     AVX-512 for the sinc's group kernels (16 consecutive outputs, one
//     per lane) and the linear resamplers when upsampling. Chosen once,
//     at run time, with golang.org/x/sys/cpu. The assembly is generated
//     by one avo program.
//   - arm64: NEON assembly for the sinc's group filter (upsampling to
//     48 taps, the default's common case), plain Go for the rest. Its
//     speed is not measured here (no arm64 machine): it executes about
//     a tenth of the scalar filter's instructions per frame under
//     qemu-aarch64 (docs/kernels.md).
//   - Everything else, amd64 without AVX2, and builds with the
//     steadyframe_scalar tag: plain Go.
//
// The Go loops are the reference: the vector ones give the same bits,
// which the tests check on hostile input too, and the Go code keeps
// every multiply-add unfused (explicit float32 conversions, where Go
// would fuse them on arm64 and with GOAMD64=v3). So the mix does not
// depend on the CPU: the same commands render the same bits on amd64
// (GOAMD64=v1 or v3, vector or scalar) and arm64 (TestRenderGolden
// holds their hashes). Every amd64 routine clears the upper vector bits
// (VZEROUPPER) before it returns.
//
// # Ownership
//
// The mixer, and every voice in it, belongs to the audio goroutine: the
// one the device pulls from. That is oto's goroutine with otodev, the
// real-time loop of a real-time Offline device, the caller of Render on a
// manual one, and whichever goroutine calls Read on a Pull (with an
// Ebitengine player, oto's goroutines inside Ebitengine). Game goroutines
// never touch a voice: Play, Stop, SetVolume, SetPan, SetMasterGain,
// SetFormatGain and the bus, fade and pause calls validate their arguments and push a fixed-size command
// into a bounded lock-free queue (syncs.Queue: many producers, one
// consumer) that the mixer drains at the start of every block. They
// never block and, once warm, never allocate, not even to refuse: a
// refusal (ErrNoVoice, ErrQueueFull, ErrStaleHandle, ErrClosed) is the
// sentinel itself, so that errors.Is(err, voices.ErrNoVoice), err ==
// voices.ErrNoVoice and a switch on err allocate nothing either; the
// call, format and reason are in Stats.LastRefusal. (errors.Is against a
// different sentinel than the one returned may allocate while the
// runtime warms a cache: see the package's errors.)
//
// The only other parties that may touch the voices are StopAll,
// Bank.Release and Close when the device has stalled: they seize the
// mixer's drain barrier (syncs.Barrier), which locks the audio goroutine
// out of the voices (it plays silence) while they do its work. Those
// three calls share no lock, so each blocks at most its own timeout, plus
// about a millisecond, whatever others are in flight. StopAll or Release
// called on the audio goroutine itself cannot wait for a block (none can
// begin while it waits), so it takes the seize after three quarters of
// its timeout: correct, but slow.
//
// # Lifetime
//
// A Clip is a view of the caller's memory, grouped in a Bank; nothing is
// copied at load or at Play. That memory must stay valid and unchanged
// until the engine proves no voice reads it, which happens in one of
// three ways:
//
//   - Bank.Release returns nil: the bank's voices have all ended and no
//     new one can start.
//   - Engine.StopAll returns nil: every voice has ended. It waits on the
//     drain barrier for a block begun after the request; on a stalled
//     device it falls back to seizing the barrier and ending the voices
//     itself, within its timeout.
//   - Engine.Close returns an error that does not wrap ErrStopAll: nil,
//     or a failure of the device alone (its Close failed, or hung:
//     ErrDeviceHung). Close ends every voice and cuts the device off the
//     mixer before it waits, up to EngineDesc.CloseTimeout, for the
//     device's own Close; a device that hangs there is abandoned and
//     reads silence.
//
// After any of these, overwriting the memory cannot reach the output. A
// Handle goes stale when its voice ends, for good. Audio already rendered
// into the device's buffer (a few milliseconds; with a Pull, whatever the
// sink buffers) still plays out, but it is a copy, not the caller's
// memory.
package voices
