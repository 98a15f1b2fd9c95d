package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"time"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/upload"
	"golang.org/x/term"
)

// progress shows how far the run is, in one of two forms: on a terminal
// a single line redrawn in place (a carriage return, then fields of fixed
// width, so a shorter number never leaves the tail of a longer one), and
// otherwise (CI logs, pipes, files) one plain line per interval. Both are
// formatted into a buffer allocated once and written with one Write, so
// an update allocates nothing and runs inside guarded frames like any game
// code: the terminal line is tested under a pseudo-terminal with the
// allocation guard armed. (A progress-bar library did this before; it
// formatted with fmt on every redraw, so the redraw had to run between
// guarded frames, and it linked net/http and crypto/tls.)
//
// A progress belongs to the render goroutine.
type progress struct {
	out   io.Writer
	term  bool // redraw one line in place
	buf   []byte
	total int64 // frames, or milliseconds when the run is timed
	timed bool
	every time.Duration
	next  time.Duration
	width int // the longest line drawn, for blanking a shorter one
	drawn bool
}

// newProgress picks the terminal line when out is a terminal. total is
// the frame limit, or the duration when frames is 0.
func newProgress(out io.Writer, frames int, duration time.Duration, every time.Duration) *progress {
	p := &progress{out: out, buf: make([]byte, 0, 256), every: every, next: every}
	if frames > 0 {
		p.total = int64(frames)
	} else {
		p.total, p.timed = duration.Milliseconds(), true
	}
	if f, ok := out.(interface{ Fd() uintptr }); ok && term.IsTerminal(int(f.Fd())) {
		p.term = true
	}
	return p
}

// Due reports whether an update is due at elapsed.
func (p *progress) Due(elapsed time.Duration) bool { return elapsed >= p.next }

// Update shows the state at elapsed. It does not allocate.
func (p *progress) Update(elapsed time.Duration, frames uint64, live, peak int, guardOK bool) {
	p.next = nextTick(p.next, p.every, elapsed)
	done := int64(frames)
	if p.timed {
		done = elapsed.Milliseconds()
	}
	pct := min(done*100/max(p.total, 1), 100)
	b := p.buf[:0]
	if p.term {
		b = append(b, '\r')
		b = append(b, "stress "...)
		if p.total > 0 {
			b = appendRight(b, pct, 3)
			b = append(b, '%')
		} else {
			b = append(b, "   -"...) // a -scenario run that ends with its last phase
		}
		b = append(b, "  frames "...)
		b = appendRight(b, int64(frames), 8)
		b = append(b, "  elapsed "...)
		b = appendRight(b, elapsed.Milliseconds()/1000, 6)
		b = append(b, '.')
		b = append(b, byte('0'+elapsed.Milliseconds()/100%10))
		b = append(b, "s  descriptors live "...)
		b = appendRight(b, int64(live), 4)
		b = append(b, " peak "...)
		b = appendRight(b, int64(peak), 4)
		if guardOK {
			b = append(b, "  guard ok      "...)
		} else {
			b = append(b, "  guard VIOLATED"...)
		}
		n := len(b)
		for len(b) < p.width {
			b = append(b, ' ')
		}
		p.width = max(p.width, n)
	} else {
		b = append(b, "progress "...)
		if p.total > 0 {
			b = strconv.AppendInt(b, pct, 10)
			b = append(b, "% "...)
		}
		b = append(b, "frames="...)
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
	}
	p.buf = b
	p.drawn = true
	_, _ = p.out.Write(b)
}

// Finish ends the terminal line, so what follows starts on a line of its
// own; a no-op for plain lines.
func (p *progress) Finish() {
	if p.term && p.drawn {
		_, _ = io.WriteString(p.out, "\n")
	}
}

// appendRight appends v right-aligned in a field of width characters (a
// wider number takes the room it needs).
func appendRight(b []byte, v int64, width int) []byte {
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], v, 10)
	for range width - len(d) {
		b = append(b, ' ')
	}
	return append(b, d...)
}

// nextTick returns the first multiple of every after next (which was due)
// that lies beyond elapsed, in one step however far behind the caller is.
func nextTick(next, every, elapsed time.Duration) time.Duration {
	if every <= 0 || next > elapsed {
		return next
	}
	return next + ((elapsed-next)/every+1)*every
}

// occupancyLog writes the descriptor occupancy line users watch, through
// log/slog (text or JSON). It runs inside guarded frames, so it is built
// not to allocate: the message, with the capacity in it, is formatted once
// at start-up, and each line carries five attributes, which slog.Record
// stores inline (a sixth would spill to the heap). The heap's own periodic
// line (descriptors.HeapDesc.LogInterval) is allocation-free too but
// carries only the heap's numbers; this one adds arena use, so the stress
// tool leaves the heap's off and logs this one.
//
// An occupancyLog belongs to the render goroutine.
type occupancyLog struct {
	log    *slog.Logger
	msg    string
	arena  string
	every  time.Duration
	next   time.Duration
	arenas []*upload.Arena
}

func newOccupancyLog(log *slog.Logger, capacity int, every time.Duration, arenas []*upload.Arena) *occupancyLog {
	return &occupancyLog{
		log:    log,
		msg:    fmt.Sprintf("descriptor occupancy (capacity %d)", capacity),
		arena:  "upload arenas (bytes this frame: renderer, sprites, particles)",
		every:  every,
		next:   every,
		arenas: arenas,
	}
}

// Due reports whether a line is due at elapsed.
func (o *occupancyLog) Due(elapsed time.Duration) bool { return o.every > 0 && elapsed >= o.next }

// Write logs the line for s and the arenas' use in the open frame. It
// does not allocate: the tool's logger writes through flatlog.
func (o *occupancyLog) Write(elapsed time.Duration, s descriptors.Stats) {
	o.next = nextTick(o.next, o.every, elapsed)
	ctx := context.Background()
	o.log.LogAttrs(ctx, slog.LevelInfo, o.msg,
		slog.Int("live", s.Live),
		slog.Int("pending", s.Pending),
		slog.Int("peak", s.Peak),
		slog.Int("high_water", s.HighWater),
		slog.Float64("pct", float64(int(s.Percent()*10))/10),
	)
	if len(o.arenas) == arenaCount {
		o.log.LogAttrs(ctx, slog.LevelInfo, o.arena,
			slog.Int("renderer", o.arenas[0].Stats().Used),
			slog.Int("sprites", o.arenas[1].Stats().Used),
			slog.Int("particles", o.arenas[2].Stats().Used),
			slog.Uint64("frame", s.Frame),
		)
	}
}
