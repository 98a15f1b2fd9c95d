package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"
)

// errUsage marks a command line that cannot run; main exits 2 for it.
var errUsage = errors.New("stress: usage")

// config is the parsed, validated command line. It is built once before
// any goroutine starts and read-only afterwards.
type config struct {
	workers  int
	duration time.Duration
	frames   int
	headless bool
	selftest bool
	logFmt   string
	report   string
	audio    string
	seed     int64

	occupancyEvery time.Duration
	progressEvery  time.Duration
	settle         int

	// Rates. Play and churn are per second (play per worker, churn across
	// all workers); upload traffic is per worker per frame.
	playRate    float64
	churnRate   float64
	uploadsPer  int
	uploadBytes int
	sprites     int
	fps         float64
}

// Limits for flags whose values size preallocated storage: a value past
// them would make the harness itself the thing that runs out of memory.
const (
	maxWorkers     = 64
	maxUploadBytes = 256 << 10
	maxUploadsPer  = 4096
	maxSprites     = 8192
	maxPlayRate    = 10000
	maxChurnRate   = 1000
	maxFPS         = 10000
	// defaultDuration applies when neither -duration nor -frames is given.
	defaultDuration = 10 * time.Second
	// selftestAfter is how many armed frames run before -selftest pokes.
	selftestAfter = 30
)

func defaultConfig() config {
	return config{
		workers:        4,
		logFmt:         "text",
		audio:          "auto",
		seed:           1,
		occupancyEvery: time.Second,
		progressEvery:  time.Second,
		settle:         120,
		playRate:       20,
		churnRate:      4,
		uploadsPer:     16,
		uploadBytes:    2048,
		sprites:        400,
		fps:            240,
	}
}

// parseConfig parses args (without the program name). Any problem is an
// error wrapping errUsage that names the flag and the value; the usage text
// goes to usage only when the flag set itself rejected the line.
func parseConfig(args []string, usage io.Writer) (config, error) {
	c := defaultConfig()
	fs := flag.NewFlagSet("stress", flag.ContinueOnError)
	fs.SetOutput(usage)
	fs.IntVar(&c.workers, "workers", c.workers, "worker goroutines issuing play requests, texture churn and upload traffic (1.."+itoa(maxWorkers)+")")
	fs.DurationVar(&c.duration, "duration", c.duration, "run time (default "+defaultDuration.String()+" unless -frames is given); with both, the run stops at whichever comes first")
	fs.IntVar(&c.frames, "frames", c.frames, "stop after this many frames (0: use -duration only)")
	fs.BoolVar(&c.headless, "headless", c.headless, "CPU backends for descriptors and upload instead of OpenGL (no window)")
	fs.BoolVar(&c.selftest, "selftest", c.selftest, "inject one deliberate allocation into a steady frame; the run must fail naming it")
	fs.StringVar(&c.logFmt, "log", c.logFmt, "occupancy log format: text or json")
	fs.StringVar(&c.report, "report", c.report, "write report.json and occupancy.svg into this directory")
	fs.StringVar(&c.audio, "audio", c.audio, "audio output: auto (oto, offline if no device), oto (fail without a device) or offline.\n"+
		"Without a sound card (CI), oto can write to a file: ALSA_CONFIG_PATH=/usr/share/alsa/alsa.conf:FILE with FILE holding\n"+
		"pcm.!default { type file slave.pcm \"null\" file \"OUT.raw\" format \"raw\" } (unpaced: bound the run, delete OUT.raw)")
	fs.Int64Var(&c.seed, "seed", c.seed, "seed for the workers' request streams")
	fs.DurationVar(&c.occupancyEvery, "occupancy-every", c.occupancyEvery, "interval of the descriptor occupancy log line (0: off)")
	fs.DurationVar(&c.progressEvery, "progress-every", c.progressEvery, "interval of progress updates")
	fs.IntVar(&c.settle, "settle", c.settle, "frames that must run before the allocation guard arms")
	fs.Float64Var(&c.playRate, "play-rate", c.playRate, "play requests per second per worker")
	fs.Float64Var(&c.churnRate, "churn-rate", c.churnRate, "texture churn events per second across all workers (font rebake, quality swap, level transition)")
	fs.IntVar(&c.uploadsPer, "uploads", c.uploadsPer, "upload requests per worker per frame (renderer, sprites, particles in turn)")
	fs.IntVar(&c.uploadBytes, "upload-bytes", c.uploadBytes, "bytes per upload request")
	fs.IntVar(&c.sprites, "sprites", c.sprites, "sprites drawn per frame, their vertices streamed through the sprites arena")
	fs.Float64Var(&c.fps, "fps", c.fps, "frame rate the render loop paces itself to (0: as fast as it can)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, err
		}
		return c, fmt.Errorf("%w: %v", errUsage, err)
	}
	if c.duration == 0 && c.frames == 0 && !flagSet(fs, "duration") {
		c.duration = defaultDuration
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("%w: unexpected argument %q (all options are flags)", errUsage, fs.Arg(0))
	}
	return c, c.validate()
}

// validate checks ranges; the first problem found is returned.
func (c *config) validate() error {
	bad := func(name string, v any, want string) error {
		return fmt.Errorf("%w: -%s %v: %s", errUsage, name, v, want)
	}
	switch {
	case c.workers < 1 || c.workers > maxWorkers:
		return bad("workers", c.workers, "want 1.."+itoa(maxWorkers))
	case c.duration < 0:
		return bad("duration", c.duration, "must not be negative")
	case c.frames < 0:
		return bad("frames", c.frames, "must not be negative")
	case c.duration == 0 && c.frames == 0:
		return bad("duration", c.duration, "with -frames 0 the run would never end")
	case c.selftest && c.frames > 0 && c.frames <= c.settle+selftestAfter:
		return bad("frames", c.frames, "-selftest needs more than -settle + "+itoa(selftestAfter)+" frames")
	case c.fps < 0 || c.fps > maxFPS || c.fps != c.fps:
		return bad("fps", c.fps, "want 0.."+itoa(maxFPS))
	case c.logFmt != "text" && c.logFmt != "json":
		return bad("log", c.logFmt, "want text or json")
	case c.audio != "auto" && c.audio != "oto" && c.audio != "offline":
		return bad("audio", c.audio, "want auto, oto or offline")
	case c.occupancyEvery < 0:
		return bad("occupancy-every", c.occupancyEvery, "must not be negative")
	case c.progressEvery <= 0:
		return bad("progress-every", c.progressEvery, "must be positive")
	case c.settle < 1:
		return bad("settle", c.settle, "want at least 1 frame")
	case c.frames > 0 && c.frames <= c.settle:
		return bad("frames", c.frames, "must exceed -settle ("+itoa(c.settle)+") or no frame is ever guarded")
	case c.playRate < 0 || c.playRate > maxPlayRate || c.playRate != c.playRate:
		return bad("play-rate", c.playRate, "want 0.."+itoa(maxPlayRate))
	case c.churnRate < 0 || c.churnRate > maxChurnRate || c.churnRate != c.churnRate:
		return bad("churn-rate", c.churnRate, "want 0.."+itoa(maxChurnRate))
	case c.uploadsPer < 0 || c.uploadsPer > maxUploadsPer:
		return bad("uploads", c.uploadsPer, "want 0.."+itoa(maxUploadsPer))
	case c.uploadBytes < 1 || c.uploadBytes > maxUploadBytes:
		return bad("upload-bytes", c.uploadBytes, "want 1.."+itoa(maxUploadBytes))
	case c.sprites < 0 || c.sprites > maxSprites:
		return bad("sprites", c.sprites, "want 0.."+itoa(maxSprites))
	}
	return nil
}

func itoa(n int) string { return fmt.Sprint(n) }

// flagSet reports whether the command line set the named flag.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
