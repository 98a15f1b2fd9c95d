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
// × encoding; 8 to 96 kHz), each preconfigured with its converter and
// resampler, under a total cap (32 by default) and optional per-format
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
// process. From 22050 or 44100 Hz to 48 kHz the THD+N of a -6 dBFS 1 kHz
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
// The output is protected by a look-ahead-free peak limiter with a hard
// knee at 0 dBFS: while every sample is within full scale it does
// nothing, bit for bit (music mastered to -0.1 dBFS plays untouched); a
// frame that would pass full scale is scaled onto it (instant attack),
// and the gain recovers with a 50 ms time constant. A centred mono voice
// plays at unity on a mono device (its pan is a balance there).
//
// The inner loops are AVX2 assembly on amd64 CPUs that have it, and
// AVX-512 where present (chosen at run time with golang.org/x/sys/cpu:
// the sinc's group kernels, which compute 16 consecutive outputs one per
// lane, and the linear resamplers when upsampling), and plain Go
// everywhere else: other architectures, older CPUs, and builds with the
// steadyframe_scalar tag, which compiles the assembly out. The Go loops
// are the reference: the vector ones give the same bits (the 16-bit
// linear resamplers within a rounding), which the tests check on hostile
// input too, so the mix does not depend on the CPU; every assembly
// routine clears the upper vector bits (VZEROUPPER) before it returns.
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
