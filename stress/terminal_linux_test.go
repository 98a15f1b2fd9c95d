package main

import (
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/lifetime/guard"
)

// TestTerminalProgressNoAllocs redraws the progress line on a
// pseudo-terminal inside guarded frames: the guard, armed, must count no
// allocation in 300 redraws, and neither may AllocsPerRun. The terminal
// line is one line redrawn in place: a carriage return, fixed-width
// fields, no newline until Finish.
func TestTerminalProgressNoAllocs(t *testing.T) {
	p := openPTY(t)
	p.mu.Lock()
	p.out.Grow(1 << 20) // the drain must not allocate while the guard counts
	p.mu.Unlock()
	prog := newProgress(p.tty, 0, time.Minute, time.Millisecond)
	if !prog.term {
		t.Fatal("the pseudo-terminal was not taken for a terminal")
	}
	var at time.Duration
	redraw := func(frame uint64) {
		at += time.Millisecond
		prog.Update(at, frame, 239, 275, true)
	}
	testenv.SkipUnderRace(t)
	g, err := guard.New(guard.Desc{Settle: 10, MinFrames: 300, Window: 1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	for f := range uint64(310) {
		g.BeginFrame()
		redraw(f)
		g.EndFrame()
	}
	if err := g.Verdict(); err != nil {
		t.Errorf("redrawing the terminal line in guarded frames: %v", err)
	}
	testenv.NoAllocs(t, "a terminal progress redraw", 300, func() { redraw(7) })
	prog.Finish()
	time.Sleep(50 * time.Millisecond)
	out := p.output()
	if n := strings.Count(out, "\rstress "); n < 600 {
		t.Errorf("%d redraws reached the terminal, want 611", n)
	}
	if strings.Count(out, "\n") > 1 {
		t.Errorf("the terminal line broke into lines: %d newlines", strings.Count(out, "\n"))
	}
	last := out[strings.LastIndex(out, "\rstress "):]
	for _, want := range []string{"frames        7", "descriptors live  239 peak  275", "guard ok"} {
		if !strings.Contains(last, want) {
			t.Errorf("the last redraw %q lacks %q", last, want)
		}
	}
}

// TestTerminalRunPasses is the steady-frame gate with stdout on a
// pseudo-terminal, where the progress line redraws in place inside
// guarded frames every 20 ms: the run must pass with no allocation.
func TestTerminalRunPasses(t *testing.T) {
	p := openPTY(t)
	dir := t.TempDir()
	c := startChild(t, p.tty, "-headless", "-audio", "offline", "-frames", "450", "-progress-every", "20ms",
		"-report", dir)
	res := c.wait(3 * time.Minute)
	out := p.closeTTY()
	r := readReport(t, dir)
	if res.code != exitPass || !r.passed() || r.Guard.Violations != 0 {
		t.Fatalf("exit %d, verdict %q, %d violating spans; stderr:\n%s", res.code, r.Verdict, r.Guard.Violations, tail(res.stderr, 20))
	}
	if n := strings.Count(out, "\rstress "); n < 20 {
		t.Errorf("%d progress redraws on the terminal, want one per 20 ms", n)
	}
	if !strings.Contains(out, "steadyframe stress report") {
		t.Error("the report did not reach the terminal")
	}
}
