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
	ours, err := os.Stat(socket)
	if os.Getenv("DISPLAY") != x.Display() || err != nil {
		t.Fatalf("DISPLAY %q, socket %s: %v", os.Getenv("DISPLAY"), socket, err)
	}
	if err := x.Stop(); err != nil {
		t.Fatal(err)
	}
	// The server caught the SIGTERM and exited by itself, which is how it
	// removes its socket (a SIGKILL would leave it behind).
	if st := x.cmd.ProcessState; st == nil || !st.Exited() {
		t.Errorf("after Stop: the server's state is %v, want an exit of its own", st)
	}
	// Its socket is gone. Another process's Xvfb (go test runs packages
	// in parallel, and several start one) may bind the freed number at
	// once, and ext4 reuses the freed inode: a socket there with the same
	// inode and the same time is still ours.
	if now, err := os.Stat(socket); err == nil && os.SameFile(ours, now) && now.ModTime().Equal(ours.ModTime()) {
		t.Errorf("after Stop: %s is still the server's socket", socket)
	}
	if os.Getenv("DISPLAY") != "" {
		t.Errorf("after Stop: DISPLAY %q", os.Getenv("DISPLAY"))
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
