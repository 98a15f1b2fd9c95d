package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/lifetime/guard"
)

// errUsage marks a command line that cannot run; main exits 2 for it.
var errUsage = errors.New("stress: usage")

// config is the parsed, validated command line. It is built once before
// any goroutine starts and read-only afterwards.
type config struct {
	scene.Options // -frames, -sprites, -audio, -log
	workers       int
	duration      time.Duration
	headless      bool
	spritePath    string // -sprite-path: pathBind or pathArray
	selftest      bool
	report        string
	seed          int64
	// scenario is -scenario; plan the phases it runs (nil for none).
	scenario string
	plan     []scenario

	occupancyEvery time.Duration
	progressEvery  time.Duration
	settle         int
	minFrames      int

	// Rates. Play, spawn and churn are per second (play and spawn per
	// worker, churn across all workers); upload traffic is per worker per
	// frame.
	playRate    float64
	spawnRate   float64
	churnRate   float64
	uploadsPer  int
	uploadBytes int
	fps         float64
}

// Limits for flags whose values size preallocated storage: a value past
// them would make the harness itself the thing that runs out of memory.
const (
	maxWorkers     = 64
	maxUploadBytes = 256 << 10
	maxUploadsPer  = 4096
	maxPlayRate    = 10000
	maxSpawnRate   = 10000
	maxChurnRate   = 1000
	maxFPS         = 10000
	// defaultDuration applies when neither -duration nor -frames is given.
	defaultDuration = 10 * time.Second
	// selftestAfter is how many armed frames run before -selftest pokes.
	selftestAfter = 30
)

func defaultConfig() config {
	return config{
		Options:        scene.Options{Sprites: 400, Audio: "auto", Log: "text", Emitters: 500},
		workers:        4,
		spritePath:     pathBind,
		seed:           1,
		occupancyEvery: time.Second,
		progressEvery:  time.Second,
		settle:         guard.DefaultSettleFrames,
		minFrames:      guard.DefaultMinFrames,
		playRate:       20,
		spawnRate:      30,
		churnRate:      4,
		uploadsPer:     16,
		uploadBytes:    2048,
		fps:            240,
	}
}

// exitHelp is the part of -h that explains the exit status.
const exitHelp = `
Exit status (1 to 8 each with a one-line reason on stderr):
  0  PASS: at least -min-frames guarded frames, none allocated, every owner clean, every request accounted
  1  FAIL: a steady frame allocated (or started a goroutine), an owner failed, the request accounting did not balance, or a -scenario phase failed its verdict
  2  bad flags; also a Go panic, fatal error or SIGQUIT (a stack trace on stderr, no reason line)
  3  the harness could not run, or -selftest went uncaught
  4  no verdict: fewer than -min-frames guarded frames ran (run longer, pace faster, or settle less)
  5  interrupted by SIGINT or SIGTERM: stopped, torn down in order, partial report written (marked interrupted)
  6  a second SIGINT or SIGTERM during shutdown: exited at once, without teardown or report
  7  the -report directory is not writable: found at start, before anything ran
  8  the run ended, but its report was not written in full (stdout closed, or a -report file failed); a definite failure keeps 1
  128+n  killed by a signal the tool does not catch (SIGHUP 129, SIGKILL 137): no teardown, no report
`

// parseConfig parses args (without the program name). Any problem is an
// error wrapping errUsage that names the flag and the value; the usage text
// goes to usage only when the flag set itself rejected the line.
func parseConfig(args []string, usage io.Writer) (config, error) {
	c := defaultConfig()
	fs := flag.NewFlagSet("stress", flag.ContinueOnError)
	fs.SetOutput(usage)
	fs.Usage = func() {
		fmt.Fprintln(usage, "Usage: stress [flags]\n\nFlags:")
		fs.PrintDefaults()
		fmt.Fprint(usage, exitHelp)
	}
	c.Register(fs, "stop after this many frames (0: use -duration only)")
	fs.IntVar(&c.workers, "workers", c.workers, "worker goroutines issuing play requests, object spawns, texture churn and upload traffic (1.."+itoa(maxWorkers)+")")
	fs.DurationVar(&c.duration, "duration", c.duration, "run time (default "+defaultDuration.String()+" unless -frames is given); with both, the run stops at whichever comes first; honoured whatever the -fps pacing")
	fs.BoolVar(&c.headless, "headless", c.headless, "CPU backends for descriptors and upload instead of OpenGL (no window)")
	fs.StringVar(&c.spritePath, "sprite-path", c.spritePath, "how sprites are drawn: bind (a texture bound per draw) or array (one draw from a texture array, slots streamed per sprite; needs OpenGL)")
	fs.BoolVar(&c.selftest, "selftest", c.selftest, "inject one deliberate allocation into a steady frame; the run must fail naming it")
	fs.StringVar(&c.report, "report", c.report, "write report.json and occupancy.svg into this directory (an interrupted run writes its partial report too)")
	fs.Int64Var(&c.seed, "seed", c.seed, "seed for the workers' request streams")
	fs.StringVar(&c.scenario, "scenario", c.scenario, "drive the budgets past their limits and check how they degrade: steady, leak, voice-storm, upload-flood, churn-storm, or all in turn (each after a steady phase); without -duration or -frames the run ends when the last phase does")
	fs.DurationVar(&c.occupancyEvery, "occupancy-every", c.occupancyEvery, "interval of the descriptor occupancy log line (0: off)")
	fs.DurationVar(&c.progressEvery, "progress-every", c.progressEvery, "interval of progress updates")
	fs.IntVar(&c.settle, "settle", c.settle, "frames that must run before the allocation guard arms")
	fs.IntVar(&c.minFrames, "min-frames", c.minFrames, "guarded (armed) frames a verdict needs; a run that guards fewer has no verdict and exits 4")
	fs.Float64Var(&c.playRate, "play-rate", c.playRate, "play requests per second per worker")
	fs.Float64Var(&c.spawnRate, "spawn-rate", c.spawnRate, "game object spawn or despawn requests per second per worker (each keeps "+itoa(objectsPerWorker)+" alive)")
	fs.Float64Var(&c.churnRate, "churn-rate", c.churnRate, "texture churn events per second across all workers (font rebake, quality swap, level transition), spread evenly over the workers")
	fs.IntVar(&c.uploadsPer, "uploads", c.uploadsPer, "upload requests per worker per frame (renderer, sprites, particles in turn)")
	fs.IntVar(&c.uploadBytes, "upload-bytes", c.uploadBytes, "bytes per upload request")
	fs.Float64Var(&c.fps, "fps", c.fps, "frame rate the render loop paces itself to (0: as fast as it can)")
	err := c.Parse(fs, args, errUsage, func() error {
		if c.duration == 0 && c.Frames == 0 && !flagSet(fs, "duration") && c.scenario == "" {
			c.duration = defaultDuration
		}
		return c.validate()
	})
	return c, err
}

// validate checks the stress tool's own ranges; the first problem found
// is returned.
func (c *config) validate() error {
	bad := scene.BadFlag
	switch {
	case c.workers < 1 || c.workers > maxWorkers:
		return bad("workers", c.workers, "want 1.."+itoa(maxWorkers))
	case c.duration < 0:
		return bad("duration", c.duration, "must not be negative")
	case c.duration == 0 && c.Frames == 0 && c.scenario == "":
		return bad("duration", c.duration, "with -frames 0 the run would never end")
	case c.selftest && c.Frames > 0 && c.Frames <= c.settle+selftestAfter:
		return bad("frames", c.Frames, "-selftest needs more than -settle + "+itoa(selftestAfter)+" frames")
	case c.fps < 0 || c.fps > maxFPS || c.fps != c.fps:
		return bad("fps", c.fps, "want 0.."+itoa(maxFPS))
	case c.spritePath != pathBind && c.spritePath != pathArray:
		return bad("sprite-path", c.spritePath, "want bind or array")
	case c.spritePath == pathArray && c.headless:
		return bad("sprite-path", c.spritePath, "the array path draws with OpenGL; drop -headless")
	case c.occupancyEvery < 0:
		return bad("occupancy-every", c.occupancyEvery, "must not be negative")
	case c.progressEvery <= 0:
		return bad("progress-every", c.progressEvery, "must be positive")
	case c.settle < 1:
		return bad("settle", c.settle, "want at least 1 frame")
	case c.minFrames < 1:
		return bad("min-frames", c.minFrames, "want at least 1 frame")
	case c.Frames > 0 && c.Frames <= c.settle:
		return bad("frames", c.Frames, "must exceed -settle ("+itoa(c.settle)+") or no frame is ever guarded")
	case c.playRate < 0 || c.playRate > maxPlayRate || c.playRate != c.playRate:
		return bad("play-rate", c.playRate, "want 0.."+itoa(maxPlayRate))
	case c.spawnRate < 0 || c.spawnRate > maxSpawnRate || c.spawnRate != c.spawnRate:
		return bad("spawn-rate", c.spawnRate, "want 0.."+itoa(maxSpawnRate))
	case c.churnRate < 0 || c.churnRate > maxChurnRate || c.churnRate != c.churnRate:
		return bad("churn-rate", c.churnRate, "want 0.."+itoa(maxChurnRate))
	case c.uploadsPer < 0 || c.uploadsPer > maxUploadsPer:
		return bad("uploads", c.uploadsPer, "want 0.."+itoa(maxUploadsPer))
	case c.uploadBytes < 1 || c.uploadBytes > maxUploadBytes:
		return bad("upload-bytes", c.uploadBytes, "want 1.."+itoa(maxUploadBytes))
	}
	plan, err := parseScenario(c.scenario)
	if err != nil {
		return bad("scenario", c.scenario, err.Error())
	}
	c.plan = plan
	return nil
}

func itoa(n int) string { return fmt.Sprint(n) }

// flagSet reports whether the command line set the named flag.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
