package scene_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/scene"
)

// TestMusicStreams checks the music: it plays from its stream on the
// offline device with no underrun, and the sound-memory stage closes the
// stream, then the file, and removes its directory.
func TestMusicStreams(t *testing.T) {
	a, err := scene.OpenAudio("offline", scene.NewLogger("text", io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	dir := scene.MusicDir(a)
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("music directory: %v", err)
	}
	time.Sleep(300 * time.Millisecond)
	st := a.Engine.Stats()
	if !a.Engine.Playing(a.Music) || st.StreamUnderruns != 0 || a.MusicStream().Err() != nil {
		t.Errorf("music playing %v, %d stream underruns, stream error %v: want playing, none, nil",
			a.Engine.Playing(a.Music), st.StreamUnderruns, a.MusicStream().Err())
	}
	if m := a.MusicStream().Memory(); m <= 0 || m > 1<<20 {
		t.Errorf("stream memory %d bytes, want a ring under 1 MiB (the file is %v long)", m, scene.MusicLength)
	}
	if err := a.StopAll(); err != nil {
		t.Fatal(err)
	}
	if err := a.ReleaseBanks(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("music directory after the sound-memory stage: %v, want it removed", err)
	}
	if err := a.MusicStream().Close(0); err != nil {
		t.Errorf("the stream's Close again: %v, want nil (closed)", err)
	}
}

// TestMusicCloseWithoutStages checks that Close alone (a failed start)
// still closes the stream and removes the file.
func TestMusicCloseWithoutStages(t *testing.T) {
	a, err := scene.OpenAudio("offline", scene.NewLogger("text", io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	dir := scene.MusicDir(a)
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("music directory after Close: %v, want it removed", err)
	}
}
