// Package voices plays PCM clips through one mixer without allocating or
// copying in the steady state, and makes the lifetime of the caller's
// sample memory explicit.
//
// An Engine owns one mixer, which a Device pulls as an io.Reader: the
// sound card through package otodev (one oto context, one oto.Player whose
// reader is the mixer), or the Offline device, which pulls on a simulated
// clock and can render to a WAV file. Voices are pooled per source format
// (Format: rate × channels × encoding), each preconfigured with its
// converter and resampler step, under a total cap (32 by default) and
// optional per-format caps. When no voice is free, the Policy chosen at
// construction refuses (ErrNoVoice) or steals by priority, then age,
// never a protected voice. Stop, steal and StopAll fade out over a few
// milliseconds; volume and pan changes are ramped over a block; the mix
// goes through a master gain and a soft clip. The same commands at the
// same block positions give bit-identical output.
//
// # Ownership
//
// The mixer, and every voice in it, belongs to the audio goroutine (the
// one the device pulls from). Game goroutines never touch a voice: Play,
// Stop, SetVolume, SetPan, SetMasterGain and SetFormatGain validate their
// arguments and push a fixed-size command into a bounded lock-free queue
// (many producers, one consumer) that the mixer drains at the start of
// every block. They never block and, once warm, never allocate, not even
// to refuse: a full queue refuses the command with ErrQueueFull and counts
// it, and that error, like ErrNoVoice and ErrStaleHandle, is built before
// it is needed.
//
// The only other party that may touch the voices is a StopAll (or a
// Bank.Release) whose device has stalled: it seizes the mixer's drain
// barrier (lifetime.Barrier), which locks the audio goroutine out of the
// voices (it plays silence) until the cleanup is done.
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
//   - Engine.Close returns nil.
//
// After any of these, overwriting the memory cannot reach the output. A
// Handle goes stale when its voice ends; the zero Handle is never valid.
// Audio already rendered into the device's buffer (a few milliseconds)
// still plays out, but it is a copy, not the caller's memory.
package voices
