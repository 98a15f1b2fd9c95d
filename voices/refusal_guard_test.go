package voices

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/lifetime/guard"
)

// refusalKind is one way a steady-frame call is refused, with the
// documented test of its error.
type refusalKind struct {
	name string
	want error
	call func() error
}

// refusalKinds builds an engine in each refusal state.
func refusalKinds(t *testing.T) []refusalKind {
	pcm := tone(mono44, 441, 440, 0.5)

	full, _ := offlineEngine(t, EngineDesc{MaxVoices: 1})
	_, fullClip := clipOf(t, full, "t", mono44, pcm, ClipDesc{})
	if _, err := full.Play(fullClip, PlayDesc{}); err != nil {
		t.Fatal(err)
	}

	busy, _ := offlineEngine(t, EngineDesc{MaxVoices: 1})
	_, busyClip := clipOf(t, busy, "t", mono44, pcm, ClipDesc{})
	busy.slots.setGen(busy.slots.pools[mono44.index()].base, lastGen)
	if _, err := busy.Play(busyClip, PlayDesc{}); err != nil {
		t.Fatal(err)
	}
	if err := busy.StopAll(time.Millisecond); err != nil { // the slot's last voice ends: retired
		t.Fatal(err)
	}

	queued, _ := offlineEngine(t, EngineDesc{QueueSize: 2})
	_, queuedClip := clipOf(t, queued, "t", mono44, pcm, ClipDesc{})
	live, err := queued.Play(queuedClip, PlayDesc{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := queued.Play(queuedClip, PlayDesc{}); err != nil {
		t.Fatal(err)
	}

	stale, staleDev := offlineEngine(t, EngineDesc{})
	_, staleClip := clipOf(t, stale, "t", mono44, pcm, ClipDesc{})
	ended, err := stale.Play(staleClip, PlayDesc{})
	if err != nil {
		t.Fatal(err)
	}
	render(t, staleDev, 1024)
	bank, releasedClip := clipOf(t, stale, "released", mono44, pcm, ClipDesc{})
	if err := bank.Release(time.Millisecond); err != nil {
		t.Fatal(err)
	}

	closed, _ := offlineEngine(t, EngineDesc{})
	_, closedClip := clipOf(t, closed, "t", mono44, pcm, ClipDesc{})
	closedLive, err := closed.Play(closedClip, PlayDesc{})
	if err != nil {
		t.Fatal(err)
	}
	if err := closed.Close(); err != nil {
		t.Fatal(err)
	}

	play := func(e *Engine, c Clip) func() error {
		return func() error { _, err := e.Play(c, PlayDesc{}); return err }
	}
	return []refusalKind{
		{"no voice: caps", ErrNoVoice, play(full, fullClip)},
		{"no voice: slot retired", ErrNoVoice, play(busy, busyClip)},
		{"queue full: Play", ErrQueueFull, play(queued, queuedClip)},
		{"queue full: SetVolume", ErrQueueFull, func() error { return queued.SetVolume(live, 0.5) }},
		{"queue full: SetMasterGain", ErrQueueFull, func() error { return queued.SetMasterGain(0.5) }},
		{"stale handle: Stop", ErrStaleHandle, func() error { return stale.Stop(ended) }},
		{"zero handle: SetPan", ErrStaleHandle, func() error { return stale.SetPan(0, 0.5) }},
		{"released bank: Play", ErrClosed, play(stale, releasedClip)},
		{"closed engine: Play", ErrClosed, play(closed, closedClip)},
		{"closed engine: Stop", ErrClosed, func() error { return closed.Stop(closedLive) }},
		{"closed engine: SetFormatGain", ErrClosed, func() error { return closed.SetFormatGain(mono44, 1) }},
	}
}

// TestRefusalCheckNeverAllocates runs the documented test of every
// refusal millions of times inside guarded frames (lifetime/guard in site
// mode, which would name any allocating site) and under AllocsPerRun: the
// call, its refusal and the errors.Is against its own sentinel, and the
// switch on the value that tells several refusals apart. Before, the
// refusals were wrapped errors, and errors.Is allocated now and then
// while the runtime filled its type-assertion caches (the stress gate
// failed on it; TestErrorsIsPastFirstComparison shows the mechanism).
func TestRefusalCheckNeverAllocates(t *testing.T) {
	testenv.SkipUnderRace(t)
	defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
	guard.EnableSiteProfiling()
	const total = 5_000_000
	for _, k := range refusalKinds(t) {
		t.Run(k.name, func(t *testing.T) {
			isCheck := func() bool { return errors.Is(k.call(), k.want) }
			switchCheck := func() bool {
				switch k.call() {
				case ErrNoVoice, ErrQueueFull, ErrStaleHandle, ErrClosed:
					return true
				}
				return false
			}
			for form, check := range map[string]func() bool{"errors.Is": isCheck, "switch": switchCheck} {
				if !check() {
					t.Fatalf("%s: %v is not %v", form, k.call(), k.want)
				}
				testenv.NoAllocs(t, k.name+" tested with "+form, 10_000, func() { _ = check() })
				n, elapsed := checkGuarded(t, check, total, 20*time.Second)
				t.Logf("%s: %d checks in guarded frames, 0 allocations, %v", form, n, elapsed)
			}
		})
	}
}

// checkGuarded runs check up to total times in guarded frames of 10 000
// calls each, for at most budget, and fails on any allocation, on any
// check that reports false, or if fewer than a million calls ran in armed
// frames. It returns the calls made in armed frames.
func checkGuarded(t *testing.T, check func() bool, total int, budget time.Duration) (int, time.Duration) {
	t.Helper()
	const settle, perFrame = 2, 10_000
	g, err := guard.New(guard.Desc{Settle: settle, Sites: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	deadline := start.Add(budget)
	n, failed := 0, 0
	for frame := 0; n < total && (frame < settle || time.Now().Before(deadline)); frame++ {
		g.BeginFrame()
		for i := 0; i < perFrame; i++ {
			if !check() {
				failed++
			}
		}
		g.EndFrame()
		if frame >= settle {
			n += perFrame
		}
	}
	r := g.Report()
	if err := g.Err(); err != nil || r.Violations != 0 {
		t.Errorf("guard: %v (%d violations in %d armed frames)", err, r.Violations, r.Armed)
	}
	if failed != 0 {
		t.Errorf("%d checks did not see the refusal", failed)
	}
	if n < 1_000_000 {
		t.Errorf("only %d checks ran in armed frames within %v", n, budget)
	}
	return n, time.Since(start)
}

// errorsProbe is what TestErrorsIsPastFirstComparison's child measures, in
// a fresh process whose type-assertion caches hold nothing yet.
type errorsProbe struct {
	BareMatched    uint64 // errors.Is(ErrNoVoice, ErrNoVoice): the refusal as returned now
	BareSwitch     uint64 // switch err { case ErrQueueFull, ErrNoVoice: }
	WrappedMatched uint64 // errors.Is(fmt.Errorf("%w: ...", ErrNoVoice), ErrNoVoice): as returned before
	BareMismatched uint64 // errors.Is(ErrQueueFull, ErrNoVoice)
	Calls          int
}

const envErrorsProbe = "VOICES_ERRORS_PROBE"

// TestErrorsIsPastFirstComparison shows, in a fresh process, why refusals
// are bare sentinels: errors.Is on a wrapped refusal (the old errors)
// allocates while the runtime fills its type-assertion caches, and so does
// errors.Is against another sentinel, while errors.Is against the
// refusal's own sentinel, and a switch on the value, never do. If a Go
// release stops filling those caches lazily, the mismatch case reads 0
// and this test asks for the errors doc to be revisited.
func TestErrorsIsPastFirstComparison(t *testing.T) {
	if out := os.Getenv(envErrorsProbe); out != "" {
		writeErrorsProbe(t, out)
		return
	}
	testenv.SkipUnderRace(t)
	out := t.TempDir() + "/probe.json"
	cmd := exec.Command(os.Args[0], "-test.run=^TestErrorsIsPastFirstComparison$", "-test.count=1")
	cmd.Env = append(os.Environ(), envErrorsProbe+"="+out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("probe child: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var p errorsProbe
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	t.Logf("allocations in %d calls each: bare matched %d, switch %d, wrapped matched %d, bare mismatched %d",
		p.Calls, p.BareMatched, p.BareSwitch, p.WrappedMatched, p.BareMismatched)
	if p.BareMatched != 0 || p.BareSwitch != 0 {
		t.Errorf("the documented tests allocated: errors.Is %d, switch %d", p.BareMatched, p.BareSwitch)
	}
	if p.WrappedMatched == 0 || p.BareMismatched == 0 {
		t.Errorf("errors.Is past its first comparison no longer allocates in a fresh process (wrapped %d, mismatched %d): revisit errors.go's doc",
			p.WrappedMatched, p.BareMismatched)
	}
}

// writeErrorsProbe runs in the child: each case on its own, counting the
// process's heap allocations.
func writeErrorsProbe(t *testing.T, out string) {
	const calls = 2_000_000
	count := func(f func() bool) uint64 {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		for i := 0; i < calls; i++ {
			if !f() {
				panic("probe: the check failed")
			}
		}
		runtime.ReadMemStats(&m1)
		return m1.Mallocs - m0.Mallocs
	}
	var bare, other error = ErrNoVoice, ErrQueueFull
	wrapped := fmt.Errorf("%w: Play of a %v clip: every voice the caps allow is busy", ErrNoVoice, mono44)
	p := errorsProbe{Calls: calls}
	p.BareMatched = count(func() bool { return errors.Is(bare, ErrNoVoice) })
	p.BareSwitch = count(func() bool {
		switch bare {
		case ErrQueueFull, ErrNoVoice:
			return true
		}
		return false
	})
	p.WrappedMatched = count(func() bool { return errors.Is(wrapped, ErrNoVoice) })
	p.BareMismatched = count(func() bool { return !errors.Is(other, ErrNoVoice) })
	b, _ := json.Marshal(p)
	if err := os.WriteFile(out, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
