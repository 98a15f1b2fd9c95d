package xvfb

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// ErrNoXvfb is returned by Start when Xvfb is not on PATH.
var ErrNoXvfb = errors.New("xvfb: no DISPLAY and no Xvfb on PATH")

// Server is a running Xvfb. It belongs to the goroutine that started it.
type Server struct {
	cmd     *exec.Cmd
	display string
}

// Start starts Xvfb on the first free display from :90, points DISPLAY at
// it (and selects Mesa's software renderer unless LIBGL_ALWAYS_SOFTWARE is
// set) and waits up to five seconds for its socket.
func Start(logger *slog.Logger) (*Server, error) {
	path, err := exec.LookPath("Xvfb")
	if err != nil {
		return nil, fmt.Errorf("%w: install xvfb or run under xvfb-run", ErrNoXvfb)
	}
	for n := 90; n < 130; n++ {
		if exists(fmt.Sprintf("/tmp/.X11-unix/X%d", n)) || exists(fmt.Sprintf("/tmp/.X%d-lock", n)) {
			continue
		}
		display := ":" + strconv.Itoa(n)
		cmd := exec.Command(path, display, "-screen", "0", "1280x1024x24", "-nolisten", "tcp")
		dieWithParent(cmd)
		if err := cmd.Start(); err != nil {
			return nil, fmt.Errorf("xvfb: starting Xvfb: %w", err)
		}
		x := &Server{cmd: cmd, display: display}
		socket := fmt.Sprintf("/tmp/.X11-unix/X%d", n)
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if exists(socket) {
				os.Setenv("DISPLAY", display)
				if os.Getenv("LIBGL_ALWAYS_SOFTWARE") == "" {
					os.Setenv("LIBGL_ALWAYS_SOFTWARE", "1")
				}
				logger.Info("xvfb: no DISPLAY; started Xvfb for the GL window", "display", display)
				return x, nil
			}
		}
		_ = x.Stop()
		return nil, fmt.Errorf("xvfb: Xvfb %s did not come up within 5s", display)
	}
	return nil, fmt.Errorf("xvfb: no free X display number in :90..:129 for Xvfb")
}

// Stop ends the server with SIGTERM, so it removes its socket and lock
// file, kills it if it has not exited within two seconds, and unsets
// DISPLAY. Stop on a nil Server does nothing.
func (x *Server) Stop() error {
	if x == nil || x.cmd.Process == nil {
		return nil
	}
	done := make(chan error, 1)
	_ = x.cmd.Process.Signal(syscall.SIGTERM)
	go func() { done <- x.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		_ = x.cmd.Process.Kill()
		<-done
	}
	os.Unsetenv("DISPLAY")
	return nil
}

// Display returns the display name, ":90" for example.
func (x *Server) Display() string { return x.display }

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
