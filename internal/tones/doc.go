// Package tones synthesises the short sound effects and the music loop
// the demo and the stress tool play: decaying sine tones written straight
// into PCM memory in any format voices/ accepts, so every converter and
// the resampler run without shipping sound files.
//
// # Ownership
//
// Synth returns memory the caller owns; nothing is shared.
//
// # Lifetime
//
// The returned PCM must outlive every voice that reads it: hand it to
// voices.Engine.NewBank and drop it only after Bank.Release (or StopAll)
// has returned nil.
package tones
