package xvfb

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
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

// Start starts Xvfb on a free display, points DISPLAY at it (and selects
// Mesa's software renderer unless LIBGL_ALWAYS_SOFTWARE is set) and waits
// up to five seconds for it to accept connections.
//
// Xvfb picks the display itself (-displayfd): it takes the first number
// whose socket it can bind and writes that number to a pipe once it is
// ready. Start used to choose the number itself, from a free socket and
// lock file. That raced with test processes starting Xvfb at the same
// moment. Two servers then started on one number, and one died on the
// lock; its Start took the other's socket for its own.
func Start(logger *slog.Logger) (*Server, error) {
	path, err := exec.LookPath("Xvfb")
	if err != nil {
		return nil, fmt.Errorf("%w: install xvfb or run under xvfb-run", ErrNoXvfb)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("xvfb: a pipe for -displayfd: %w", err)
	}
	defer r.Close()
	// The write end is the child's fd 3 (its first ExtraFiles entry).
	cmd := exec.Command(path, "-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	dieWithParent(cmd)
	err = cmd.Start()
	w.Close() // the child holds its copy: EOF once it exits
	if err != nil {
		return nil, fmt.Errorf("xvfb: starting Xvfb: %w", err)
	}
	x := &Server{cmd: cmd}
	got := make(chan string, 1)
	go func() {
		// The number and a newline, written once; EOF if Xvfb died first.
		line, _ := bufio.NewReader(io.LimitReader(r, 32)).ReadString('\n')
		got <- strings.TrimSpace(line)
	}()
	var n string
	select {
	case n = <-got:
	case <-time.After(5 * time.Second):
	}
	if _, err := strconv.Atoi(n); err != nil {
		_ = x.Stop()
		return nil, fmt.Errorf("xvfb: Xvfb did not report a display within 5s (it wrote %q)", n)
	}
	x.display = ":" + n
	os.Setenv("DISPLAY", x.display)
	if os.Getenv("LIBGL_ALWAYS_SOFTWARE") == "" {
		os.Setenv("LIBGL_ALWAYS_SOFTWARE", "1")
	}
	logger.Info("xvfb: no DISPLAY; started Xvfb for the GL window", "display", x.display)
	return x, nil
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

// Display returns the display name, ":0" for example.
func (x *Server) Display() string { return x.display }
