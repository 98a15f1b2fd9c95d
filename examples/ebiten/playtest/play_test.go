//go:build linux

package playtest

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// skipOrFail skips on a user's machine without a display or ALSA, and
// fails in CI (CI=true), where the example must run: the rule of the
// library's internal/testenv, which a separate module cannot import.
func skipOrFail(t *testing.T, reason string) {
	t.Helper()
	if ci := os.Getenv("CI"); ci == "true" || ci == "1" {
		t.Fatalf("CI=true: the example cannot skip: %s", reason)
	}
	t.Skip(reason)
}

// TestExamplePlaysTone builds the example, runs it under the display in
// DISPLAY with ALSA's default device pointed at a FIFO, and checks that
// what Ebitengine played holds the engine's tone: 440 Hz, at the level of
// a centred mono voice. The FIFO keeps the capture off the disk: ALSA's
// null device is unpaced, so oto writes as fast as it can (about 1 GB/s),
// and a full read-back is paced by this test instead.
func TestExamplePlaysTone(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		skipOrFail(t, "no X display (set DISPLAY, e.g. to an Xvfb server)")
	}
	const alsaConf = "/usr/share/alsa/alsa.conf"
	if _, err := os.Stat(alsaConf); err != nil {
		skipOrFail(t, "no ALSA configuration (install libasound2): "+err.Error())
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "ebiten-example")
	if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	fifo := filepath.Join(dir, "out.raw")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "asound.conf")
	body := `pcm.!default { type file slave.pcm "null" file "` + fifo + `" format "raw" }` + "\n"
	if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	// Opened read-write, the FIFO opens at once and never reads EOF;
	// closing it ends the capture.
	f, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	captured := make(chan capture, 1)
	go func() { captured <- analyse(f) }()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-frames", "30")
	cmd.Env = append(os.Environ(), "ALSA_CONFIG_PATH="+alsaConf+":"+conf, "LIBGL_ALWAYS_SOFTWARE=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	runErr := cmd.Run()
	f.Close()
	c := <-captured
	if runErr != nil {
		t.Fatalf("the example failed: %v\n%s", runErr, out.String())
	}
	if !strings.Contains(out.String(), "played a 440 Hz tone for 30 frames") {
		t.Fatalf("the example did not report its run:\n%s", out.String())
	}
	t.Logf("captured %d frames, %d of them sound: %.2f Hz, peak %.4f, RMS %.4f", c.frames, c.sound, c.freq(), c.peak, c.rms())
	if c.sound < 48000 {
		t.Fatalf("only %d frames of sound arrived, want a second of tone at least", c.sound)
	}
	if f := c.freq(); math.Abs(f-440) > 2 {
		t.Errorf("the tone is %.2f Hz, want 440", f)
	}
	// A centred mono voice plays at amplitude × cos(π/4) on each side.
	want := 0.5 * math.Cos(math.Pi/4)
	if math.Abs(c.peak-want) > 0.01 || math.Abs(c.rms()-want/math.Sqrt2) > 0.01 {
		t.Errorf("peak %.4f, RMS %.4f: want a sine of amplitude %.4f", c.peak, c.rms(), want)
	}
}

// capture summarises the left channel of a float32 LE stereo stream,
// skipping the frames of exact silence the unpaced device plays whenever
// it outruns Ebitengine's buffers; what remains is the mixer's stream.
type capture struct {
	frames, sound int
	rising        int // upward zero crossings: cycles
	peak, sumSq   float64
}

func (c capture) freq() float64 { return float64(c.rising) * 48000 / float64(max(c.sound, 1)) }
func (c capture) rms() float64  { return math.Sqrt(c.sumSq / float64(max(c.sound, 1))) }

func analyse(r io.Reader) capture {
	var c capture
	buf := make([]byte, 1<<20)
	var prev float32
	have := 0
	for {
		n, err := r.Read(buf[have:])
		have += n
		whole := have / 8 * 8
		for o := 0; o < whole; o += 8 {
			l := math.Float32frombits(binary.LittleEndian.Uint32(buf[o:]))
			rt := math.Float32frombits(binary.LittleEndian.Uint32(buf[o+4:]))
			c.frames++
			if l == 0 && rt == 0 {
				continue
			}
			if prev < 0 && l >= 0 {
				c.rising++
			}
			prev = l
			c.sound++
			c.peak = math.Max(c.peak, math.Abs(float64(l)))
			c.sumSq += float64(l) * float64(l)
		}
		have = copy(buf, buf[whole:have])
		if err != nil {
			return c
		}
	}
}

// TestNoInternalPackages checks that the example reaches the library only
// through its public packages: a user's module cannot import internal/.
// A public package of the library may import its own internal packages
// (voices over voices/internal/dsp), as the go tool allows.
func TestNoInternalPackages(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}|{{join .Imports \" \"}}", "..").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const lib = "github.com/steadyframe/steadyframe/"
	sawVoices := false
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		d, imports, _ := strings.Cut(line, "|")
		if internalImport(lib, d, strings.Fields(imports)) {
			t.Errorf("%s imports an internal package of the library: %s", d, imports)
		}
		sawVoices = sawVoices || d == lib+"voices"
	}
	if !sawVoices {
		t.Fatalf("go list -deps does not list %svoices: the check is not looking at the example\n%s", lib, out)
	}
}

// internalImport reports whether package pkg imports an internal package
// of the library lib that is not its own: any, for the example's
// packages; for a public package of the library, one outside its own
// internal/ tree. The library's internal packages may import each other.
func internalImport(lib, pkg string, imports []string) bool {
	isInternal := func(p string) bool {
		return strings.HasPrefix(p, lib) && strings.Contains("/"+strings.TrimPrefix(p, lib), "/internal/")
	}
	if isInternal(pkg) {
		return false
	}
	for _, imp := range imports {
		if isInternal(imp) && !(strings.HasPrefix(pkg, lib) && strings.HasPrefix(imp, pkg+"/internal/")) {
			return true
		}
	}
	return false
}
