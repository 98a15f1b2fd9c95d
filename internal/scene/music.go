package scene

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/steadyframe/steadyframe/internal/tones"
	"github.com/steadyframe/steadyframe/voices"
	"github.com/steadyframe/steadyframe/voices/wav"
)

// MusicLength is the streamed music track's length: it loops.
const MusicLength = 30 * time.Second

// musicTrack is the track written to the music file: the music tone, a
// whole number of periods long, so its loop has no seam.
var musicTrack = tones.Tone{Format: musicTone.Format, Freq: musicTone.Freq, Length: MusicLength, Loop: true, Level: musicTone.Level}

// music is the scene's streamed music: a WAV file written to a temporary
// directory at start, read by the stream's decoder as it plays. It
// belongs to the goroutine that opened the Audio; the engine's stream
// goroutine reads the file until the stream's Close returns nil.
// dir is empty once removed; file is nil once closed.
type music struct {
	dir    string
	file   *os.File
	stream *voices.Stream
	closed bool // the stream's Close returned nil
}

// musicFile is the music's file name in its temporary directory.
const musicFile = "music.wav"

// openMusic writes the track, opens it and makes the stream over it.
func (a *Audio) openMusic() error {
	pcm, err := tones.Synth(musicTrack)
	if err != nil {
		return fmt.Errorf("scene: music track: %w", err)
	}
	b, err := wav.Append(nil, musicTrack.Format, pcm)
	if err != nil {
		return fmt.Errorf("scene: music track: %w", err)
	}
	m := &a.music
	if m.dir, err = os.MkdirTemp("", "steadyframe-music-"); err != nil {
		return fmt.Errorf("scene: music file: %w", err)
	}
	path := filepath.Join(m.dir, musicFile)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return fmt.Errorf("scene: music file: %w", err)
	}
	if m.file, err = os.Open(path); err != nil {
		return fmt.Errorf("scene: music file: %w", err)
	}
	// An open file stays readable once unlinked (on Unix), so a run that
	// is killed leaves nothing behind. Where that fails (Windows), the
	// teardown removes it.
	if os.RemoveAll(m.dir) == nil {
		m.dir = ""
	}
	src, err := wav.NewSource(m.file, int64(len(b)))
	if err != nil {
		return fmt.Errorf("scene: music file %s: %w", path, err)
	}
	if m.stream, err = a.Engine.NewStream(voices.StreamDesc{Name: "music", Source: src, Loop: true}); err != nil {
		return fmt.Errorf("scene: music stream: %w", err)
	}
	return nil
}

// MusicStream is the music's stream, for its memory and errors.
func (a *Audio) MusicStream() *voices.Stream { return a.music.stream }

// closeMusic closes the stream, and once it has returned nil (nothing
// reads the file any more) the file and its directory. The voices must
// have stopped (StopAll) first.
func (a *Audio) closeMusic() error {
	m := &a.music
	if m.stream != nil && !m.closed {
		if err := m.stream.Close(time.Second); err != nil {
			return err // the file stays open: the decoder may still read it
		}
		m.closed = true
	}
	return m.drop()
}

// drop closes the file and removes the directory; the stream must be
// closed, or never made.
func (m *music) drop() error {
	var errs []error
	if m.file != nil {
		errs = append(errs, m.file.Close())
		m.file = nil
	}
	if m.dir != "" {
		// The directory holds the one file. os.Remove, not RemoveAll:
		// RemoveAll's Windows path asks for POSIX delete semantics, which
		// wine refuses ("Invalid function"), failing the teardown there.
		if err := os.Remove(filepath.Join(m.dir, musicFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
		errs = append(errs, os.Remove(m.dir))
		m.dir = ""
	}
	return errors.Join(errs...)
}
