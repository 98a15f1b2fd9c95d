package mp3

import (
	"fmt"
	"io"

	gomp3 "github.com/hajimehoshi/go-mp3"

	"github.com/steadyframe/steadyframe/lifetime/guard"
	"github.com/steadyframe/steadyframe/voices"
)

// Source streams an MP3 file, decoding it a frame at a time as
// Engine.NewStream's decoder goroutine reads it: a voices.StreamSource.
// It belongs to that goroutine once the stream has it. go-mp3 allocates
// per frame; see GuardAllow.
type Source struct {
	d       *gomp3.Decoder
	f       voices.Format
	frames  int64
	discard [4096]byte // the pre-roll SeekFrame decodes and drops
}

// preRoll is how many frames SeekFrame decodes before its target and
// drops: three MPEG-1 layer III frames. A frame's main data may begin up
// to 511 bytes back in the bit reservoir (two frames at 128 kbit/s or
// more), and its output overlaps the frame before it, so the samples
// from the target on come out as a decode from the start gives them.
const preRoll = 3 * 1152

// NewSource reads the MP3 stream in r up to its end once, to index its
// frames (go-mp3 does so with any io.Seeker, reading each frame whole),
// then seeks r back. The source reads r again as it plays, so r must stay
// valid until the stream's Close returns nil. Errors wrap this
// package's sentinels, as Decode's do.
func NewSource(r io.ReadSeeker) (s *Source, err error) {
	defer func() {
		if p := recover(); p != nil {
			s, err = nil, fmt.Errorf("%w: the decoder panicked: %v", ErrMalformed, p)
		}
	}()
	d, err := gomp3.NewDecoder(r)
	if err != nil {
		if err == io.EOF {
			return nil, fmt.Errorf("%w: no MPEG audio frame", ErrMalformed)
		}
		return nil, decoderError(err, 0)
	}
	f := format
	f.Rate = d.SampleRate()
	return &Source{d: d, f: f, frames: d.Length() / int64(f.FrameBytes())}, nil
}

// Format returns the source's format: 16-bit stereo at the file's rate.
func (s *Source) Format() voices.Format { return s.f }

// Frames returns the stream's length in frames, counted from its frame
// headers.
func (s *Source) Frames() int64 { return s.frames }

// Read decodes the next frames into p. A panic in the decoder comes back
// as an error wrapping ErrMalformed.
func (s *Source) Read(p []byte) (n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			n, err = 0, fmt.Errorf("%w: the decoder panicked: %v", ErrMalformed, r)
		}
	}()
	n, err = s.d.Read(p)
	if err != nil && err != io.EOF {
		err = decoderError(err, 0)
	}
	return n, err
}

// SeekFrame makes the next Read start at frame n, exactly. It seeks
// preRoll frames earlier and decodes up to n. The bit reservoir and the
// filter banks then hold what a decode from the start would
// (TestSourceSeek checks the bits).
func (s *Source) SeekFrame(n int64) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: the decoder panicked: %v", ErrMalformed, r)
		}
	}()
	if n < 0 || n > s.frames {
		return fmt.Errorf("%w: seek to frame %d of %d", voices.ErrInvalid, n, s.frames)
	}
	fb := int64(s.f.FrameBytes())
	from := max(n-preRoll, 0)
	if _, err := s.d.Seek(from*fb, io.SeekStart); err != nil {
		return err
	}
	for left := (n - from) * fb; left > 0; {
		k, err := s.d.Read(s.discard[:min(left, int64(len(s.discard)))])
		left -= int64(k)
		if err != nil {
			return err
		}
	}
	return nil
}

// goMP3Site is the prefix of every function of go-mp3's module.
const goMP3Site = "github.com/hajimehoshi/go-mp3"

// guardReason says why go-mp3's allocations are tolerated.
const guardReason = "go-mp3 (third-party) allocates per MP3 frame as a stream decodes: " +
	"its frame, side info, main data and PCM buffers are new each frame " +
	"(BenchmarkSource measures them per second of audio). The reader it reads and the engine stay guarded"

// GuardAllow returns the allowlist entry a guard needs while an MP3
// stream plays: go-mp3, on the stream's decoder goroutine, allocates for
// every frame it decodes. It covers only go-mp3's own code; the reader
// it reads, this package and the engine stay guarded. Pass it in
// guard.Desc.Allow; the value is the caller's.
func GuardAllow() guard.Allow { return guard.Allow{Site: goMP3Site, Reason: guardReason} }
