package main

import (
	"io"
	"os"
	"strconv"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress shows how far the run is. On a terminal it is a
// github.com/schollz/progressbar bar; otherwise (CI logs, pipes) it is a
// plain line per interval.
//
// The two differ in one way the report states: the plain line is
// formatted into a preallocated buffer and written with one Write, so it
// allocates nothing and runs inside guarded frames like any game code;
// the bar formats with fmt and allocates on every redraw, so the render
// loop calls it only in a reporting gap, between one guarded frame's
// EndFrame and the next BeginFrame, and counts the gap's allocations
// separately (report: "allocations in reporting gaps"). Nothing the game
// does runs in that gap except what other goroutines happen to do in the
// same microseconds, which the guard does not see; the plain mode, used in
// CI, has no gap at all.
//
// A progress belongs to the render goroutine.
type progress struct {
	bar   *progressbar.ProgressBar // nil in plain mode
	out   io.Writer
	buf   []byte
	total int64 // frames, or milliseconds when the run is timed
	timed bool
	every time.Duration
	next  time.Duration
}

// newProgress picks the bar when out is a terminal. total is the frame
// limit, or the duration when frames is 0.
func newProgress(out io.Writer, frames int, duration time.Duration, every time.Duration) *progress {
	p := &progress{out: out, buf: make([]byte, 0, 256), every: every, next: every}
	if frames > 0 {
		p.total = int64(frames)
	} else {
		p.total, p.timed = duration.Milliseconds(), true
	}
	if f, ok := out.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		desc := "frames"
		if p.timed {
			desc = "ms"
		}
		p.bar = progressbar.NewOptions64(p.total,
			progressbar.OptionSetWriter(out),
			progressbar.OptionSetDescription("stress "+desc),
			progressbar.OptionShowCount(),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(every),
			progressbar.OptionClearOnFinish(),
		)
	}
	return p
}

// needsGap reports whether Update allocates and must run in a reporting
// gap.
func (p *progress) needsGap() bool { return p.bar != nil }

// Due reports whether an update is due at elapsed.
func (p *progress) Due(elapsed time.Duration) bool { return elapsed >= p.next }

// Update shows the state at elapsed. In plain mode it does not allocate.
func (p *progress) Update(elapsed time.Duration, frames uint64, live, peak int, guardOK bool) {
	p.next = nextTick(p.next, p.every, elapsed)
	done := int64(frames)
	if p.timed {
		done = elapsed.Milliseconds()
	}
	if p.bar != nil {
		_ = p.bar.Set64(min(done, p.total))
		return
	}
	b := p.buf[:0]
	b = append(b, "progress "...)
	b = strconv.AppendInt(b, min(done*100/max(p.total, 1), 100), 10)
	b = append(b, "% frames="...)
	b = strconv.AppendUint(b, frames, 10)
	b = append(b, " elapsed="...)
	b = strconv.AppendFloat(b, elapsed.Seconds(), 'f', 1, 64)
	b = append(b, "s descriptors live="...)
	b = strconv.AppendInt(b, int64(live), 10)
	b = append(b, " peak="...)
	b = strconv.AppendInt(b, int64(peak), 10)
	if guardOK {
		b = append(b, " guard=ok\n"...)
	} else {
		b = append(b, " guard=VIOLATED\n"...)
	}
	p.buf = b
	_, _ = p.out.Write(b)
}

// Finish completes the bar; a no-op in plain mode.
func (p *progress) Finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
		_, _ = io.WriteString(p.out, "\n")
	}
}

// nextTick returns the first multiple of every after next (which was due)
// that lies beyond elapsed, in one step however far behind the caller is.
func nextTick(next, every, elapsed time.Duration) time.Duration {
	if every <= 0 || next > elapsed {
		return next
	}
	return next + ((elapsed-next)/every+1)*every
}
