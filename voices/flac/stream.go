package flac

import (
	"fmt"
	"io"
	"math"

	mflac "github.com/mewkiz/flac"

	"github.com/steadyframe/steadyframe/lifetime/guard"
	"github.com/steadyframe/steadyframe/voices"
)

// Source streams a FLAC file, decoding it a frame at a time as
// Engine.NewStream's decoder goroutine reads it: a voices.StreamSource.
// It belongs to that goroutine once the stream has it. mewkiz/flac
// allocates per frame; see GuardAllow.
type Source struct {
	s      *mflac.Stream
	src    *recordingReader
	d      decoder // its pcm holds the current frame, converted
	off    int     // the next byte of d.pcm to read
	frames int64
}

// NewSource reads the FLAC stream's header from r and indexes its frames
// (mewkiz/flac's seek table, built by reading the stream once), then
// seeks back to its first frame. The source reads r again as it plays,
// so r must stay valid until the stream's Close returns nil. A stream
// must declare its length. Streaming does not check the MD5 signature,
// which covers the whole stream; Decode does. Errors wrap this package's
// sentinels, as Decode's do.
func NewSource(r io.ReadSeeker) (src *Source, err error) {
	rec := &recordingReader{r: r}
	rs := readSeeker{rec, r}
	defer func() {
		if p := recover(); p != nil {
			src, err = nil, fmt.Errorf("%w: the decoder panicked: %v", ErrMalformed, p)
		}
	}()
	s, err := mflac.NewSeek(rs)
	if err != nil {
		return nil, rec.wrap(err, "in the header")
	}
	info, f, err := infoOf(s.Info)
	if err != nil {
		return nil, err
	}
	if info.samples == 0 {
		return nil, fmt.Errorf("%w: a stream of undeclared length (STREAMINFO gives 0 samples)", ErrUnsupported)
	}
	src = &Source{s: s, src: rec, frames: int64(info.samples),
		d: decoder{info: info, format: f, limit: math.MaxInt}}
	// The largest block a frame may hold, so that no frame regrows it.
	src.d.pcm = make([]byte, 0, int(max(s.Info.BlockSizeMax, 1))*f.FrameBytes())
	if err := src.SeekFrame(0); err != nil {
		return nil, err
	}
	return src, nil
}

// readSeeker reads through the recording reader and seeks the caller's.
type readSeeker struct {
	*recordingReader
	s io.Seeker
}

func (r readSeeker) Seek(off int64, whence int) (int64, error) { return r.s.Seek(off, whence) }

// Format returns the source's format: 16-bit PCM for streams of up to 16
// bits, 32-bit float for deeper ones, at the stream's rate and channels.
func (s *Source) Format() voices.Format { return s.d.format }

// Frames returns the stream's declared length in frames.
func (s *Source) Frames() int64 { return s.frames }

// Read decodes the next frames into p. A panic in the decoder comes back
// as an error wrapping ErrMalformed.
func (s *Source) Read(p []byte) (n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			if s.src.reading {
				panic(r) // the caller's reader's, not the decoder's
			}
			n, err = 0, fmt.Errorf("%w: the decoder panicked: %v", ErrMalformed, r)
		}
	}()
	fb := s.d.format.FrameBytes()
	for n+fb <= len(p) {
		if s.off == len(s.d.pcm) {
			if s.d.frames >= s.d.info.samples {
				return n, io.EOF
			}
			if err := s.next(); err != nil {
				return n, err
			}
		}
		c := copy(p[n:len(p)/fb*fb], s.d.pcm[s.off:])
		s.off += c
		n += c
	}
	return n, nil
}

// next decodes the next frame into d.pcm.
func (s *Source) next() error {
	fr, err := s.s.ParseNext()
	if err != nil {
		if err == io.EOF {
			return fmt.Errorf("%w: the input ends after %d of the %d samples it declares", ErrTruncated, s.d.frames, s.d.info.samples)
		}
		return s.src.wrap(err, s.d.where())
	}
	if err := s.d.check(fr); err != nil {
		return err
	}
	s.d.pcm, s.off = s.d.pcm[:0], 0
	return s.d.add(fr)
}

// SeekFrame makes the next Read start at frame n, exactly: FLAC frames
// decode alone, so it seeks to the frame that holds n and drops the
// samples before it.
func (s *Source) SeekFrame(n int64) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: the decoder panicked: %v", ErrMalformed, r)
		}
	}()
	if n < 0 || n > s.frames {
		return fmt.Errorf("%w: seek to frame %d of %d", voices.ErrInvalid, n, s.frames)
	}
	if n == s.frames {
		s.d.frames, s.d.pcm, s.off = uint64(n), s.d.pcm[:0], 0
		return nil
	}
	start, err := s.s.Seek(uint64(n))
	if err != nil {
		return s.src.wrap(err, fmt.Sprintf("seeking to sample %d", n))
	}
	s.d.frames = start
	if err := s.next(); err != nil {
		return err
	}
	s.off = int(uint64(n)-start) * s.d.format.FrameBytes()
	if s.off > len(s.d.pcm) {
		return fmt.Errorf("%w: the frame at sample %d does not hold sample %d", ErrMalformed, start, n)
	}
	return nil
}

// mewkizSite is the prefix of every function of mewkiz/flac's module;
// icza/bitio is its bit reader.
const (
	mewkizSite = "github.com/mewkiz/flac"
	bitioSite  = "github.com/icza/bitio"
)

// guardReason says why mewkiz/flac's allocations are tolerated.
const guardReason = "mewkiz/flac (third-party) allocates per FLAC frame as a stream decodes: " +
	"its frame, subframes, sample slices, CRC hashers and bit reader are new each frame " +
	"(BenchmarkSource measures them per second of audio). The reader it reads and the engine stay guarded"

// binaryReason says why encoding/binary's allocations are tolerated
// under mewkiz/flac.
const binaryReason = "mewkiz/flac reads each frame through an io.TeeReader into its CRC hashers and reads the CRC " +
	"with encoding/binary.Read; both allocate per frame in the standard library, tolerated only where mewkiz/flac calls them"

// GuardAllow returns the allowlist entries a guard needs while a FLAC
// stream plays. mewkiz/flac and its bit reader, icza/bitio, allocate for
// every frame they decode, on the stream's decoder goroutine. So do the
// io.TeeReader and encoding/binary.Read that mewkiz/flac calls: those
// entries name mewkiz/flac as their Caller, so other callers stay
// guarded. The reader
// it reads, this package and the engine stay guarded too. Pass them in
// guard.Desc.Allow; the slice is the caller's.
func GuardAllow() []guard.Allow {
	return []guard.Allow{
		{Site: mewkizSite, Reason: guardReason},
		{Site: bitioSite, Reason: guardReason},
		{Site: "encoding/binary.", Caller: mewkizSite, Reason: binaryReason},
		{Site: "io.TeeReader", Caller: mewkizSite, Reason: binaryReason},
	}
}
