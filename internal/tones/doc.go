// Package tones synthesises the short sound effects and the music loop the
// demo and the stress tool play. They are decaying sine tones, written
// straight into PCM memory in any format voices/ accepts. So every
// converter and the resampler run without shipping sound files.
//
// # Ownership
//
// Synth returns memory the caller owns. Nothing is shared.
//
// # Lifetime
//
// The returned PCM must outlive every voice that reads it. Hand it to
// voices.Engine.NewBank. Drop it only after Bank.Release (or StopAll) has
// returned nil.
package tones
