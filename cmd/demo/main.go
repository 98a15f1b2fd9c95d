package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"time"
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

// options is the parsed command line.
type options struct {
	frames     int
	screenshot string
	sprites    int
	audio      string
	width      int
	height     int
	auto       bool
	logFmt     string
}

func parseOptions(args []string, usage io.Writer) (options, error) {
	o := options{sprites: 300, audio: "auto", width: 1024, height: 640, logFmt: "text"}
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(usage)
	fs.IntVar(&o.frames, "frames", o.frames, "stop after this many frames (0: run until the window is closed)")
	fs.StringVar(&o.screenshot, "screenshot", o.screenshot, "write the last frame to this PNG file (needs -frames)")
	fs.IntVar(&o.sprites, "sprites", o.sprites, "sprites on screen (1..4096)")
	fs.StringVar(&o.audio, "audio", o.audio, "audio output: auto, oto or offline")
	fs.IntVar(&o.width, "width", o.width, "window width in pixels (320..4096)")
	fs.IntVar(&o.height, "height", o.height, "window height in pixels (240..4096)")
	fs.BoolVar(&o.auto, "auto", o.auto, "press the keys by itself: a quality swap every 2 s, a resize every 3 s, a sound every second")
	fs.StringVar(&o.logFmt, "log", o.logFmt, "log format: text or json")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, fmt.Errorf("%w: %v", errUsage, err)
	}
	bad := func(name string, v any, want string) error {
		return fmt.Errorf("%w: -%s %v: %s", errUsage, name, v, want)
	}
	switch {
	case fs.NArg() > 0:
		return o, fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	case o.frames < 0:
		return o, bad("frames", o.frames, "must not be negative")
	case o.screenshot != "" && o.frames == 0:
		return o, bad("screenshot", o.screenshot, "needs -frames, so there is a last frame to capture")
	case o.sprites < 1 || o.sprites > 4096:
		return o, bad("sprites", o.sprites, "want 1..4096")
	case o.audio != "auto" && o.audio != "oto" && o.audio != "offline":
		return o, bad("audio", o.audio, "want auto, oto or offline")
	case o.width < 320 || o.width > 4096:
		return o, bad("width", o.width, "want 320..4096")
	case o.height < 240 || o.height > 4096:
		return o, bad("height", o.height, "want 240..4096")
	case o.logFmt != "text" && o.logFmt != "json":
		return o, bad("log", o.logFmt, "want text or json")
	}
	return o, nil
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
	var logger *slog.Logger
	if o.logFmt == "json" {
		logger = slog.New(slog.NewJSONHandler(stderr, nil))
	} else {
		logger = slog.New(slog.NewTextHandler(stderr, nil))
	}
	d, err := newDemo(o, logger)
	if err != nil {
		fmt.Fprintf(stderr, "demo: FAIL: %s\n", strings.ReplaceAll(err.Error(), "\n", "; "))
		return exitFail
	}
	start := time.Now()
	loopErr := d.loop()
	frames := d.frame
	shotErr := d.saveScreenshot(o.screenshot)
	tdErr := d.teardown()
	logger.Info("demo: done", "frames", frames, "seconds", time.Since(start).Seconds())
	if err := errors.Join(loopErr, shotErr, tdErr); err != nil {
		fmt.Fprintf(stderr, "demo: FAIL: %s\n", strings.ReplaceAll(err.Error(), "\n", "; "))
		return exitFail
	}
	return exitOK
}
