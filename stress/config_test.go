package main

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

func TestConfigValidation(t *testing.T) {
	for _, c := range []struct {
		args []string
		bad  string // substring of the error; "" means valid
	}{
		{nil, ""},
		{[]string{"-workers", "8", "-duration", "60s", "-log", "json", "-report", "out"}, ""},
		{[]string{"-frames", "900", "-audio", "oto", "-selftest"}, ""},
		{[]string{"-workers", "0"}, "-workers 0"},
		{[]string{"-workers", "65"}, "-workers 65"},
		{[]string{"-duration", "-1s"}, "-duration -1s"},
		{[]string{"-duration", "0"}, "never end"},
		{[]string{"-frames", "-5"}, "-frames -5"},
		{[]string{"-frames", "100"}, "must exceed -settle"},
		{[]string{"-frames", "140", "-selftest"}, "-selftest needs more than"},
		{[]string{"-log", "xml"}, "-log xml"},
		{[]string{"-audio", "pulse"}, "-audio pulse"},
		{[]string{"-occupancy-every", "-1s"}, "-occupancy-every"},
		{[]string{"-progress-every", "0"}, "-progress-every"},
		{[]string{"-settle", "0"}, "-settle 0"},
		{[]string{"-play-rate", "NaN"}, "-play-rate NaN"},
		{[]string{"-play-rate", "1e9"}, "-play-rate"},
		{[]string{"-churn-rate", "-1"}, "-churn-rate -1"},
		{[]string{"-uploads", "5000"}, "-uploads 5000"},
		{[]string{"-upload-bytes", "0"}, "-upload-bytes 0"},
		{[]string{"-sprites", "9000"}, "-sprites 9000"},
		{[]string{"-sprites", "0"}, "-sprites 0"},
		{[]string{"-sprite-path", "array"}, ""},
		{[]string{"-sprite-path", "bindless"}, "-sprite-path bindless: want bind or array"},
		{[]string{"-sprite-path", "array", "-headless"}, "drop -headless"},
		{[]string{"-min-frames", "0"}, "-min-frames 0"},
		{[]string{"-spawn-rate", "-2"}, "-spawn-rate -2"},
		{[]string{"-fps", "-1"}, "-fps -1"},
		{[]string{"-workers", "four"}, "invalid value"},
		{[]string{"-bogus"}, "not defined"},
		{[]string{"-scenario", "all"}, ""},
		{[]string{"-scenario", "leak", "-duration", "0"}, ""},
		{[]string{"-scenario", "flood"}, "-scenario flood"},
		{[]string{"run"}, `unexpected argument "run"`},
	} {
		_, err := parseConfig(c.args, io.Discard)
		switch {
		case c.bad == "" && err != nil:
			t.Errorf("%v: %v", c.args, err)
		case c.bad != "" && (!errors.Is(err, errUsage) || !strings.Contains(err.Error(), c.bad)):
			t.Errorf("%v: error %v, want errUsage mentioning %q", c.args, err, c.bad)
		}
	}
}

func TestDurationDefaults(t *testing.T) {
	c, err := parseConfig(nil, io.Discard)
	if err != nil || c.duration != defaultDuration || c.Frames != 0 {
		t.Errorf("no flags: duration %v frames %d (%v)", c.duration, c.Frames, err)
	}
	c, err = parseConfig([]string{"-frames", "900"}, io.Discard)
	if err != nil || c.duration != 0 {
		t.Errorf("-frames alone: duration %v, want 0 so the frame count decides (%v)", c.duration, err)
	}
	c, err = parseConfig([]string{"-frames", "900", "-duration", "2s"}, io.Discard)
	if err != nil || c.duration != 2*time.Second {
		t.Errorf("-frames with -duration: %v (%v)", c.duration, err)
	}
}

// TestBadFlagsExitTwo runs the program in-process: bad flags must give
// exit status 2 and a one-line reason, never a panic or a started run.
func TestBadFlagsExitTwo(t *testing.T) {
	for _, args := range [][]string{{"-workers", "-3"}, {"-log", "yaml"}, {"-frames"}} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
		if !strings.Contains(errOut.String(), "stress: usage") || out.Len() != 0 {
			t.Errorf("%v: stderr %q stdout %q", args, errOut.String(), out.String())
		}
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"-h"}, &out, &errOut); code != exitPass || !strings.Contains(errOut.String(), "-workers") {
		t.Errorf("-h: exit %d, usage %q", code, errOut.String())
	}
	// -h documents every exit status, the too-few-frames rule among them.
	for _, want := range []string{"-min-frames", "Exit status", "\n  4  no verdict: fewer than -min-frames guarded frames",
		"\n  5  interrupted by SIGINT or SIGTERM", "\n  6  a second SIGINT or SIGTERM"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("-h lacks %q:\n%s", want, errOut.String())
		}
	}
}
