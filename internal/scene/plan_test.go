package scene_test

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/lifetime/teardown"
	"github.com/steadyframe/steadyframe/voices"
)

// TestAudioPlaysEveryEffect opens the offline device, plays each effect
// (the WAV file's included) and checks that the mixer starts them all.
func TestAudioPlaysEveryEffect(t *testing.T) {
	a, err := scene.OpenAudio("offline", scene.NewLogger("text", io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if !a.Offline || a.Effects() != scene.Effects || !a.Engine.Playing(a.Music) {
		t.Fatalf("offline %v, %d effects, music playing %v", a.Offline, a.Effects(), a.Engine.Playing(a.Music))
	}
	for i := range scene.Effects {
		if err := a.Play(i, 0.5, 0); err != nil {
			t.Fatalf("effect %d: %v", i, err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for a.Engine.Stats().Peak < scene.Effects+1 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	st := a.Engine.Stats()
	if st.Peak < scene.Effects+1 || st.Refusals != 0 {
		t.Errorf("peak %d voices, %d refusals; want every effect and the music playing (%d)", st.Peak, st.Refusals, scene.Effects+1)
	}
	if err := a.StopAll(); err != nil {
		t.Fatal(err)
	}
	if err := a.ReleaseBanks(); err != nil {
		t.Fatal(err)
	}
	// A released bank's clips are refused with the bare sentinel.
	if err := a.Play(scene.SoundKey, 1, 0); err != voices.ErrClosed {
		t.Errorf("Play after ReleaseBanks: %v, want voices.ErrClosed itself", err)
	}
}

// TestPlanOrder runs the shutdown plan on a headless scene with offline
// audio and checks the stages run in the documented order, all clean.
func TestPlanOrder(t *testing.T) {
	var log bytes.Buffer
	logger := scene.NewLogger("text", &log)
	a, err := scene.OpenAudio("offline", logger)
	if err != nil {
		t.Fatal(err)
	}
	f := newFrameLoop(t)
	tex := f.load(2)
	td, err := scene.Plan(logger, a, f.r, tex)
	if err != nil {
		t.Fatal(err)
	}
	if err := td.Run(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range td.Results() {
		got = append(got, r.Name)
		if r.Status != teardown.StageOK {
			t.Errorf("stage %s: %v %v", r.Name, r.Status, r.Err)
		}
	}
	want := []string{scene.StageStopAll, scene.StageSoundMemory, scene.StageAudioDevice, scene.StageTextures,
		scene.StageDrain, scene.StageDescriptors, scene.StageUpload, scene.StageFrames}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("stages %v, want %v", got, want)
	}
	if !strings.Contains(log.String(), "teardown: done") {
		t.Errorf("the plan did not log its end:\n%s", log.String())
	}
	if s := f.r.Heap.Stats(); s.Live != 0 || s.Pending != 0 {
		t.Errorf("after teardown: %d live, %d pending slots", s.Live, s.Pending)
	}
}

func TestOptionsCheck(t *testing.T) {
	for _, c := range []struct {
		args []string
		bad  string
	}{
		{nil, ""},
		{[]string{"-frames", "10", "-sprites", "4096", "-audio", "oto", "-log", "json"}, ""},
		{[]string{"-frames", "-1"}, "-frames -1: must not be negative"},
		{[]string{"-sprites", "0"}, "-sprites 0: want 1..4096"},
		{[]string{"-sprites", "4097"}, "-sprites 4097"},
		{[]string{"-audio", "pulse"}, "-audio pulse: want auto, oto or offline"},
		{[]string{"-log", "xml"}, "-log xml: want text or json"},
		{[]string{"-emitters", "900"}, ""},
		{[]string{"-emitters", "-1"}, "-emitters -1: want 0..900"},
		{[]string{"-emitters", "901"}, "-emitters 901: want 0..900"},
	} {
		o := scene.Options{Sprites: 300, Audio: "auto", Log: "text"}
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		o.Register(fs, "frames")
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		err := o.Check()
		switch {
		case c.bad == "" && err != nil:
			t.Errorf("%v: %v", c.args, err)
		case c.bad != "" && (err == nil || !strings.Contains(err.Error(), c.bad)):
			t.Errorf("%v: %v, want %q", c.args, err, c.bad)
		}
	}
	if err := scene.BadFlag("x", 3, "want 4"); err == nil || errors.Unwrap(err) != nil || err.Error() != "-x 3: want 4" {
		t.Errorf("BadFlag: %v", err)
	}
}

// TestOptionsParse: -h comes back as flag.ErrHelp itself; every other
// problem wraps the command's usage sentinel, the shared checks running
// before the command's own.
func TestOptionsParse(t *testing.T) {
	errUsage := errors.New("t: usage")
	errOwn := errors.New("own check")
	for _, c := range []struct {
		args []string
		own  error
		want string // "" for valid, "help" for flag.ErrHelp
	}{
		{nil, nil, ""},
		{[]string{"-h"}, nil, "help"},
		{[]string{"-nope"}, nil, "not defined"},
		{[]string{"-frames", "5", "extra"}, nil, `unexpected argument "extra"`},
		{[]string{"-sprites", "0"}, errOwn, "-sprites 0"},
		{nil, errOwn, "own check"},
	} {
		o := scene.Options{Sprites: 300, Audio: "auto", Log: "text"}
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		o.Register(fs, "frames")
		err := o.Parse(fs, c.args, errUsage, func() error { return c.own })
		switch c.want {
		case "":
			if err != nil {
				t.Errorf("%v: %v", c.args, err)
			}
		case "help":
			if err != flag.ErrHelp {
				t.Errorf("%v: %v, want flag.ErrHelp itself", c.args, err)
			}
		default:
			if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v: %v, want the usage error mentioning %q", c.args, err, c.want)
			}
		}
	}
}
