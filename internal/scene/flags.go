package scene

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/steadyframe/steadyframe/flatlog"
)

// MaxSprites is the most sprites either command draws.
const MaxSprites = 4096

// Options are the flags both commands take, with the same names, meanings
// and checks. A command registers them on its FlagSet next to its own and
// parses with Parse. It is a plain value, read-only once checked.
type Options struct {
	Frames  int    // -frames: stop after this many frames; 0: no frame limit
	Sprites int    // -sprites: sprites drawn per frame
	Audio   string // -audio: auto, oto or offline
	Log     string // -log: text or json
	// Emitters is -emitters: looping positioned sounds around the
	// listener (emitters.go).
	Emitters int
}

// AudioUsage is the -audio flag's help, with how to run oto without a
// sound card.
const AudioUsage = "audio output: auto (oto, offline if no device), oto (fail without a device) or offline.\n" +
	"Without a sound card (CI), oto can write to a file: ALSA_CONFIG_PATH=/usr/share/alsa/alsa.conf:FILE with FILE holding\n" +
	"pcm.!default { type file slave.pcm \"null\" file \"OUT.raw\" format \"raw\" } (unpaced: bound the run, delete OUT.raw)"

// Register defines the shared flags on fs, with o's fields as defaults;
// frames is the command's help for -frames.
func (o *Options) Register(fs *flag.FlagSet, frames string) {
	fs.IntVar(&o.Frames, "frames", o.Frames, frames)
	fs.IntVar(&o.Sprites, "sprites", o.Sprites, fmt.Sprintf("sprites drawn per frame, their vertices streamed through the sprites arena (1..%d)", MaxSprites))
	fs.StringVar(&o.Audio, "audio", o.Audio, AudioUsage)
	fs.StringVar(&o.Log, "log", o.Log, "log format on stderr: text or json")
	fs.IntVar(&o.Emitters, "emitters", o.Emitters, fmt.Sprintf("looping positioned sounds moving around a walking listener, the most audible mixed (0..%d)", MaxEmitters))
}

// Parse parses args with fs, on which Register and the command's own
// flags are defined, then runs Check and finish, which completes and
// checks the command's own flags. -h returns flag.ErrHelp as it is; any
// other problem (a value the flag set rejects, a stray argument, a flag
// that cannot run) is an error wrapping usage that names the flag.
func (o *Options) Parse(fs *flag.FlagSet, args []string, usage error, finish func() error) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", usage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q (all options are flags)", usage, fs.Arg(0))
	}
	err := o.Check()
	if err == nil {
		err = finish()
	}
	if err != nil {
		return fmt.Errorf("%w: %w", usage, err)
	}
	return nil
}

// Check returns the first shared flag whose value cannot run, as a
// BadFlag error, or nil.
func (o *Options) Check() error {
	switch {
	case o.Frames < 0:
		return BadFlag("frames", o.Frames, "must not be negative")
	case o.Sprites < 1 || o.Sprites > MaxSprites:
		return BadFlag("sprites", o.Sprites, fmt.Sprintf("want 1..%d", MaxSprites))
	case o.Audio != "auto" && o.Audio != "oto" && o.Audio != "offline":
		return BadFlag("audio", o.Audio, "want auto, oto or offline")
	case o.Log != "text" && o.Log != "json":
		return BadFlag("log", o.Log, "want text or json")
	case o.Emitters < 0 || o.Emitters > MaxEmitters:
		return BadFlag("emitters", o.Emitters, fmt.Sprintf("want 0..%d", MaxEmitters))
	}
	return nil
}

// BadFlag describes a flag value that cannot run, naming the flag, the
// value and what is wanted: "-sprites 0: want 1..4096". A command wraps it
// with its own usage sentinel.
func BadFlag(name string, v any, want string) error {
	return fmt.Errorf("-%s %v: %s", name, v, want)
}

// NewLogger returns the commands' logger on w in format ("text" or
// "json"), with the allocation-free flatlog handler, so lines logged
// inside guarded frames allocate nothing.
func NewLogger(format string, w io.Writer) *slog.Logger {
	f := flatlog.FormatText
	if format == "json" {
		f = flatlog.FormatJSON
	}
	return slog.New(flatlog.New(w, f, nil))
}
