package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/steadyframe/steadyframe/internal/scene"
)

// GLFW must run on the main OS thread, and the demo's render goroutine is
// the main goroutine: lock it before main runs.
func init() { runtime.LockOSThread() }

func main() { os.Exit(run(os.Args[1:], os.Stderr)) }

// Exit statuses: a usage error never panics.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// errUsage marks a command line that cannot run.
var errUsage = errors.New("demo: usage")

// options is the parsed command line: the flags the demo shares with the
// stress tool (scene.Options: -frames, -sprites, -audio, -log) and its own.
type options struct {
	scene.Options
	screenshot string
	width      int
	height     int
	auto       bool
	spritePath string     // -sprite-path: pathBind or pathArray
	keys       []keyPress // -keys, in frame order
}

// keyPress is one -keys entry: key pressed at frame.
type keyPress struct {
	key   byte
	frame uint64
}

// parseKeys parses -keys: KEY@FRAME entries, comma-separated, with KEY
// one of L, V, U, Q, R.
func parseKeys(s string) ([]keyPress, error) {
	var ks []keyPress
	for _, e := range strings.Split(s, ",") {
		k, f, ok := strings.Cut(strings.TrimSpace(e), "@")
		n, err := strconv.ParseUint(f, 10, 64)
		if !ok || len(k) != 1 || !strings.Contains("LVUQR", strings.ToUpper(k)) || err != nil || n == 0 {
			return nil, scene.BadFlag("keys", s, "want KEY@FRAME,... with KEY one of L, V, U, Q, R and FRAME from 1")
		}
		ks = append(ks, keyPress{key: strings.ToUpper(k)[0], frame: n})
	}
	slices.SortStableFunc(ks, func(a, b keyPress) int { return cmp.Compare(a.frame, b.frame) })
	return ks, nil
}

func parseOptions(args []string, usage io.Writer) (options, error) {
	o := options{Options: scene.Options{Sprites: 300, Audio: "auto", Log: "text", Emitters: 200}, width: 1024, height: 640, spritePath: pathBind}
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(usage)
	o.Register(fs, "stop after this many frames (0: run until the window is closed)")
	fs.StringVar(&o.screenshot, "screenshot", o.screenshot, "write the last frame to this PNG file (needs -frames)")
	fs.IntVar(&o.width, "width", o.width, "window width in pixels (320..4096)")
	fs.IntVar(&o.height, "height", o.height, "window height in pixels (240..4096)")
	fs.BoolVar(&o.auto, "auto", o.auto, "press the keys by itself: a quality swap every 2 s, a resize every 3 s, a sound every second")
	fs.StringVar(&o.spritePath, "sprite-path", o.spritePath, "how sprites are drawn: bind (a texture bound per draw) or array (one draw from a texture array)")
	keys := fs.String("keys", "", "press these keys at these frames, as KEY@FRAME,... (L leak or fix, V voice storm, U upload flood, Q quality, R rebake)")
	err := o.Parse(fs, args, errUsage, func() error {
		if *keys != "" {
			var err error
			if o.keys, err = parseKeys(*keys); err != nil {
				return err
			}
		}
		return o.check()
	})
	return o, err
}

// check returns the first of the demo's own flags whose value cannot run.
func (o *options) check() error {
	switch {
	case o.screenshot != "" && o.Frames == 0:
		return scene.BadFlag("screenshot", o.screenshot, "needs -frames, so there is a last frame to capture")
	case o.width < 320 || o.width > 4096:
		return scene.BadFlag("width", o.width, "want 320..4096")
	case o.height < 240 || o.height > 4096:
		return scene.BadFlag("height", o.height, "want 240..4096")
	case o.spritePath != pathBind && o.spritePath != pathArray:
		return scene.BadFlag("sprite-path", o.spritePath, "want bind or array")
	}
	return nil
}

// run is the whole program, callable from a test's child process.
func run(args []string, stderr io.Writer) int {
	o, err := parseOptions(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	logger := scene.NewLogger(o.Log, stderr)
	d, err := newDemo(o, logger)
	if err != nil {
		fmt.Fprintf(stderr, "demo: FAIL: %s\n", strings.ReplaceAll(err.Error(), "\n", "; "))
		return exitFail
	}
	start := time.Now()
	loopErr := d.loop()
	frames := d.frame
	d.logSprites()
	shotErr := d.saveScreenshot(o.screenshot)
	tdErr := d.teardown()
	logger.Info("demo: done", "frames", frames, "seconds", time.Since(start).Seconds())
	if err := errors.Join(loopErr, shotErr, tdErr); err != nil {
		fmt.Fprintf(stderr, "demo: FAIL: %s\n", strings.ReplaceAll(err.Error(), "\n", "; "))
		return exitFail
	}
	return exitOK
}

// capture reads the frame just drawn (before the swap) into d.shot.
func (d *demo) capture() {
	w, h := d.win.Size()
	d.shotW, d.shotH = w, h
	if len(d.shot) != w*h*4 {
		d.shot = make([]byte, w*h*4)
	}
	gl.PixelStorei(gl.PACK_ALIGNMENT, 1)
	gl.ReadPixels(0, 0, int32(w), int32(h), gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(d.shot))
}

// saveScreenshot writes the captured frame as a PNG, top row first.
func (d *demo) saveScreenshot(path string) error {
	if path == "" {
		return nil
	}
	if d.shot == nil {
		return fmt.Errorf("demo: no frame captured for %s", path)
	}
	w, h := d.shotW, d.shotH
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		// GL's rows start at the bottom.
		copy(img.Pix[y*img.Stride:(y+1)*img.Stride], d.shot[(h-1-y)*w*4:(h-y)*w*4])
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("demo: screenshot: %w", err)
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("demo: screenshot: %w", err)
	}
	d.log.Info("demo: screenshot written", "path", path, "size", fmt.Sprintf("%dx%d", w, h))
	return f.Close()
}

// teardown runs the scene's explicit, logged shutdown order (scene.Plan):
// voices stop before the sound memory they read is released, and the
// frames drain before the textures and the upload buffer the GPU may
// still read are deleted; the window goes last.
func (d *demo) teardown() error {
	// A leak the user started is freed first, as its fix would.
	d.storms.fix(d)
	td, err := scene.Plan(d.log, d.snd, d.r, d.tex)
	if err != nil {
		return fmt.Errorf("demo: teardown plan: %w", err)
	}
	return td.Run()
}
