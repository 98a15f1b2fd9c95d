package flac

import (
	"crypto/md5"
	"errors"
	"fmt"
	"io"

	mflac "github.com/mewkiz/flac"
	"github.com/mewkiz/flac/frame"
	"github.com/mewkiz/flac/meta"

	"github.com/steadyframe/steadyframe/voices"
)

// MaxBytes is the limit Decode applies to the PCM it decodes to: 256 MiB,
// about 25 minutes of 44.1 kHz 16-bit stereo. A sound a game keeps in a
// bank is far shorter; a stream past it is more likely hostile or a
// mistake than music, and decoding it would hold that much memory at
// once.
const MaxBytes = 256 << 20

// maxPrealloc is the most buffer a declared length reserves up front;
// past it the buffer grows as frames arrive, so that only PCM the stream
// really holds costs memory.
const maxPrealloc = 32 << 20

// Sentinel errors returned by Decode. Check them with errors.Is; the
// returned errors wrap them with what was wrong.
var (
	// ErrRead is returned when the reader fails; the error also wraps the
	// reader's own.
	ErrRead = errors.New("flac: read failed")
	// ErrMalformed is returned when the input is not a FLAC stream, a
	// frame fails its CRC or contradicts the stream's format, the decoded
	// samples do not match the stream's MD5 signature, or the decoder
	// panics.
	ErrMalformed = errors.New("flac: malformed stream")
	// ErrTruncated is returned when the stream ends inside a frame or
	// before the number of samples it declares.
	ErrTruncated = errors.New("flac: truncated stream")
	// ErrUnsupported is returned for a stream of more than 2 channels or
	// of 32-bit samples.
	ErrUnsupported = errors.New("flac: unsupported stream")
	// ErrTooLarge is returned when the PCM would pass the limit.
	ErrTooLarge = errors.New("flac: stream too large")
)

// Decode reads a FLAC stream from r and decodes it whole into a new
// buffer, at the stream's rate and channel count (1 or 2). Streams of up
// to 16 bits per sample give 16-bit little-endian PCM. Deeper ones give
// 32-bit float little-endian. It is DecodeLimit(r, MaxBytes).
//
// Every error wraps ErrRead, ErrMalformed, ErrTruncated, ErrUnsupported
// or ErrTooLarge.
func Decode(r io.Reader) (voices.Format, []byte, error) {
	return DecodeLimit(r, MaxBytes)
}

// DecodeLimit is Decode with a limit of limit bytes of PCM instead of
// MaxBytes; a limit of 0 or less means MaxBytes.
func DecodeLimit(r io.Reader, limit int) (f voices.Format, pcm []byte, err error) {
	if limit <= 0 {
		limit = MaxBytes
	}
	src := &recordingReader{r: r}
	defer func() {
		if p := recover(); p != nil {
			if src.reading {
				panic(p) // the caller's reader's, not the decoder's
			}
			f, pcm, err = voices.Format{}, nil, fmt.Errorf("%w: the decoder panicked: %v", ErrMalformed, p)
		}
	}()
	s, err := mflac.New(src)
	if err != nil {
		if err == io.EOF && src.n == 0 {
			return voices.Format{}, nil, fmt.Errorf("%w: empty input", ErrMalformed)
		}
		return voices.Format{}, nil, src.wrap(err, "in the header")
	}
	d, err := newDecoder(s.Info, limit)
	if err != nil {
		return voices.Format{}, nil, err
	}
	// Once the declared samples are in, the stream is whole: whatever
	// follows (an ID3v1 tag some tools append) is not read.
	for d.info.samples == 0 || d.frames < d.info.samples {
		fr, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return voices.Format{}, nil, src.wrap(err, d.where())
		}
		if err := d.check(fr); err != nil {
			return voices.Format{}, nil, err
		}
		if err := fr.Parse(); err != nil {
			return voices.Format{}, nil, src.wrap(err, d.where())
		}
		if err := d.add(fr); err != nil {
			return voices.Format{}, nil, err
		}
	}
	if err := d.finish(); err != nil {
		return voices.Format{}, nil, err
	}
	return d.format, d.pcm, nil
}

// recordingReader keeps the first error of the caller's reader, so that a
// failing reader is told apart from a broken stream: mewkiz/flac returns
// both the same way.
type recordingReader struct {
	r       io.Reader
	n       int64
	err     error
	reading bool // inside the caller's Read: a panic there is not the decoder's
}

func (r *recordingReader) Read(p []byte) (int, error) {
	r.reading = true
	n, err := r.r.Read(p)
	r.reading = false
	r.n += int64(n)
	if err != nil && err != io.EOF && r.err == nil {
		r.err = err
	}
	return n, err
}

// wrap gives an error from mewkiz/flac its sentinel: the reader's own
// failure first, then the end of input where more was due, and anything
// else as a malformed stream.
func (r *recordingReader) wrap(err error, where string) error {
	switch {
	case r.err != nil:
		return fmt.Errorf("%w: %s: %w", ErrRead, where, r.err)
	case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%w: the input ends %s", ErrTruncated, where)
	}
	return fmt.Errorf("%w: %s: %v", ErrMalformed, where, err)
}

// decoder accumulates one stream's frames as PCM of its format.
type decoder struct {
	info   streamInfo
	format voices.Format
	limit  int
	pcm    []byte
	frames uint64     // inter-channel samples decoded so far
	md5    *md5Hasher // nil when STREAMINFO has no signature
}

// streamInfo is what the decoder keeps of the STREAMINFO block.
type streamInfo struct {
	rate     uint32
	channels int
	bps      int
	samples  uint64 // 0: unknown
	md5      [md5.Size]byte
}

func newDecoder(si *meta.StreamInfo, limit int) (*decoder, error) {
	info, f, err := infoOf(si)
	if err != nil {
		return nil, err
	}
	d := &decoder{info: info, limit: limit, format: f}
	// samples < 2^36 and a frame is at most 8 bytes: no overflow.
	declared := info.samples * uint64(d.format.FrameBytes())
	if declared > uint64(limit) {
		return nil, fmt.Errorf("%w: the stream declares %d samples, %d bytes of %v PCM, past the %d-byte limit",
			ErrTooLarge, info.samples, declared, d.format, limit)
	}
	d.pcm = make([]byte, 0, min(int(declared), maxPrealloc))
	if info.md5 != [md5.Size]byte{} {
		d.md5 = newMD5Hasher(info.bps)
	}
	return d, nil
}

// infoOf checks a STREAMINFO block and returns what the decoder keeps of
// it and the format its PCM comes out in.
func infoOf(si *meta.StreamInfo) (streamInfo, voices.Format, error) {
	info := streamInfo{rate: si.SampleRate, channels: int(si.NChannels), bps: int(si.BitsPerSample), samples: si.NSamples, md5: si.MD5sum}
	switch {
	case info.channels > 2:
		return info, voices.Format{}, fmt.Errorf("%w: %d channels (only mono and stereo are read)", ErrUnsupported, info.channels)
	case info.bps == 32:
		// libFLAC 1.4 marks 32-bit frames with a header code mewkiz/flac
		// v1.0.14 calls reserved, and its int32 samples have no room for
		// a stereo stream's 33-bit side channel.
		return info, voices.Format{}, fmt.Errorf("%w: 32-bit samples (mewkiz/flac reads up to 31)", ErrUnsupported)
	case info.channels < 1 || info.rate == 0 || info.bps < 4 || info.bps > 32:
		return info, voices.Format{}, fmt.Errorf("%w: STREAMINFO gives %d channels, %d Hz, %d bits per sample", ErrMalformed, info.channels, info.rate, info.bps)
	}
	enc := voices.EncodingInt16LE
	if info.bps > 16 {
		enc = voices.EncodingFloat32LE
	}
	return info, voices.Format{Rate: int(info.rate), Channels: info.channels, Encoding: enc}, nil
}

// where names the position in the stream for an error.
func (d *decoder) where() string {
	return fmt.Sprintf("in the frame after sample %d", d.frames)
}

// check refuses a frame whose header contradicts the stream's format,
// and fills in the sample size a header may leave to STREAMINFO, which
// mewkiz/flac would otherwise decode as 0 bits.
func (d *decoder) check(fr *frame.Frame) error {
	if n := fr.Channels.Count(); n != d.info.channels {
		return fmt.Errorf("%w: %s: %d channels in a %d-channel stream", ErrMalformed, d.where(), n, d.info.channels)
	}
	if fr.SampleRate != 0 && fr.SampleRate != d.info.rate {
		return fmt.Errorf("%w: %s: %d Hz in a %d Hz stream", ErrMalformed, d.where(), fr.SampleRate, d.info.rate)
	}
	switch int(fr.BitsPerSample) {
	case 0:
		fr.BitsPerSample = uint8(d.info.bps)
	case d.info.bps:
	default:
		return fmt.Errorf("%w: %s: %d bits per sample in a %d-bit stream", ErrMalformed, d.where(), fr.BitsPerSample, d.info.bps)
	}
	return nil
}

// add appends a parsed frame's samples, interleaved, to the PCM.
func (d *decoder) add(fr *frame.Frame) error {
	n := int(fr.BlockSize)
	if len(fr.Subframes) != d.info.channels {
		return fmt.Errorf("%w: %s: %d subframes", ErrMalformed, d.where(), len(fr.Subframes))
	}
	for _, sf := range fr.Subframes {
		if len(sf.Samples) != n {
			return fmt.Errorf("%w: %s: a subframe of %d samples in a block of %d", ErrMalformed, d.where(), len(sf.Samples), n)
		}
	}
	if d.info.samples != 0 && d.frames+uint64(n) > d.info.samples {
		return fmt.Errorf("%w: %s: more samples than the %d the stream declares", ErrMalformed, d.where(), d.info.samples)
	}
	size := n * d.format.FrameBytes()
	if len(d.pcm)+size > d.limit {
		return fmt.Errorf("%w: more than %d bytes of %v PCM", ErrTooLarge, d.limit, d.format)
	}
	d.pcm = appendFrame(d.pcm, fr.Subframes, n, d.info.bps)
	if d.md5 != nil {
		d.md5.add(fr.Subframes, n)
	}
	d.frames += uint64(n)
	return nil
}

// finish checks the whole stream against what STREAMINFO declared.
func (d *decoder) finish() error {
	if d.info.samples != 0 && d.frames != d.info.samples {
		return fmt.Errorf("%w: the stream ends after %d of the %d samples it declares", ErrTruncated, d.frames, d.info.samples)
	}
	if d.frames == 0 {
		return fmt.Errorf("%w: no audio frames", ErrMalformed)
	}
	if d.md5 != nil {
		if sum := d.md5.sum(); sum != d.info.md5 {
			return fmt.Errorf("%w: the decoded samples' MD5 %x differs from the stream's %x", ErrMalformed, sum, d.info.md5)
		}
	}
	return nil
}
