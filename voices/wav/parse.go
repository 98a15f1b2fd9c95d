package wav

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/steadyframe/steadyframe/voices"
)

// Sentinel errors returned by Parse. Check them with errors.Is; the
// returned errors wrap them with what was wrong and where.
var (
	// ErrNotWAV is returned when b does not start like a RIFF WAVE file.
	ErrNotWAV = errors.New("wav: not a WAV file")
	// ErrTruncated is returned when a size declared in the file (the RIFF
	// size, a chunk's size) runs past the bytes there are, or when the
	// file ends before its format or data chunk.
	ErrTruncated = errors.New("wav: truncated")
	// ErrMalformed is returned when the file's fields contradict each
	// other or the WAVE rules. Examples are a zero channel count or rate,
	// or a block align or byte rate that does not follow from the format.
	// So is a data chunk before the format chunk, or one that is not a
	// whole number of frames.
	ErrMalformed = errors.New("wav: malformed")
	// ErrUnsupported is returned for a well-formed file in a layout this
	// package does not read: 8-, 24- or 32-bit integer or 64-bit float
	// samples, compressed formats (ADPCM, A-law, µ-law, MP3, ...), more
	// than 2 channels, RIFX (big endian) or RF64 containers.
	ErrUnsupported = errors.New("wav: unsupported format")
)

// Format tags of the WAVE fmt chunk.
const (
	tagPCM        = 0x0001
	tagFloat      = 0x0003
	tagExtensible = 0xFFFE
)

// subtypeSuffix is the tail shared by the KSDATAFORMAT_SUBTYPE_* GUIDs
// (xxxxxxxx-0000-0010-8000-00aa00389b71 in the file's byte order); their
// first two bytes are the plain format tag.
var subtypeSuffix = [14]byte{0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71}

var le = binary.LittleEndian

// Parse reads the WAV file b and returns its format and its PCM samples,
// interleaved by frame, as a view of b: nothing is copied or converted.
// It reads 16-bit PCM (format tag 1) and 32-bit IEEE float (tag 3). It
// reads the plain and the extensible (tag 0xFFFE) layouts, mono or stereo,
// at any rate from 1 Hz to 2³¹-1 Hz. It returns the rate as found, and
// Format.Validate says whether the mixer plays it.
//
// It walks the chunks of the RIFF body in order, skipping those it does
// not need (LIST, fact, cue, JUNK, ...) with their pad bytes, and stops at
// the data chunk, which must follow the fmt chunk. Bytes after the RIFF
// body, such as a tag a tool appended, are ignored. A data chunk that is
// not a whole number of frames is refused (ErrMalformed) rather than
// trimmed: a writer that got the size wrong may have got the format wrong
// too, and a bank refuses a partial frame anyway. An empty data chunk is
// returned as an empty view.
//
// Every error wraps ErrNotWAV, ErrTruncated, ErrMalformed or
// ErrUnsupported. Parse allocates only the error it returns.
func Parse(b []byte) (voices.Format, []byte, error) {
	end, err := riffEnd(b)
	if err != nil {
		return voices.Format{}, nil, err
	}
	var (
		f       voices.Format
		haveFmt bool
	)
	off := 12
	for {
		if end-off < 8 {
			if !haveFmt {
				return voices.Format{}, nil, fmt.Errorf("%w: no fmt chunk before the end of the RIFF body at byte %d", ErrTruncated, end)
			}
			return voices.Format{}, nil, fmt.Errorf("%w: no data chunk before the end of the RIFF body at byte %d", ErrTruncated, end)
		}
		id := [4]byte(b[off : off+4])
		size := le.Uint32(b[off+4:])
		body := off + 8
		// Compared as uint64 so that a size near 4 GiB cannot wrap an int
		// on a 32-bit platform.
		if uint64(size) > uint64(end-body) {
			return voices.Format{}, nil, fmt.Errorf("%w: chunk %q at byte %d declares %d bytes; the RIFF body has %d left",
				ErrTruncated, string(id[:]), off, size, end-body)
		}
		n := int(size)
		switch id {
		case [4]byte{'f', 'm', 't', ' '}:
			if haveFmt {
				return voices.Format{}, nil, fmt.Errorf("%w: second fmt chunk at byte %d", ErrMalformed, off)
			}
			if f, err = parseFmt(b[body : body+n]); err != nil {
				return voices.Format{}, nil, err
			}
			haveFmt = true
		case [4]byte{'d', 'a', 't', 'a'}:
			if !haveFmt {
				return voices.Format{}, nil, fmt.Errorf("%w: data chunk at byte %d before the fmt chunk", ErrMalformed, off)
			}
			if fb := f.FrameBytes(); n%fb != 0 {
				return voices.Format{}, nil, fmt.Errorf("%w: data chunk of %d bytes is not a whole number of %d-byte %v frames",
					ErrMalformed, n, fb, f)
			}
			return f, b[body : body+n : body+n], nil
		}
		// A chunk of odd size is followed by a pad byte; at the very end
		// of the body it may be missing, and then the loop ends above.
		off = body + n + n&1
		if off > end {
			off = end
		}
	}
}

// riffEnd checks the RIFF WAVE header and returns the end of the RIFF
// body: 8 + the declared RIFF size, which must lie inside b.
func riffEnd(b []byte) (int, error) {
	end, err := riffHeader(b, int64(len(b)))
	return int(end), err
}

// riffHeader is riffEnd for a file of size bytes that starts with b
// (all of it, or at least its 12-byte header).
func riffHeader(b []byte, fileSize int64) (int64, error) {
	var magic [4]byte
	copy(magic[:], b)
	switch string(magic[:]) {
	case "RIFF":
	case "RIFX", "RF64", "BW64":
		return 0, fmt.Errorf("%w: %q container (only little-endian RIFF is read)", ErrUnsupported, string(magic[:]))
	default:
		head := b[:min(len(b), 4)]
		switch {
		case len(b) == 0:
			return 0, fmt.Errorf("%w: empty file", ErrNotWAV)
		case len(b) < 4 && string(head) == "RIFF"[:len(b)]:
			return 0, fmt.Errorf("%w: %d bytes, shorter than a RIFF header", ErrTruncated, len(b))
		}
		return 0, fmt.Errorf("%w: starts with %q, not \"RIFF\"", ErrNotWAV, string(head))
	}
	if len(b) < 12 {
		return 0, fmt.Errorf("%w: %d bytes, shorter than a RIFF WAVE header", ErrTruncated, len(b))
	}
	if string(b[8:12]) != "WAVE" {
		return 0, fmt.Errorf("%w: RIFF form %q, not \"WAVE\"", ErrNotWAV, string(b[8:12]))
	}
	size := le.Uint32(b[4:])
	if size < 4 {
		return 0, fmt.Errorf("%w: RIFF size %d is too small to hold the WAVE form", ErrMalformed, size)
	}
	if uint64(size) > uint64(fileSize-8) {
		return 0, fmt.Errorf("%w: RIFF declares %d bytes after its header; the file has %d", ErrTruncated, size, fileSize-8)
	}
	return 8 + int64(size), nil
}

// parseFmt reads a fmt chunk's body and checks that it describes 16-bit
// PCM or 32-bit float, mono or stereo, with consistent sizes.
func parseFmt(c []byte) (voices.Format, error) {
	if len(c) < 16 {
		return voices.Format{}, fmt.Errorf("%w: fmt chunk of %d bytes, want at least 16", ErrMalformed, len(c))
	}
	tag := le.Uint16(c[0:])
	channels := le.Uint16(c[2:])
	rate := le.Uint32(c[4:])
	byteRate := le.Uint32(c[8:])
	align := le.Uint16(c[12:])
	bits := le.Uint16(c[14:])
	if tag == tagExtensible {
		var err error
		if tag, err = parseExtensible(c, bits); err != nil {
			return voices.Format{}, err
		}
	}
	var enc voices.Encoding
	switch {
	case tag == tagPCM && bits == 16:
		enc = voices.EncodingInt16LE
	case tag == tagFloat && bits == 32:
		enc = voices.EncodingFloat32LE
	case tag == tagPCM:
		return voices.Format{}, fmt.Errorf("%w: %d-bit integer PCM (only 16-bit is read)", ErrUnsupported, bits)
	case tag == tagFloat:
		return voices.Format{}, fmt.Errorf("%w: %d-bit float (only 32-bit is read)", ErrUnsupported, bits)
	default:
		return voices.Format{}, fmt.Errorf("%w: format tag %#04x (%s); only PCM and IEEE float are read", ErrUnsupported, tag, tagName(tag))
	}
	switch {
	case channels == 0:
		return voices.Format{}, fmt.Errorf("%w: 0 channels", ErrMalformed)
	case channels > 2:
		return voices.Format{}, fmt.Errorf("%w: %d channels (only mono and stereo are read)", ErrUnsupported, channels)
	case rate == 0 || rate > math.MaxInt32:
		return voices.Format{}, fmt.Errorf("%w: sample rate %d", ErrMalformed, rate)
	}
	f := voices.Format{Rate: int(rate), Channels: int(channels), Encoding: enc}
	fb := f.FrameBytes()
	if int(align) != fb {
		return voices.Format{}, fmt.Errorf("%w: block align %d, but %v frames are %d bytes", ErrMalformed, align, f, fb)
	}
	if uint64(byteRate) != uint64(rate)*uint64(fb) {
		return voices.Format{}, fmt.Errorf("%w: byte rate %d, but %v plays %d bytes a second", ErrMalformed, byteRate, f, uint64(rate)*uint64(fb))
	}
	return f, nil
}

// parseExtensible reads the WAVE_FORMAT_EXTENSIBLE tail of a fmt chunk
// and returns the plain tag its subformat GUID stands for.
func parseExtensible(c []byte, bits uint16) (uint16, error) {
	if len(c) < 40 {
		return 0, fmt.Errorf("%w: extensible fmt chunk of %d bytes, want at least 40", ErrMalformed, len(c))
	}
	if cb := le.Uint16(c[16:]); cb < 22 {
		return 0, fmt.Errorf("%w: extensible fmt chunk with an extension of %d bytes, want at least 22", ErrMalformed, cb)
	}
	guid := [16]byte(c[24:40])
	if [14]byte(guid[2:]) != subtypeSuffix {
		return 0, fmt.Errorf("%w: extensible subformat GUID % x is not a KSDATAFORMAT_SUBTYPE", ErrUnsupported, guid)
	}
	tag := le.Uint16(guid[:])
	// Valid bits below the container's are left-justified in it, so a
	// 16-bit container plays right as 16-bit; 0 is what some writers put
	// for "all of them".
	if valid := le.Uint16(c[18:]); valid > bits || (tag == tagFloat && valid != 0 && valid != bits) {
		return 0, fmt.Errorf("%w: %d valid bits in a %d-bit container", ErrMalformed, valid, bits)
	}
	if tag == tagExtensible {
		return 0, fmt.Errorf("%w: extensible subformat names the extensible tag itself", ErrMalformed)
	}
	return tag, nil
}

// tagName names the format tags a caller is most likely to meet, so that
// the error says what the file is rather than only a number.
func tagName(tag uint16) string {
	switch tag {
	case 0x0002:
		return "Microsoft ADPCM"
	case 0x0006:
		return "A-law"
	case 0x0007:
		return "µ-law"
	case 0x0011:
		return "IMA ADPCM"
	case 0x0050:
		return "MPEG"
	case 0x0055:
		return "MPEG layer 3"
	case 0x0000:
		return "unknown"
	}
	return "other"
}
