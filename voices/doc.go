// Package voices plays PCM clips through one mixer without allocating or
// copying in the steady state. It makes the lifetime of the caller's
// sample memory explicit.
//
// An Engine owns one mixer, which a Device pulls as an io.Reader. The
// device may be the sound card, through package otodev: one oto.Player
// whose reader is the mixer, on the process's oto context or on one the
// application made. It may be a Pull, which an audio system the
// application already runs reads like any other stream (an Ebitengine
// player made with NewPlayerF32). Or it may be the Offline device, which
// pulls on a simulated clock and can render to a WAV file.
//
// Voices are pooled per source format (Format: rate × channels ×
// encoding). Any integer rate from 8 to 192 kHz is a valid rate. The pools
// are for the formats the engine declares when it is made
// (EngineDesc.Formats; DefaultFormats, 36 of them, unless told). Each
// voice is preconfigured with its converter and resampler, so Play never
// builds a table. A total cap (32 by default) and optional per-format
// caps bound them. When no voice is free, the Policy chosen at
// construction refuses (ErrNoVoice) or steals. It steals by priority,
// then age, and never a protected voice. Stop, steal and StopAll fade
// out over a few milliseconds. Volume and pan changes are ramped over a
// block. The mix goes through a master gain and the limiter. The same
// commands at the same block positions give bit-identical output.
//
// A game's grouping is the bus (bus.go): a fixed tree declared in
// EngineDesc.Buses under Master. Each voice is on one bus. Each bus has
// a ramped gain, mute, pause and a stop with a fade. It may also have a
// voice cap and ducking by another bus's level. Voices and buses pause
// and resume at the frame; a paused voice keeps its position and is not
// mixed. They fade to a level over a time, linear in amplitude and exact
// to the frame. A voice may start at a frame of the engine's sample clock
// (Engine.Clock) and at an offset into its clip. Clips may cap their
// instances and set a cooldown (limits.go). With EngineDesc.Events, the
// end of every voice (ended, stopped, stolen, refused) is queued once. The
// queue is a bounded syncs.Queue that the game drains with PollEvent.
//
// A Handle names a voice by slot and generation, with pools' conventions.
// The zero Handle is "none", and String reads "slot N gen G". A slot
// whose generations are spent is retired for good (Stats.Retired) rather
// than reissued. voices keeps its own slot table instead of a pools.Pool.
// Play reserves a slot on whichever game goroutine calls it, many at
// once, while the audio goroutine frees slots. A Pool belongs to one
// goroutine. A lock around it would let one Play queue behind another,
// and allocate a waiter, in a steady frame. So the table is a lock-free
// stack per format with atomic generations.
//
// # Sound
//
// A source at another rate than the device's is resampled by a
// band-limited polyphase FIR (ResamplerSinc, the default). It is a
// Kaiser-windowed sinc of 48 source frames. For 88.2 and 96 kHz sources
// it has 96, and their cutoff moves down to the device's Nyquist
// frequency. It is evaluated at the exact rational phase of every device
// frame. Its tables are built when the engine starts and shared by every
// engine of the process. A rate whose exact ratio would need more than
// 4096 phases, such as 44101 Hz, takes the same filter at 512 phases
// interpolated, at a 32.32 position. That gives the same THD+N, but in
// scalar code. Each such rate costs 0.24 to 0.58 ms per 1024 frames on
// the development machine. A whole 32-voice mix of the default rates
// takes 0.05 ms there.
//
// The voices of one source rate share one filter: they are summed at the
// source rate and filtered once. ResamplerSinc says how their starts are
// quantised. From 22050 or 44100 Hz to 48 kHz, the THD+N of a -6 dBFS
// 1 kHz tone is about -105 dB from float sources. From 16-bit ones it is
// -91.6 dB, their own quantisation. A 10 kHz tone from 22050 Hz comes
// out 0.3 dB low, with its images more than 100 dB down. The filter is
// linear phase with no delay, so voices of every rate stay aligned. It
// reads across a loop seam from the loop's start. It plays the
// band-limited onset and tail of a one-shot clip: a voice ends half a
// window after its last frame. It keeps a fixed-size state per voice.
// ResamplerLinear (EngineDesc) interpolates linearly instead, at about a
// quarter of the cost (BenchmarkMix32). It suits effects where the dull
// top octave and the images do not matter.
//
// A voice played with PlayDesc.Pitch (0.25 to 4) is resampled alone, not
// on its rate's shared filter. SetPitch changes it, the step ramped
// linearly across one block. Its filter is the same windowed sinc, at 512
// interpolated phases. Pitched up past the device rate, the cutoff drops
// with the ratio. The ratios are quantised to 1, 7/6, 1.25, 1.5 and 1.75
// in the first octave, four per octave above, each a table built by
// NewEngine. So nothing aliases, and the cutoff sits at most 20% low. Its
// filter has AVX2 and NEON kernels. Voices in step (the same steady step
// and position fraction) share one filter. 32 voices each at its own
// pitch cost about 5.7 times the unpitched mix, or 4.5 times at 7
// pitches started together (BenchmarkMix32).
// SetPitch on a voice played without a pitch returns ErrNotPitched.
//
// The output is protected by a look-ahead peak limiter. It delays the mix
// by 1.5 ms (72 frames at 48 kHz, counted in Stats.DeviceLatency). While
// every sample is within full scale it does nothing but delay, bit for
// bit: music mastered to -0.1 dBFS plays untouched. Before a frame that
// would pass full scale, the gain ramps down over the look-ahead. The
// over then leaves just under full scale (-0.0085 dB), and no sample is
// pinned at it. The gain recovers with a 50 ms time constant. A centred
// mono voice plays at unity on a mono device (its pan is a balance
// there).
//
// The inner loops live in an internal package (voices/internal/dsp),
// which users never import. Which CPU runs which:
//
//   - amd64 with AVX2: AVX2 assembly for every loop. With AVX-512F too,
//     AVX-512 for the sinc's group kernels (16 consecutive outputs, one
//     per lane), the pitched filter and the linear resamplers when
//     upsampling. Chosen once,
//     at run time, with golang.org/x/sys/cpu. The assembly is generated
//     by one avo program.
//   - arm64: NEON assembly for the sinc's group filter (upsampling to
//     48 taps, the default's common case), the pitched filter, the
//     unity-rate mixers, the linear resamplers and the PCM converters.
//     The sinc's per-output filters (downsampling) stay plain Go. Its
//     speed is not measured here (no arm64 machine). Under qemu-aarch64
//     the NEON loops execute a third to a fourteenth of the scalar
//     loops' instructions per frame (docs/kernels.md).
//   - Everything else, amd64 without AVX2, and builds with the
//     steadyframe_scalar tag: plain Go.
//
// The Go loops are the reference, and the vector ones give the same bits.
// The tests check that on hostile input too. The Go code keeps every
// multiply-add unfused, with explicit float32 conversions, where Go
// would fuse them on arm64 and with GOAMD64=v3. So the mix does not
// depend on the CPU. The same commands render the same bits on amd64
// (GOAMD64=v1 or v3, vector or scalar) and arm64; TestRenderGolden holds
// their hashes. Every amd64 routine clears the upper vector bits
// (VZEROUPPER) before it returns.
//
// # Ownership
//
// The mixer, and every voice in it, belongs to the audio goroutine: the
// one the device pulls from. With otodev that is oto's goroutine. It is
// the real-time loop of a real-time Offline device, and the caller of
// Render on a manual one. On a Pull it is whichever goroutine calls Read;
// with an Ebitengine player, oto's goroutines inside Ebitengine.
//
// Game goroutines never touch a voice. Play, Stop, SetVolume, SetPan,
// SetMasterGain, SetFormatGain and the bus, fade and pause calls validate
// their arguments and push a fixed-size command into a bounded lock-free
// queue. The queue is a syncs.Queue (many producers, one consumer) that
// the mixer drains at the start of every block. Those calls never block
// and, once warm, never allocate, not even to refuse. A refusal
// (ErrNoVoice, ErrQueueFull, ErrStaleHandle, ErrClosed) is the sentinel
// itself. So errors.Is(err, voices.ErrNoVoice), err == voices.ErrNoVoice
// and a switch on err allocate nothing either. The call, format and
// reason are in Stats.LastRefusal. errors.Is against a different
// sentinel than the one returned may allocate while the runtime warms a
// cache: see the package's errors.
//
// The only other parties that may touch the voices are StopAll,
// Bank.Release and Close when the device has stalled. They seize the
// mixer's drain barrier (syncs.Barrier), which locks the audio goroutine
// out of the voices while they do its work; it plays silence meanwhile.
// Those three calls share no lock. So each blocks at most its own
// timeout, plus about a millisecond, whatever others are in flight.
// StopAll or Release called on the audio goroutine itself cannot wait
// for a block, since none can begin while it waits. It takes the seize
// after three quarters of its timeout: correct, but slow.
//
// # Lifetime
//
// A Clip is a view of the caller's memory, grouped in a Bank. Nothing is
// copied at load or at Play. That memory must stay valid and unchanged
// until the engine proves no voice reads it. That happens in one of
// three ways:
//
//   - Bank.Release returns nil: the bank's voices have all ended and no
//     new one can start.
//   - Engine.StopAll returns nil: every voice has ended. It waits on the
//     drain barrier for a block begun after the request. On a stalled
//     device it falls back to seizing the barrier and ending the voices
//     itself, within its timeout.
//   - Engine.Close returns an error that does not wrap ErrStopAll: nil,
//     or a failure of the device alone (its Close failed, or hung:
//     ErrDeviceHung). Close ends every voice and cuts the device off the
//     mixer before it waits for the device's own Close. It waits up to
//     EngineDesc.CloseTimeout; a device that hangs there is abandoned and
//     reads silence.
//
// After any of these, overwriting the memory cannot reach the output. A
// Handle goes stale when its voice ends, for good. Audio already
// rendered into the device's buffer still plays out: a few milliseconds,
// or with a Pull whatever the sink buffers. But it is a copy, not the
// caller's memory.
//
// # 3D sound
//
// A voice played with PlayDesc.Spatial has a position and a velocity
// around one listener (spatial.go). SetListener and SetPosition do not
// queue: the mixer reads the latest listener and each voice's latest
// position once a block, so moves never fill the queue. Both are safe
// from any goroutine and free of allocations. Each block, the mixer sets the voice's gain from
// its distance (OpenAL 1.1's models) and cone, and its pan from its
// direction, at constant power. The gains ramp across the block, so a
// moving source has no zipper noise. With EngineDesc.DopplerFactor set, a
// positioned voice is pitched by OpenAL's doppler equation. It is then a
// pitched voice, on the slower pitched path. Without doppler, a
// positioned voice keeps the shared resampler. docs/spatial.md has the
// equations, units and costs.
//
// # Streaming
//
// A Stream (NewStream) is a clip decoded while it plays, for music too
// long to hold whole. Its source is raw PCM in an io.ReaderAt
// (NewPCMSource), a WAV file (wav.NewSource), or an MP3 or FLAC file
// (mp3.NewSource, flac.NewSource). One goroutine per stream decodes
// ahead into a ring buffer sized when the stream is made: Buffer × rate ×
// frame size bytes (176,400 bytes a second of 44.1 kHz 16-bit stereo),
// plus the decoder's state. Its voice plays the ring as a loop, through
// the normal voice paths. Loop points are the decoder's, so a loop seam
// is sample-exact. A block the decoder has not filled plays silent for
// that voice alone and is counted (Stats.StreamUnderruns). Stream.Close
// proves the source is no longer read, as Bank.Release proves a bank
// free. docs/streaming.md has the design and the decoders' allocations.
//
// # Virtual voices
//
// With EngineDesc.Virtual set, an engine plays more sounds than it mixes.
// Play past MaxVoices neither refuses nor steals: the sound becomes
// virtual. Each block the mixer ranks the playing sounds: protected
// ones and streams first, then by priority, then by audibility. Audibility is the
// volume times the format, bus and 3D gains and the pan's louder side.
// The top MaxVoices are mixed; the others advance in time unmixed,
// through loops, pitch and their end, which reports its event as usual.
// A swap ramps both sounds over one block, at the position the sound
// reached: exact at the device rate, within one source frame on a rate
// bus. A Handle stays valid across swaps. Stats.Real, Virtual and Swaps
// count them; docs/virtual.md has the design and its cost.
package voices
