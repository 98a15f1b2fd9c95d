// Package mp3 decodes an MP3 file once, at load time, into 16-bit PCM that
// a voices.Bank plays without further work, or a frame at a time as a
// voices.Stream plays it (NewSource). It wraps
// github.com/hajimehoshi/go-mp3. The decoder lives in this subpackage
// alone, so the voices core, and games that only play WAV files, do not
// link it.
//
// A voice never decodes in the audio goroutine: Decode runs at load
// time, and a Source on its stream's own decoder goroutine. go-mp3 always
// produces stereo, so a mono file comes back as stereo with both
// channels equal. The rate is that of the first frame.
//
// The encoder's and decoder's delay and the encoder's padding are decoded
// as silence. For a LAME file at 44.1 kHz the delay is 2257 frames
// (51 ms). Trim them with the clip's Offset and Length if a sound must
// start on its first sample.
//
// Prefer MPEG-1 files (32, 44.1 and 48 kHz). go-mp3 v0.3.4 refuses MPEG
// 2.5 (8, 11.025 and 12 kHz) with ErrUnsupported. It decodes some MPEG-2
// streams (16, 22.05 and 24 kHz) wrongly without an error. A LAME 3.100
// file of a 1 kHz tone at 22.05 kHz and 32 kbit/s decodes at -4 dB SNR
// against lame --decode. The same tone at 22.05 kHz and 64 kbit/s, or at
// 16 or 24 kHz and 32 kbit/s, matches at 84 dB, as MPEG-1 files do.
// Nothing in the stream tells the bad case apart, so Decode cannot refuse
// it. For low-rate sounds, WAV or FLAC are exact.
//
// Decoding is bounded:
//
//   - The input is read whole, and refused past MaxBytes.
//   - The decoded length is known from the frame headers before any PCM is
//     allocated, and refused past MaxBytes.
//   - An ID3 tag that declares more bytes than the input holds is refused
//     before the decoder would allocate them.
//
// go-mp3 may panic on hostile input. Decode turns a panic into an error
// wrapping ErrMalformed.
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
package mp3
