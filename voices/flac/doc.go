// Package flac decodes a FLAC file once, at load time, into PCM that a
// voices.Bank plays without further work. It wraps
// github.com/mewkiz/flac, which lives in this subpackage alone so that
// the voices core, and games that only play WAV files, do not link a
// decoder.
//
// Samples of 4 to 16 bits come back as 16-bit integers (shifted up, so
// an 8-bit file plays at its level), samples of 17 to 31 bits as 32-bit
// floats scaled to [-1, 1): the mixer plays both, and 16 bits would throw
// away what a 24-bit file holds. 32-bit streams are refused: mewkiz/flac
// v1.0.14 does not read the frame header code libFLAC 1.4 writes for
// them. Mono and stereo are read; a file with
// more channels is refused, since the mixer would have to drop or fold
// them and which to choose is the caller's business. Every frame must
// keep the stream's channel count, sample size and rate. Where the
// stream records its length and MD5 signature, the decoded samples must
// match both, and nothing after the last declared sample is read (an
// ID3v1 tag some tools append does no harm); each frame's CRC is checked
// by the decoder.
//
// Decoding is bounded: the PCM is refused past MaxBytes (or the limit
// given to DecodeLimit), checked against the declared length before
// decoding and against each frame as it is decoded, and a declared
// length is trusted for at most 32 MiB of buffer up front, so that a
// lying header cannot make Decode reserve memory the stream does not
// fill. Metadata blocks other than STREAMINFO are skipped as they are
// read, never held. mewkiz/flac may panic on hostile input; Decode turns
// a panic into an error wrapping ErrMalformed; a panic in the caller's
// reader is not the decoder's, and goes on up.
//
// mewkiz/flac v1.0.14 writes a line to the standard logger for every
// frame of a 24000 or 176400 Hz stream (asking for test files); that is
// the decoder's, and harmless.
//
// # Ownership
//
// Decode and DecodeLimit keep no state and are safe to call from any
// goroutine at once, each on its own reader.
//
// # Lifetime
//
// The returned PCM is a new slice that belongs to the caller; the
// decoder keeps no reference to it or to the reader. Give it to
// Engine.NewBank, and keep it unchanged until the bank's Release returns
// nil, as for any bank memory.
package flac
