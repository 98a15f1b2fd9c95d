package wav

import (
	"fmt"

	"github.com/steadyframe/steadyframe/voices"
)

// Append appends to dst a WAV file holding pcm, interleaved frames of f,
// and returns the extended slice. The file is the one
// voices.Offline.RenderWAV writes: a plain PCM fmt chunk for int16, an
// IEEE float fmt chunk and a fact chunk for float32, then the data chunk
// with pcm unchanged, so Parse(Append(nil, f, pcm)) returns f and pcm.
//
// It fails, leaving dst as it was, on bad input. The error wraps
// voices.ErrFormat for a format voices does not play (see
// Format.Validate). It wraps voices.ErrPCM when pcm is not a whole number
// of frames or too long for a RIFF file (4 GiB).
func Append(dst []byte, f voices.Format, pcm []byte) ([]byte, error) {
	if err := f.Validate(); err != nil {
		return dst, fmt.Errorf("wav: Append: %w", err)
	}
	fb := f.FrameBytes()
	if len(pcm)%fb != 0 {
		return dst, fmt.Errorf("wav: Append: %w: %d bytes is not a whole number of %d-byte %v frames", voices.ErrPCM, len(pcm), fb, f)
	}
	h, err := voices.WAVHeader(f, len(pcm)/fb)
	if err != nil {
		return dst, fmt.Errorf("wav: Append: %w", err)
	}
	dst = append(dst, h...)
	return append(dst, pcm...), nil
}
