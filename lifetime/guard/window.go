package guard

import (
	"runtime"
	"runtime/metrics"
	"time"
)

// count is what the guard reads at a boundary: both are exact at the read
// (ReadMemStats flushes every P's allocation cache in a stop-the-world;
// the goroutine count sums every P's counter under the scheduler lock).
type count struct {
	mallocs uint64 // runtime.MemStats.Mallocs
	starts  uint64 // goroutines created since the program started
}

func (c count) sub(o count) count { return count{c.mallocs - o.mallocs, c.starts - o.starts} }
func (c count) add(o count) count { return count{c.mallocs + o.mallocs, c.starts + o.starts} }
func (c count) zero() bool        { return c == count{} }

// read takes an exact count. It does not allocate.
func (g *Guard) read() count {
	runtime.ReadMemStats(&g.ms)
	metrics.Read(g.created[:])
	return count{mallocs: g.ms.Mallocs, starts: g.created[0].Value.Uint64()}
}

// window is a run of consecutive armed frames counted by one pair of reads.
// Consecutive windows chain: the read that closes one opens the next, so
// the time between their frames is counted too and no armed frame or gap
// between armed frames escapes. A flagged or tolerated window chains too,
// from the read taken after its reporting, so the guard's own work is
// left out and nothing else is. The chain breaks (the next BeginFrame
// reads afresh) only where the caller does work that must not count: at
// CloseWindow, Resettle and Verdict, and after every frame with Window 1.
type window struct {
	open  bool
	first uint64 // frame serial of its first frame
	n     uint64 // armed frames completed in it
	size  uint64 // frames it spans: Window, or 1 while narrowed
	start count
}

// spanSize is the size of the next window: 1 while narrowed after a
// violation, so a recurring violation is named with its frame.
func (g *Guard) spanSize() uint64 {
	if g.narrowLeft > 0 {
		return 1
	}
	return g.window
}

// closeWindow reads the count, checks the open window and, when chain is
// set and nothing was found, opens the next window on the same read.
func (g *Guard) closeWindow(chain bool) {
	c := g.read()
	w := g.win
	g.win.open = false
	last := w.first + w.n - 1
	if w.size == 1 {
		g.perFrame += w.n
		if g.window > 1 {
			g.noteNarrowed(w.first)
		}
	} else {
		g.inWindows += w.n
	}
	d := c.sub(w.start)
	g.lastEnd, g.haveEnd = c, true
	violated := !d.zero() && g.violation(w.first, last, d, c.starts)
	switch {
	case violated && g.window > 1:
		g.narrowLeft = g.window
	case w.size == 1 && g.narrowLeft > 0:
		// A clean or tolerated frame counted alone: one fewer to go.
		g.narrowLeft--
	}
	if d.zero() {
		if chain && g.window > 1 {
			g.win = window{open: true, first: g.frames + 1, start: c, size: g.spanSize()}
		}
		return
	}
	// Re-baseline: the reporting above allocated (and its GC may have
	// started the runtime's own goroutines), and none of that may count
	// against the next span. The next window chains from this read, so
	// what runs between this frame and the next is still counted.
	g.lastEnd = g.read()
	if g.starts != nil {
		g.starts.refresh(g.lastEnd.starts)
	}
	if chain && g.window > 1 {
		g.win = window{open: true, first: g.frames + 1, start: g.lastEnd, size: g.spanSize()}
	}
}

// noteNarrowed records that frame was counted alone after a window was
// flagged, extending the current run of such frames.
func (g *Guard) noteNarrowed(frame uint64) {
	if n := len(g.narrowed); n > 0 && g.narrowed[n-1].Last+1 == frame {
		g.narrowed[n-1].Last = frame
		return
	}
	g.narrowedRuns++
	if len(g.narrowed) < cap(g.narrowed) {
		g.narrowed = append(g.narrowed, Span{First: frame, Last: frame})
	}
}

// violation records a checked span that allocated or started goroutines,
// and reports whether it is a violation (false: every allocation and start
// was tolerated). created is the goroutine count read at the span's end.
// It may allocate.
func (g *Guard) violation(first, last uint64, d count, created uint64) bool {
	defer func(t time.Time) { g.reporting += time.Since(t) }(time.Now())
	v := Violation{Frame: first, Last: last, Allocs: d.mallocs, Starts: d.starts}
	var fresh []Site
	if g.sites == nil {
		v.Unnamed = d.starts
	} else {
		// Goroutines first: the sooner the snapshot, the more of the
		// span's goroutines are still alive to be named.
		creators, system, unnamed := g.starts.collect(d.starts, created, g.gap.starts == 0)
		sites, published := g.sites.collect()
		for _, c := range creators {
			s := g.sites.name(c.function, c.file, c.line)
			s.Starts = 1
			sites = mergeSite(sites, s)
		}
		if system > 0 {
			sites = mergeSite(sites, Site{Function: "runtime", Allowed: ReasonSystemGoroutine, Starts: int64(system)})
		}
		sortSites(sites)
		v.Sites, v.Unnamed = sites, unnamed
		v.Exact = g.gap.zero() && published
		g.gap = count{}
		fresh = g.sites.remember(sites)
		if tolerable(v) {
			g.tolerated++
			for _, s := range fresh {
				g.logger.Info("guard: tolerated allocation in guarded frames",
					"frame", v.Frame, "last", v.Last, "site", s.String(), "reason", s.Allowed)
			}
			return false
		}
	}
	g.violations++
	if len(g.log) < cap(g.log) {
		g.log = append(g.log, v)
	}
	if g.first == nil {
		g.first = violationError(v.describe(g.sites != nil))
	}
	if g.sites == nil {
		if g.violations == 1 {
			g.logger.Warn("guard: allocation in guarded frames", "frame", v.Frame, "last", v.Last,
				"allocs", v.Allocs, "goroutines_started", v.Starts, "hint", "enable Sites to name the call sites")
		}
		return true
	}
	for _, s := range fresh {
		if s.Allowed != "" {
			continue
		}
		g.logger.Warn("guard: allocation in guarded frames", "frame", v.Frame, "last", v.Last,
			"allocs", v.Allocs, "goroutines_started", v.Starts, "site", s.String(),
			"site_allocs", s.Allocs, "site_starts", s.Starts, "guarded", s.Guarded)
	}
	return true
}

// tolerable reports whether every allocation and goroutine start of v is
// attributed to a tolerated site. Nothing attributed is not tolerated:
// what nobody can name is not exempt.
func tolerable(v Violation) bool {
	if v.Unnamed > 0 || len(v.Sites) == 0 {
		return false
	}
	for _, s := range v.Sites {
		if s.Allowed == "" {
			return false
		}
	}
	return true
}
