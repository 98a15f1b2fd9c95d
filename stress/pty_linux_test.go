package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strconv"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// pty is a pseudo-terminal for the terminal tests: the program writes to
// tty, which term.IsTerminal recognises, and a goroutine drains the master
// side into out, as a terminal emulator would, so a write never blocks on
// a full terminal buffer.
//
// It opens /dev/ptmx by hand (unlock, then the slave's number) with
// golang.org/x/sys/unix, already in the module graph, rather than adding
// a pty library for one test.
type pty struct {
	master, tty *os.File
	mu          sync.Mutex
	out         bytes.Buffer
	done        chan struct{}
}

func openPTY(t *testing.T) *pty {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	// Through SyscallConn, not Fd, which would put the master into
	// blocking mode: its reader then parks in the netpoller instead of
	// holding a thread in a read, so the runtime has no thread to add
	// (and allocate) while a guarded test counts.
	raw, err := master.SyscallConn()
	if err != nil {
		master.Close()
		t.Fatal(err)
	}
	var n uint32
	var ioErr error
	err = raw.Control(func(fd uintptr) {
		if ioErr = unix.IoctlSetPointerInt(int(fd), unix.TIOCSPTLCK, 0); ioErr == nil {
			n, ioErr = unix.IoctlGetUint32(int(fd), unix.TIOCGPTN)
		}
	})
	if err == nil {
		err = ioErr
	}
	if err != nil {
		master.Close()
		t.Fatalf("unlockpt or ptsname: %v", err)
	}
	tty, err := os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		t.Fatalf("open the terminal side: %v", err)
	}
	p := &pty{master: master, tty: tty, done: make(chan struct{})}
	go p.drain()
	t.Cleanup(p.close)
	return p
}

func (p *pty) drain() {
	defer close(p.done)
	buf := make([]byte, 4096)
	for {
		n, err := p.master.Read(buf)
		p.mu.Lock()
		p.out.Write(buf[:n])
		p.mu.Unlock()
		if err != nil {
			// EIO once every terminal-side descriptor is closed.
			if !errors.Is(err, io.EOF) && !errors.Is(err, unix.EIO) && !errors.Is(err, os.ErrClosed) {
				p.mu.Lock()
				p.out.WriteString("\npty read error: " + err.Error())
				p.mu.Unlock()
			}
			return
		}
	}
}

// output returns what the terminal has shown so far.
func (p *pty) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// closeTTY closes this process's terminal side, so the drain ends once
// every other holder (a child process) has exited, and waits for it.
func (p *pty) closeTTY() string {
	p.tty.Close()
	<-p.done
	return p.output()
}

func (p *pty) close() {
	p.tty.Close()
	p.master.Close()
}
