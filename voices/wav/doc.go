// Package wav reads and writes RIFF WAVE files in the two encodings the
// voices mixer plays. Those are 16-bit PCM and 32-bit IEEE float, mono or
// stereo, in the plain or the WAVE_FORMAT_EXTENSIBLE layout.
//
// Parse does not decode anything. Both encodings are little endian in the
// file as in a voices.Bank. So Parse walks the chunks and checks the
// format chunk. It hands back the data chunk as a view of the file's
// bytes, ready for Engine.NewBank. It allocates nothing unless it fails,
// and then only the error.
//
// Parse checks every size against the bytes there are before it uses it.
// A hostile or damaged file gets an error wrapping one of ErrNotWAV,
// ErrTruncated, ErrMalformed or ErrUnsupported. It never gets a panic or
// an out-of-range view.
//
// Parse returns the rate it finds without judging it. Whether the mixer
// plays it is voices.Format.Validate's call, made when the clip is made.
//
// Append writes a canonical WAV file. It shares its header with
// voices.Offline.RenderWAV (voices.WAVHeader). This package imports voices
// for Format, so the writer lives there and this package calls it.
//
// # Ownership
//
// The functions keep no state and are safe to call from any goroutine at
// once. Parse never writes to its input. Append writes only to the slice
// it returns. A source from NewSource belongs to the stream's decoder
// goroutine once NewStream has it.
//
// # Lifetime
//
// The PCM slice Parse returns aliases the file's bytes b. It is valid as
// long as b is, and changes if b changes. Load the file into memory the
// caller owns: os.ReadFile, an embed.FS string converted once, or a region
// of a larger pack. Parse it, and give the PCM slice to Engine.NewBank. b
// must then stay valid and unchanged until the bank's Release returns nil,
// exactly as for any bank memory. The PCM slice's capacity ends with the
// data chunk, so appending to it cannot overwrite what follows in b.
package wav
