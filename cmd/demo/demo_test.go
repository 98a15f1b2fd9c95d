package main

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/font"
	"github.com/steadyframe/steadyframe/internal/quads"
	"github.com/steadyframe/steadyframe/internal/testenv"
)

// The demo's GL test runs it as a child process: the test binary
// re-executes itself with childEnv set and TestMain runs the demo on the
// main goroutine, which init locked to the main OS thread as GLFW needs.
const (
	childEnv = "STEADYFRAME_DEMO_CHILD"
	argsEnv  = "STEADYFRAME_DEMO_ARGS"
)

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(run(strings.Split(os.Getenv(argsEnv), "\x1f"), os.Stderr))
	}
	os.Exit(m.Run())
}

func TestOptions(t *testing.T) {
	for _, c := range []struct {
		args []string
		bad  string // substring of the error, "" for valid
	}{
		{nil, ""},
		{[]string{"-frames", "10", "-screenshot", "x.png", "-auto"}, ""},
		{[]string{"-frames", "-1"}, "-frames -1"},
		{[]string{"-screenshot", "x.png"}, "needs -frames"},
		{[]string{"-sprites", "0"}, "-sprites 0"},
		{[]string{"-sprites", "5000"}, "-sprites 5000"},
		{[]string{"-audio", "alsa"}, "-audio alsa"},
		{[]string{"-width", "100"}, "-width 100"},
		{[]string{"-height", "99999"}, "-height 99999"},
		{[]string{"-log", "xml"}, "-log xml"},
		{[]string{"-sprite-path", "array"}, ""},
		{[]string{"-sprite-path", "atlas"}, "-sprite-path atlas: want bind or array"},
		{[]string{"-frames", "ten"}, "invalid value"},
		{[]string{"-nope"}, "not defined"},
		{[]string{"-keys", "L@20,V@100,u@5"}, ""},
		{[]string{"-keys", "X@20"}, "-keys X@20"},
		{[]string{"-keys", "L@0"}, "-keys L@0"},
		{[]string{"-keys", "L"}, "-keys L"},
		{[]string{"extra"}, `unexpected argument "extra"`},
	} {
		_, err := parseOptions(c.args, io.Discard)
		switch {
		case c.bad == "" && err != nil:
			t.Errorf("%v: %v", c.args, err)
		case c.bad != "" && (!errors.Is(err, errUsage) || !strings.Contains(err.Error(), c.bad)):
			t.Errorf("%v: error %v, want errUsage mentioning %q", c.args, err, c.bad)
		}
	}
}

func TestBadFlagsExitTwo(t *testing.T) {
	var b bytes.Buffer
	if code := run([]string{"-sprites", "0"}, &b); code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	if !strings.Contains(b.String(), "-sprites 0") {
		t.Errorf("no reason printed: %q", b.String())
	}
}

// TestScreenshotShowsPanel renders the demo under a display for a few
// hundred frames (with -auto: a quality swap and a resize, so a rebake),
// takes the screenshot and checks that it is not blank and that the panel
// is drawn where and how the demo lays it out: the descriptor bar's
// track, the live segment, and the 75% and 90% marks.
func TestScreenshotShowsPanel(t *testing.T) {
	if _, err := exec.LookPath("Xvfb"); err != nil && os.Getenv("DISPLAY") == "" {
		testenv.SkipOrFail(t, "no DISPLAY and no Xvfb: the demo needs X")
	}
	shot := filepath.Join(t.TempDir(), "demo.png")
	args := []string{"-frames", "200", "-auto", "-audio", "offline", "-screenshot", shot}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1", argsEnv+"="+strings.Join(args, "\x1f"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	timer := time.AfterFunc(4*time.Minute, func() { _ = cmd.Process.Kill() })
	err := cmd.Run()
	timer.Stop()
	if err != nil {
		t.Fatalf("demo: %v\n%s", err, stderr.String())
	}
	log := stderr.String()
	for _, want := range []string{"demo: font atlas rebaked", "demo: texture quality swapped", "stage=voices-stopall", "stage=gl-context", "teardown: done"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q", want)
		}
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	checkNotBlank(t, img)
	checkPanel(t, img)
	checkMap(t, img)
}

func checkNotBlank(t *testing.T, img image.Image) {
	t.Helper()
	colors := map[uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			colors[rgba(img, x, y)] = true
		}
	}
	if len(colors) < 50 {
		t.Errorf("screenshot has %d distinct colours: blank or nearly", len(colors))
	}
}

// checkPanel finds the descriptor bar from the panel's layout constants.
func checkPanel(t *testing.T, img image.Image) {
	t.Helper()
	h := img.Bounds().Dy()
	scale := max(1, min(4, h/240))
	lineH := font.LineHeight * scale
	barY := panelY + panelPad + 2*lineH
	mid := barY + barH/2
	x0 := panelX + panelPad
	probes := []struct {
		name string
		x    int
		want uint32
	}{
		{"live segment", x0 + 1, colLive},
		{"bar track", x0 + barW/2, colTrack},
		{"75% mark", x0 + barW*3/4, colMark75},
		{"90% mark", x0 + barW*9/10, colMark90},
	}
	for _, p := range probes {
		if got := rgba(img, p.x, mid); !near(got, p.want) {
			t.Errorf("%s at (%d, %d): colour %08x, want %08x", p.name, p.x, mid, got, p.want)
		}
	}
}

func rgba(img image.Image, x, y int) uint32 {
	r, g, b, _ := img.At(x, y).RGBA()
	return (r>>8)<<24 | (g>>8)<<16 | (b>>8)<<8 | 0xff
}

// near compares colours with a little tolerance for rounding.
func near(a, b uint32) bool {
	for s := 8; s < 32; s += 8 {
		d := int(a>>s&0xff) - int(b>>s&0xff)
		if d < -3 || d > 3 {
			return false
		}
	}
	return true
}

// TestParticlesInSlots: bursts fill the pools.Slots up to its capacity and
// drop the rest, a walk releases the dead sparks it stands on, and none
// of it allocates.
func TestParticlesInSlots(t *testing.T) {
	p, err := newParticles(64)
	if err != nil {
		t.Fatal(err)
	}
	p.burst(10, 10, 100, 1)
	// The first refusal ends the burst: the rest would be refused too.
	if st := p.slots.Stats(); st.InUse != 64 || st.Refused != 1 {
		t.Errorf("a burst of 100 into 64 slots: %d live, %d refused; want 64 and 1", st.InUse, st.Refused)
	}
	p.step(particleLife / 2)
	if p.slots.Len() != 64 {
		t.Errorf("%d sparks alive at half their life", p.slots.Len())
	}
	p.step(particleLife)
	if p.slots.Len() != 0 {
		t.Errorf("%d sparks outlived their life", p.slots.Len())
	}
	w, err := quads.NewWriter(4)
	if err != nil {
		t.Fatal(err)
	}
	view := make([]byte, 64*quads.QuadBytes)
	seed := uint64(0)
	testenv.NoAllocs(t, "a frame of particles", 200, func() {
		seed++
		p.burst(20, 20, 6, seed)
		p.step(0.1)
		_ = w.Reset(view)
		p.write(w, 1)
	})
}

// BenchmarkParticles is one frame of sparks in their Slots: a burst, the
// step that releases the dead, and the quads.
func BenchmarkParticles(b *testing.B) {
	p, err := newParticles(1024)
	if err != nil {
		b.Fatal(err)
	}
	w, err := quads.NewWriter(4)
	if err != nil {
		b.Fatal(err)
	}
	view := make([]byte, 1024*quads.QuadBytes)
	seed := uint64(0)
	b.ReportAllocs()
	for b.Loop() {
		seed++
		p.burst(20, 20, 12, seed)
		p.step(1.0 / 60)
		_ = w.Reset(view)
		p.write(w, 1)
	}
}
