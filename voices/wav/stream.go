package wav

import (
	"fmt"
	"io"

	"github.com/steadyframe/steadyframe/voices"
)

// maxFmtChunk bounds the fmt chunk NewSource reads into memory: the
// largest layout it reads (extensible) is 40 bytes.
const maxFmtChunk = 1 << 10

// NewSource returns a source that streams the data chunk of the WAV
// file of size bytes in r (Engine.NewStream). It reads with ReadAt as the
// stream plays. It accepts what Parse accepts, with the same errors. It
// reads only the chunk headers and the fmt chunk, so a file of any
// length costs a few hundred bytes. r must stay valid until the stream's
// Close returns nil.
//
// The chunk walk is Parse's, over ReadAt instead of a slice. Parse
// returns a view of memory and allocates nothing; a walk over a reader
// could not promise that.
func NewSource(r io.ReaderAt, size int64) (*voices.PCMSource, error) {
	var h [12]byte
	n, _ := r.ReadAt(h[:], 0)
	end, err := riffHeader(h[:n], max(size, int64(n)))
	if err != nil {
		return nil, err
	}
	var f voices.Format
	haveFmt := false
	for off := int64(12); ; {
		if end-off < 8 {
			if !haveFmt {
				return nil, fmt.Errorf("%w: no fmt chunk before the end of the RIFF body at byte %d", ErrTruncated, end)
			}
			return nil, fmt.Errorf("%w: no data chunk before the end of the RIFF body at byte %d", ErrTruncated, end)
		}
		var ch [8]byte
		if _, err := r.ReadAt(ch[:], off); err != nil {
			return nil, fmt.Errorf("%w: reading the chunk header at byte %d: %w", ErrTruncated, off, err)
		}
		id, n, body := string(ch[:4]), int64(le.Uint32(ch[4:])), off+8
		if n > end-body {
			return nil, fmt.Errorf("%w: chunk %q at byte %d declares %d bytes; the RIFF body has %d left", ErrTruncated, id, off, n, end-body)
		}
		switch id {
		case "fmt ":
			if haveFmt {
				return nil, fmt.Errorf("%w: second fmt chunk at byte %d", ErrMalformed, off)
			}
			c := make([]byte, min(n, maxFmtChunk))
			if _, err := r.ReadAt(c, body); err != nil {
				return nil, fmt.Errorf("%w: reading the fmt chunk at byte %d: %w", ErrTruncated, off, err)
			}
			var err error
			if f, err = parseFmt(c); err != nil {
				return nil, err
			}
			haveFmt = true
		case "data":
			if !haveFmt {
				return nil, fmt.Errorf("%w: data chunk at byte %d before the fmt chunk", ErrMalformed, off)
			}
			if fb := int64(f.FrameBytes()); n%fb != 0 || n == 0 {
				return nil, fmt.Errorf("%w: data chunk of %d bytes is not a whole, non-zero number of %d-byte %v frames", ErrMalformed, n, fb, f)
			}
			return voices.NewPCMSource(r, body, n, f)
		}
		off = min(body+n+n&1, end)
	}
}
