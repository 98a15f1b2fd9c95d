package scene_test

import (
	"errors"
	"io"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/scene"
)

// TestMusicStreams checks the music: it plays from its stream on the
// offline device with no underrun, its file already unlinked (on Unix),
// and the sound-memory stage closes the stream, then the file.
func TestMusicStreams(t *testing.T) {
	a, err := scene.OpenAudio("offline", scene.NewLogger("text", io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	f, dir := scene.MusicFile(a)
	if f == nil {
		t.Fatal("no music file open")
	}
	if runtime.GOOS != "windows" && dir != "" {
		t.Errorf("music directory %s still there: want it removed once the file is open", dir)
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
	if g, d := scene.MusicFile(a); g != nil || d != "" {
		t.Errorf("after the sound-memory stage: file %v, directory %q; want both gone", g, d)
	}
	if err := f.Close(); !errors.Is(err, os.ErrClosed) {
		t.Errorf("the music file's Close again: %v, want os.ErrClosed (closed by the stage)", err)
	}
	if err := a.MusicStream().Close(0); err != nil {
		t.Errorf("the stream's Close again: %v, want nil (closed)", err)
	}
}

// TestMusicCloseWithoutStages checks that Close alone (a failed start)
// still closes the stream and the file.
func TestMusicCloseWithoutStages(t *testing.T) {
	a, err := scene.OpenAudio("offline", scene.NewLogger("text", io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	f, _ := scene.MusicFile(a)
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if g, d := scene.MusicFile(a); g != nil || d != "" {
		t.Errorf("after Close: file %v, directory %q; want both gone", g, d)
	}
	if err := f.Close(); !errors.Is(err, os.ErrClosed) {
		t.Errorf("the music file's Close again: %v, want os.ErrClosed", err)
	}
}
