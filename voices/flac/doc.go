// Package flac decodes a FLAC file once, at load time, into PCM that a
// voices.Bank plays without further work, or a frame at a time as a
// voices.Stream plays it (NewSource). It wraps github.com/mewkiz/flac.
// The decoder lives in this subpackage alone, so the voices core, and
// games that only play WAV files, do not link it.
//
// Samples of 4 to 16 bits come back as 16-bit integers. They are shifted
// up, so an 8-bit file plays at its level. Samples of 17 to 31 bits come
// back as 32-bit floats scaled to [-1, 1). The mixer plays both, and 16
// bits would throw away what a 24-bit file holds. 32-bit streams are
// refused: mewkiz/flac v1.0.14 does not read the frame header code libFLAC
// 1.4 writes for them.
//
// Mono and stereo are read. A file with more channels is refused. The
// mixer would have to drop or fold them, and which to choose is the
// caller's business. Every frame must keep the stream's channel count,
// sample size and rate.
//
// Where the stream records its length and MD5 signature, the decoded
// samples must match both. Nothing after the last declared sample is read,
// so an ID3v1 tag some tools append does no harm. The decoder checks each
// frame's CRC.
//
// Decoding is bounded:
//
//   - The PCM is refused past MaxBytes (or the limit given to
//     DecodeLimit). This is checked against the declared length before
//     decoding, and against each frame as it is decoded.
//   - A declared length is trusted for at most 32 MiB of buffer up front.
//     So a lying header cannot make Decode reserve memory the stream does
//     not fill.
//   - Metadata blocks other than STREAMINFO are skipped as they are read,
//     never held.
//
// mewkiz/flac may panic on hostile input. Decode turns a panic into an
// error wrapping ErrMalformed. A panic in the caller's reader is not the
// decoder's, and goes on up.
//
// mewkiz/flac v1.0.14 writes a line to the standard logger for every frame
// of a 24000 or 176400 Hz stream (asking for test files). That is the
// decoder's, and harmless.
//
// # Ownership
//
// Decode and DecodeLimit keep no state. They are safe to call from any
// goroutine at once, each on its own reader. A Source belongs to the
// stream's decoder goroutine once NewStream has it.
//
// # Lifetime
//
// The returned PCM is a new slice that belongs to the caller. The decoder
// keeps no reference to it or to the reader. Give it to Engine.NewBank,
// and keep it unchanged until the bank's Release returns nil, as for any
// bank memory. A Source reads its reader until the stream's Close returns
// nil.
package flac
