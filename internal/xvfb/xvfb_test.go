package xvfb

import (
	"errors"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

func TestStartStop(t *testing.T) {
	if _, err := exec.LookPath("Xvfb"); err != nil {
		testenv.SkipOrFail(t, "Xvfb is not installed")
	}
	t.Setenv("DISPLAY", "")
	x, err := Start(slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	socket := "/tmp/.X11-unix/X" + strings.TrimPrefix(x.Display(), ":")
	if os.Getenv("DISPLAY") != x.Display() || !exists(socket) {
		t.Errorf("DISPLAY %q, socket %s exists %v", os.Getenv("DISPLAY"), socket, exists(socket))
	}
	if err := x.Stop(); err != nil {
		t.Fatal(err)
	}
	if exists(socket) || os.Getenv("DISPLAY") != "" {
		t.Errorf("after Stop: socket exists %v, DISPLAY %q", exists(socket), os.Getenv("DISPLAY"))
	}
	var nilServer *Server
	if err := nilServer.Stop(); err != nil {
		t.Errorf("Stop on nil: %v", err)
	}
}

func TestNoXvfb(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if _, err := Start(slog.New(slog.NewTextHandler(io.Discard, nil))); !errors.Is(err, ErrNoXvfb) {
		t.Errorf("Start without Xvfb = %v, want ErrNoXvfb", err)
	}
}
