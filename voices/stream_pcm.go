package voices

import (
	"fmt"
	"io"
)

// PCMSource is a StreamSource of raw PCM in an io.ReaderAt: length bytes
// from offset, in one Format. It reads with ReadAt and allocates nothing.
// It belongs to the stream that reads it; the ReaderAt must stay valid
// until that Stream's Close returns nil.
type PCMSource struct {
	r      io.ReaderAt
	off    int64
	frames int64
	f      Format
	pos    int64 // the next frame
}

// NewPCMSource returns a source of the length bytes of r at offset, PCM
// in format f; length must be a whole, non-zero number of frames.
func NewPCMSource(r io.ReaderAt, offset, length int64, f Format) (*PCMSource, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	fb := int64(f.FrameBytes())
	if r == nil || offset < 0 || length <= 0 || length%fb != 0 {
		return nil, fmt.Errorf("%w: PCM source of %d bytes at offset %d: want a reader and a whole, non-zero number of %d-byte %v frames",
			ErrPCM, length, offset, fb, f)
	}
	return &PCMSource{r: r, off: offset, frames: length / fb, f: f}, nil
}

// Format returns the source's format.
func (p *PCMSource) Format() Format { return p.f }

// Frames returns the source's length in frames.
func (p *PCMSource) Frames() int64 { return p.frames }

// Read reads the next whole frames into b. A reader that ends early ends
// the stream there (io.EOF); its other errors are returned as they are.
func (p *PCMSource) Read(b []byte) (int, error) {
	fb := int64(p.f.FrameBytes())
	k := min(int64(len(b))/fb, p.frames-p.pos)
	if k <= 0 {
		return 0, io.EOF
	}
	n, err := p.r.ReadAt(b[:k*fb], p.off+p.pos*fb)
	got := int64(n) / fb
	p.pos += got
	if err == io.EOF && got == k {
		err = nil
	}
	if err == nil && p.pos == p.frames {
		err = io.EOF
	}
	return int(got * fb), err
}

// SeekFrame makes the next Read start at frame n.
func (p *PCMSource) SeekFrame(n int64) error {
	if n < 0 || n > p.frames {
		return fmt.Errorf("%w: seek to frame %d of a %d-frame PCM source", ErrInvalid, n, p.frames)
	}
	p.pos = n
	return nil
}
