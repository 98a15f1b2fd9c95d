package mp3

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	gomp3 "github.com/hajimehoshi/go-mp3"

	"github.com/steadyframe/steadyframe/voices"
)

// MaxBytes is the limit Decode applies, both to the MP3 input and to the
// PCM it decodes to: 256 MiB, about 25 minutes of 44.1 kHz stereo. A
// sound a game keeps in a bank is far shorter; a stream past it is more
// likely hostile or a mistake than music, and decoding it would hold that
// much memory at once.
const MaxBytes = 256 << 20

// Sentinel errors returned by Decode. Check them with errors.Is; the
// returned errors wrap them with what was wrong.
var (
	// ErrRead is returned when the reader fails; the error also wraps the
	// reader's own.
	ErrRead = errors.New("mp3: read failed")
	// ErrMalformed is returned when the input holds no MPEG audio frame,
	// when a frame cannot be decoded, or when the decoder panics.
	ErrMalformed = errors.New("mp3: malformed stream")
	// ErrUnsupported is returned for MPEG audio that go-mp3 does not
	// decode: MPEG 2.5 (8000, 11025 and 12000 Hz), layers I and II, and
	// free-format bit rates.
	ErrUnsupported = errors.New("mp3: unsupported stream")
	// ErrTooLarge is returned when the input, or the PCM it decodes to,
	// would pass the limit.
	ErrTooLarge = errors.New("mp3: stream too large")
)

// format is what every decoded stream is: go-mp3 always produces 16-bit
// stereo, whatever the file's mode. Only the rate varies.
var format = voices.Format{Channels: 2, Encoding: voices.EncodingInt16LE}

// Decode reads an MP3 stream from r to its end and decodes it whole into
// a new buffer of 16-bit little-endian stereo at the stream's rate,
// which it returns with its format. It is DecodeLimit(r, MaxBytes).
//
// Every error wraps ErrRead, ErrMalformed, ErrUnsupported or ErrTooLarge.
func Decode(r io.Reader) (voices.Format, []byte, error) {
	return DecodeLimit(r, MaxBytes)
}

// DecodeLimit is Decode with a limit of limit bytes instead of MaxBytes,
// applied both to what it reads from r and to the PCM it returns; a limit
// of 0 or less means MaxBytes. The PCM buffer is sized once from the
// frame headers, so decoding does not regrow it.
func DecodeLimit(r io.Reader, limit int) (voices.Format, []byte, error) {
	if limit <= 0 {
		limit = MaxBytes
	}
	in, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err != nil {
		return voices.Format{}, nil, fmt.Errorf("%w: %w", ErrRead, err)
	}
	if len(in) > limit {
		return voices.Format{}, nil, fmt.Errorf("%w: the input is longer than the %d-byte limit", ErrTooLarge, limit)
	}
	if err := checkID3(in); err != nil {
		return voices.Format{}, nil, err
	}
	rate, pcm, err := decode(in, limit)
	if err != nil {
		return voices.Format{}, nil, err
	}
	f := format
	f.Rate = rate
	return f, pcm, nil
}

// decode runs go-mp3 over in, turning its panics into errors.
func decode(in []byte, limit int) (rate int, pcm []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			rate, pcm, err = 0, nil, fmt.Errorf("%w: the decoder panicked: %v", ErrMalformed, p)
		}
	}()
	d, err := gomp3.NewDecoder(bytes.NewReader(in))
	if err != nil {
		if err == io.EOF {
			return 0, nil, fmt.Errorf("%w: no MPEG audio frame in %d bytes", ErrMalformed, len(in))
		}
		return 0, nil, decoderError(err, 0)
	}
	// A bytes.Reader seeks, so go-mp3 has counted the frames: Length is
	// known, and bounded by what the input holds.
	n := d.Length()
	if n > int64(limit) {
		return 0, nil, fmt.Errorf("%w: %d bytes of PCM, past the %d-byte limit", ErrTooLarge, n, limit)
	}
	pcm = make([]byte, 0, max(n, 0))
	// Once pcm is full, reads go to spare: most often only to meet the
	// end of the stream, which must not regrow a buffer sized exactly.
	var spare [4096]byte
	for {
		full := len(pcm) == cap(pcm)
		buf := pcm[len(pcm):cap(pcm)]
		if full {
			buf = spare[:]
		}
		m, err := d.Read(buf)
		if full {
			pcm = append(pcm, spare[:m]...) // the headers undercounted
		} else {
			pcm = pcm[:len(pcm)+m]
		}
		if len(pcm) > limit {
			return 0, nil, fmt.Errorf("%w: more than %d bytes of PCM", ErrTooLarge, limit)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, nil, decoderError(err, len(pcm))
		}
	}
	fb := format.FrameBytes()
	if len(pcm) == 0 || len(pcm)%fb != 0 {
		return 0, nil, fmt.Errorf("%w: decoded %d bytes, not a whole, non-zero number of %d-byte frames", ErrMalformed, len(pcm), fb)
	}
	return d.SampleRate(), pcm, nil
}

// decoderError wraps an error from go-mp3 with the sentinel it stands
// for. go-mp3 exports no error values, so the unsupported cases are told
// by their message ("... is not supported", "only layer3 ... is
// supported"); any other message is ErrMalformed, which is also what an
// unrecognised rewording would fall back to. Its "mp3: " prefix is cut,
// since the sentinel already carries this package's.
func decoderError(err error, decoded int) error {
	msg := strings.TrimPrefix(err.Error(), "mp3: ")
	sentinel := ErrMalformed
	if strings.Contains(msg, "supported") {
		sentinel = ErrUnsupported
	}
	if decoded > 0 {
		return fmt.Errorf("%w: after %d bytes of PCM: %s", sentinel, decoded, msg)
	}
	return fmt.Errorf("%w: %s", sentinel, msg)
}

// checkID3 refuses an ID3v2 tag whose declared size runs past the input:
// go-mp3 allocates the declared size before reading the tag, so a ten-byte
// file could otherwise make it allocate half a gigabyte.
func checkID3(in []byte) error {
	if len(in) < 10 || string(in[:3]) != "ID3" {
		return nil
	}
	// go-mp3 does not mask the size bytes to 7 bits; neither does this,
	// so that the check bounds exactly what go-mp3 will allocate.
	size := uint32(in[6])<<21 | uint32(in[7])<<14 | uint32(in[8])<<7 | uint32(in[9])
	if uint64(size) > uint64(len(in)-10) {
		return fmt.Errorf("%w: ID3 tag declares %d bytes; only %d follow its header", ErrMalformed, size, len(in)-10)
	}
	return nil
}
