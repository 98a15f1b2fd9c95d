package otodev

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/lifetime/guard"
	"github.com/steadyframe/steadyframe/voices"
)

// readmeGuardNew is the README's guard line, which the guard scenario runs
// as written.
const readmeGuardNew = "g, _ := guard.New(guard.Desc{Sites: true, Allow: []guard.Allow{otodev.GuardAllow()}})"

// TestReadmeGuardSnippetWithOto runs the README's guard snippet while a
// voice plays through oto (ALSA pointed at /dev/null): with the entry
// GuardAllow hands over, the verdict passes, and a guard without it
// that catches oto's allocations names oto's code, never sync or the
// runtime. Oto's allocations follow the guard's GCs, so without the
// entry most runs, not all, are caught.
func TestReadmeGuardSnippetWithOto(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(readme), "# The allocation guard\n")
	if !strings.Contains(section, readmeGuardNew) {
		t.Fatalf("the README's guard snippet does not make its guard with %q, the line this test runs", readmeGuardNew)
	}
	dir := t.TempDir()
	res := child(t, "guard-snippet", alsaToFile(t, dir, "/dev/null"))
	if res.DeviceErr != "" || res.DeviceName != "oto" {
		testenv.SkipOrFail(t, "oto could not open the ALSA file device: "+res.DeviceErr)
	}
	t.Logf("without the entry: %s", res.GuardNoEntry)
	if e := res.GuardNoEntry; e != "" && !strings.Contains(e, " at github.com/ebitengine/oto/v3/") {
		t.Errorf("a guard without the entry does not name oto's own code: %s", e)
	}
}

// TestGuardAllowKeepsReadersGuarded plays a user's reader that allocates
// on every read through the process's oto context: GuardAllow must not
// hide it. The reader's package is not a guarded prefix, as a game's
// library code is not, so only the entry's rule can report it.
func TestGuardAllowKeepsReadersGuarded(t *testing.T) {
	dir := t.TempDir()
	res := child(t, "guard-reader", alsaToFile(t, dir, "/dev/null"))
	if res.DeviceErr != "" {
		testenv.SkipOrFail(t, "oto could not open the ALSA file device: "+res.DeviceErr)
	}
	if !strings.Contains(res.GuardNoEntry, "otodev.allocReader.Read") {
		t.Fatalf("the guard with GuardAllow did not name the allocating reader: %q", res.GuardNoEntry)
	}
}

// guardScenarios are the guard's child scenarios, by mode.
var guardScenarios = map[string]func() childResult{
	"guard-snippet": runGuardSnippet,
	"guard-reader":  runGuardReader,
}

// guardFrames runs the README's loop for settle and MinFrames frames and
// more: a frame is 2 ms of game time, so oto's goroutine reads the mixer
// inside guarded frames.
func guardFrames(g *guard.Guard) error {
	time.Sleep(time.Millisecond) // a goroutine's first sleep allocates its timer
	for range guard.DefaultSettleFrames + guard.DefaultMinFrames + 60 {
		g.BeginFrame()
		time.Sleep(2 * time.Millisecond)
		g.EndFrame()
	}
	return g.Verdict()
}

func runGuardSnippet() childResult {
	var res childResult
	guard.EnableSiteProfiling() // first thing in main: names the sites
	eng, err := voices.NewEngine(voices.EngineDesc{
		Device: New(Desc{}),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		res.Fail = err.Error()
		return res
	}
	defer eng.Close()
	res.DeviceName = eng.Stats().Device.Name
	if err := eng.Err(); err != nil {
		res.DeviceErr = err.Error()
		return res
	}
	f := voices.Format{Rate: 44100, Channels: 1, Encoding: voices.EncodingInt16LE}
	c, err := eng.NewClip("tone", sine(f, 44100, 440), f)
	if err == nil {
		_, err = eng.Play(c, voices.PlayDesc{Loop: true})
	}
	if err != nil {
		res.Fail = err.Error()
		return res
	}
	// The README's guard, without the entry first.
	bare, _ := guard.New(guard.Desc{Sites: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err := guardFrames(bare); err != nil {
		res.GuardNoEntry = err.Error()
	}
	// readmeGuardNew, in this package.
	g, _ := guard.New(guard.Desc{Sites: true, Allow: []guard.Allow{GuardAllow()}})
	if err := guardFrames(g); err != nil {
		res.Fail = fmt.Sprintf("the README's guard with otodev.GuardAllow: %v", err)
	} else if blocks := eng.Stats().Blocks; blocks < 100 {
		res.Fail = fmt.Sprintf("only %d blocks mixed under the guard", blocks)
	}
	return res
}

// allocReader is a user's player source that allocates on every read.
type allocReader struct{}

var readerSink []byte

//go:noinline
func (allocReader) Read(p []byte) (int, error) {
	readerSink = make([]byte, 64)
	clear(p)
	return len(p), nil
}

func runGuardReader() childResult {
	var res childResult
	guard.EnableSiteProfiling()
	ctx, err := openContext(voices.DefaultDeviceFormat, DefaultBufferFrames)
	if err != nil {
		res.DeviceErr = err.Error()
		return res
	}
	p := ctx.NewPlayer(allocReader{})
	p.Play()
	g, err := guard.New(guard.Desc{Sites: true, Prefixes: []string{"example.com/game"}, Allow: []guard.Allow{GuardAllow()},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		res.Fail = err.Error()
		return res
	}
	if err := guardFrames(g); err != nil {
		res.GuardNoEntry = err.Error()
	}
	p.Pause()
	return res
}
