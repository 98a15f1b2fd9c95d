package main

import (
	"io"
	"os"
	"os/signal"
	"syscall"
)

// output is the tool's stdout (the progress line and the text report).
// A closed stdout (stress | head -1) must not end the run: Go kills a
// program whose write to a broken pipe on fd 1 fails, and a failed
// os.File write allocates its error inside a guarded frame. So an
// *os.File is written with syscall.Write, whose EPIPE is a bare errno,
// and the first failed write turns every later one into a no-op. The run
// goes on, writes its -report files, and ends with exitReport, saying so.
//
// An output belongs to the render goroutine (the main goroutine).
type output struct {
	w   io.Writer
	fd  int   // the file's descriptor when w is an *os.File, else -1
	err error // the first write error; nil while every write succeeded
}

func newOutput(w io.Writer) *output {
	o := &output{w: w, fd: -1}
	if f, ok := w.(*os.File); ok {
		o.fd = int(f.Fd()) // Fd also makes the descriptor blocking, as syscall.Write needs
	}
	return o
}

// Write writes p, or drops it once a write has failed. It reports
// success either way, so that a caller formatting into it carries on; Err
// says what was lost. It does not allocate.
func (o *output) Write(p []byte) (int, error) {
	if o.err != nil {
		return len(p), nil
	}
	if o.fd < 0 {
		if _, err := o.w.Write(p); err != nil {
			o.err = err
		}
		return len(p), nil
	}
	for rest := p; len(rest) > 0; {
		n, err := sysWrite(o.fd, rest)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			o.err = err
			break
		}
		rest = rest[n:]
	}
	return len(p), nil
}

// Fd returns the descriptor of a file output, for the terminal check,
// and an invalid one otherwise.
func (o *output) Fd() uintptr { return uintptr(o.fd) }

// Err returns the first write error, or nil.
func (o *output) Err() error { return o.err }

// catchPipe keeps a broken pipe on stderr from killing the process too:
// with SIGPIPE notified, a failed write to fd 1 or 2 returns EPIPE
// instead of raising the signal's default action. Nobody reads the
// channel; a signal finding it full is dropped.
func catchPipe() { signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE) }
