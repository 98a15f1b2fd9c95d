package wav

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// TestNewSourceMatchesParse reads every seed file both ways: NewSource
// must find the same format and stream the same data bytes as Parse, or
// refuse the file with the same sentinel. (Parse accepts an empty data
// chunk as an empty view; a stream of no frames is refused.)
func TestNewSourceMatchesParse(t *testing.T) {
	sentinels := []error{ErrNotWAV, ErrTruncated, ErrMalformed, ErrUnsupported}
	kind := func(err error) error {
		for _, s := range sentinels {
			if errors.Is(err, s) {
				return s
			}
		}
		return err
	}
	for name, b := range seeds() {
		f, data, perr := Parse(b)
		src, serr := NewSource(bytes.NewReader(b), int64(len(b)))
		if perr == nil && len(data) == 0 {
			if !errors.Is(serr, ErrMalformed) {
				t.Errorf("%s: an empty data chunk: NewSource %v, want ErrMalformed", name, serr)
			}
			continue
		}
		if perr != nil || serr != nil {
			if kind(perr) != kind(serr) {
				t.Errorf("%s: Parse %v, NewSource %v", name, perr, serr)
			}
			continue
		}
		if src.Format() != f {
			t.Errorf("%s: NewSource format %v, Parse %v", name, src.Format(), f)
		}
		got := make([]byte, len(data)+64)
		n, err := io.ReadAtLeast(readerOf(src), got, len(data))
		if err != nil && err != io.ErrUnexpectedEOF {
			t.Errorf("%s: reading the source: %v", name, err)
		}
		if !bytes.Equal(got[:n], data) {
			t.Errorf("%s: the source streamed %d bytes that differ from Parse's %d", name, n, len(data))
		}
	}
}

// readerOf reads a source as a plain io.Reader.
func readerOf(s interface{ Read([]byte) (int, error) }) io.Reader { return readFunc(s.Read) }

type readFunc func([]byte) (int, error)

func (f readFunc) Read(p []byte) (int, error) { return f(p) }
