package scene

import (
	"io"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/voices"
)

// TestWaitStartedAppliesEveryPlay checks waitStarted's promise: once it
// returns, every Play queued before it has been applied, so a StopAll
// right after it (a signal before the stress tool's first frame) cancels
// none. It runs on oto, which ALSA points at a file in CI, so the device
// pulls unpaced and the mixer renders block after block while the Plays
// are queued, as it did when a race-instrumented NewEmitters took longer
// than two blocks to queue its 500 Plays: waitStarted then counted its
// two blocks from before the Plays, returned at once, and StopAll
// cancelled the Plays queued last (stress's TestEarlySignalTearsDown
// failed on the request accounting). Here the Plays are queued over many
// blocks, the last ones just before the wait.
func TestWaitStartedAppliesEveryPlay(t *testing.T) {
	a, err := OpenAudio("oto", NewLogger("text", io.Discard))
	if err != nil {
		testenv.SkipOrFail(t, "no sound device for oto: "+err.Error())
	}
	defer a.Close()
	for round := range 3 {
		start := a.Engine.Stats().Blocks
		for a.Engine.Stats().Blocks < start+4 { // Plays queued over four blocks
			if _, err := a.Engine.Play(a.clips[0], voices.PlayDesc{Volume: 0.01}); err != nil && err != voices.ErrNoVoice {
				t.Fatal(err)
			}
			time.Sleep(100 * time.Microsecond)
		}
		for range 16 { // and a burst just before the wait
			if _, err := a.Engine.Play(a.clips[0], voices.PlayDesc{Volume: 0.01}); err != nil && err != voices.ErrNoVoice {
				t.Fatal(err)
			}
		}
		if err := a.waitStarted("test plays"); err != nil {
			t.Fatal(err)
		}
		before := a.Engine.Stats().Refusals
		if err := a.StopAll(); err != nil {
			t.Fatal(err)
		}
		if d := a.Engine.Stats().Refusals - before; d != 0 {
			t.Fatalf("round %d: StopAll right after waitStarted cancelled %d queued plays", round, d)
		}
	}
}
