package guard

import (
	"fmt"
	"log/slog"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"time"
)

// DefaultSettleFrames is how many frames a Guard lets pass before it
// arms: warm-up work (pools filling, first-use caches) happens there.
const DefaultSettleFrames = 120

// DefaultWindow is how many armed frames share one exact count. 32 reads
// the count 64 times less often than two reads a frame, and at 60 Hz
// still names a one-off violation within about half a second.
const DefaultWindow = 32

// DefaultMinFrames is how many armed frames a run needs before Verdict
// passes it. That is five seconds at 60 Hz. So once-a-second work (log
// lines, progress, churn at the stress tool's default rates) has run
// inside armed frames several times. It is also about ten windows of
// DefaultWindow, so the steady state is seen to stay steady rather than
// glimpsed once.
const DefaultMinFrames = 300

// DefaultViolationLog is how many violations a Guard keeps in detail.
const DefaultViolationLog = 64

// Allow tolerates heap allocations made by third-party code that steadyframe
// cannot change, such as a dependency's audio callback. Reason is required:
// an allowlist entry nobody can explain is a hidden bug. An entry covers
// an allocation only when the innermost frame of its stack outside the
// runtime and sync is the allowed code: what that code calls (a user's
// io.Reader, a decoder, our mixer) is still reported. It is a plain
// value; New copies the allowlist, so the caller may reuse it.
// voices/otodev.GuardAllow is the entry a program playing through oto
// needs.
type Allow struct {
	// Site is a function-name prefix as runtime.Frame.Function spells it,
	// for example "github.com/ebitengine/oto/v3/internal/mux.(*Mux)."
	Site string
	// Reason says why the allocation is tolerated; it must not be empty.
	Reason string
	// Caller, when set, narrows the entry to a Site called from code
	// with this prefix. It is the first frame outward that Site does not
	// match. It lets an entry cover a standard-library function, such as
	// encoding/binary.Read, only where one decoder calls it.
	Caller string
}

// Desc configures a Guard. The zero value of each field picks its
// default. It is a plain value read once by New, which copies
// its slices; the Logger is then used from the frame goroutine only.
type Desc struct {
	// Settle is the number of frames to let pass before arming; 0 means
	// DefaultSettleFrames. Negative is invalid.
	Settle int
	// Window is how many consecutive armed frames share one exact count;
	// 0 means DefaultWindow, 1 counts every frame alone with two reads a
	// frame (the cost BenchmarkGuardFrame compares against). Negative is
	// invalid. See the package documentation for how windows narrow.
	Window int
	// MinFrames is how many armed frames Verdict requires; 0 means
	// DefaultMinFrames. A unit test that runs a handful of frames sets
	// it to what it runs. Negative is invalid.
	MinFrames int
	// Sites names the allocating call sites of each violation from
	// runtime.MemProfile, and the code that started its goroutines. It
	// requires EnableSiteProfiling to have been called before the work
	// started. Use it for pass/fail gates: without it, the runtime's own
	// rare allocations (RuntimeExemptions) cannot be told apart and count
	// as violations.
	Sites bool
	// Prefixes are the function-name prefixes of guarded code, used to name
	// a site by the guarded function that caused it; nil means the module
	// path "github.com/steadyframe/steadyframe" and "main.".
	Prefixes []string
	// Allow lists tolerated third-party sites. It requires Sites, because
	// a span is tolerated only when every one of its allocations and
	// goroutine starts is attributed to an allowlisted site.
	Allow []Allow
	// Log is the capacity of the violation log; 0 means
	// DefaultViolationLog. Violations beyond it are counted, not kept.
	Log int
	// Logger receives one warning per unique site per guard; nil means
	// slog.Default().
	Logger *slog.Logger
}

// Guard asserts that steady-state frames allocate nothing on the heap and
// start no goroutines. At window boundaries it reads
// runtime.MemStats.Mallocs and the runtime's count of goroutines created.
// That covers every goroutine in the process. Worker goroutines and the
// audio callback are guarded as much as the frame goroutine. An
// allocation by any of them inside a window is a violation of that
// window.
//
// In site mode the guard forces a GC when it arms and on each flagged
// span, because runtime.MemProfile is only current after one. A GC empties
// every sync.Pool and the runtime's sudog cache, so the first frame that
// uses one afterwards allocates again; that is a real allocation and is
// reported as one (allowlist a third-party pool, with its reason). A
// steady state that allocates nothing triggers no GC of its own.
//
// A Guard belongs to the frame goroutine; it is not safe for concurrent
// use. Its steady path does not allocate; the violation path does (it
// formats, logs and, in site mode, forces a GC to read the profile), and
// it re-baselines afterwards so its own allocations never count against
// the next span.
type Guard struct {
	settle, window, minFrames uint64
	logger                    *slog.Logger
	sites                     *siteTracker  // nil unless naming sites
	starts                    *startTracker // nil unless naming sites

	// ms is kept in the guard rather than on the stack: it is several
	// kilobytes and read at every boundary.
	ms      runtime.MemStats
	created [1]metrics.Sample // /sched/goroutines-created:goroutines

	frames    uint64 // frames begun
	settled   uint64 // frames completed since (re)settling began
	open      bool   // a frame is open
	baselined bool   // the site baseline is current
	began     time.Time

	win        window
	narrowLeft uint64 // clean frames to count alone before windows resume
	lastEnd    count  // the count after the last span closed
	haveEnd    bool
	gap        count // counted outside guarded spans since the last profile read

	perFrame, inWindows   uint64 // checked frames (armed) counted alone, in windows
	tolerated, violations uint64
	log                   []Violation // fixed capacity, allocated once
	narrowed              []Span      // fixed capacity, allocated once
	narrowedRuns          uint64
	first                 error

	cost      costHist
	beginCost time.Duration // the open frame's BeginFrame counting
	timed     bool          // the open frame's BeginFrame read a count
	reporting time.Duration // Cost.Reporting
}

// New returns a guard. It validates the allowlist (every entry
// needs a site and a reason) and, in site mode, that EnableSiteProfiling
// has been called.
func New(d Desc) (*Guard, error) {
	for _, f := range []struct {
		name string
		v    *int
		def  int
	}{
		{"Settle", &d.Settle, DefaultSettleFrames}, {"Window", &d.Window, DefaultWindow},
		{"MinFrames", &d.MinFrames, DefaultMinFrames}, {"Log", &d.Log, DefaultViolationLog},
	} {
		if *f.v < 0 {
			return nil, fmt.Errorf("%w: guard %s %d", ErrInvalidConfig, f.name, *f.v)
		}
		if *f.v == 0 {
			*f.v = f.def
		}
	}
	for i, a := range d.Allow {
		if a.Site == "" {
			return nil, fmt.Errorf("%w: allowlist entry %d has no site", ErrInvalidConfig, i)
		}
		if a.Reason == "" {
			return nil, fmt.Errorf("%w: allowlist entry %q has no reason", ErrInvalidConfig, a.Site)
		}
	}
	if len(d.Allow) > 0 && !d.Sites {
		return nil, fmt.Errorf("%w: an allowlist needs Sites, to attribute allocations", ErrInvalidConfig)
	}
	if d.Sites && runtime.MemProfileRate != 1 {
		return nil, fmt.Errorf("%w: Sites needs EnableSiteProfiling before the work starts (MemProfileRate is %d)",
			ErrInvalidConfig, runtime.MemProfileRate)
	}
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	g := &Guard{
		settle: uint64(d.Settle), window: uint64(d.Window), minFrames: uint64(d.MinFrames),
		logger:   d.Logger,
		log:      make([]Violation, 0, d.Log),
		narrowed: make([]Span, 0, d.Log),
	}
	g.created[0].Name = "/sched/goroutines-created:goroutines"
	// The first metrics.Read builds the runtime's metric table; do it here.
	metrics.Read(g.created[:])
	if d.Sites {
		g.sites = newSiteTracker(d.Prefixes, d.Allow)
		g.starts = newStartTracker()
	}
	return g, nil
}

// EnableSiteProfiling records every heap allocation in runtime.MemProfile
// (runtime.MemProfileRate = 1), which site mode needs. Call it first thing
// in main or TestMain, before other goroutines start: allocations made
// before it are sampled and cannot be named, and MemProfileRate is a plain
// variable. It slows every allocation (each records a stack), so use it in
// guard runs, not in production.
func EnableSiteProfiling() { runtime.MemProfileRate = 1 }

// pokeSink keeps AllocPoke's object reachable so the compiler cannot keep
// it on the stack.
var pokeSink atomic.Pointer[[64]byte]

// AllocPoke makes exactly one heap allocation. Call it inside a guarded
// frame to prove the guard catches a violation and names this function;
// a guard self-test that cannot fail proves nothing.
//
//go:noinline
func AllocPoke() { pokeSink.Store(new([64]byte)) }

// BeginFrame opens a guarded frame. It reads the count only when the frame
// opens a window after a break (arming, a violation, CloseWindow); other
// frames cost a few increments.
func (g *Guard) BeginFrame() {
	if g.open {
		g.misuse("BeginFrame while a frame is open")
		return
	}
	g.frames++
	g.open = true
	g.beginCost, g.timed = 0, false
	if g.frames == 1 {
		g.began = time.Now()
	}
	if !g.isArmed() || g.win.open {
		return
	}
	baseline := g.sites != nil && !g.baselined
	if baseline {
		// Reading the profile and the goroutines allocates; do it before
		// the count starts, and record it as the point attribution diffs
		// against.
		t := time.Now()
		g.sites.baseline()
		g.starts.baseline()
		g.baselined = true
		g.gap, g.haveEnd = count{}, false
		g.reporting += time.Since(t)
	}
	t := time.Now()
	c := g.read()
	if baseline {
		g.starts.created = c.starts
	}
	if g.haveEnd {
		g.gap = g.gap.add(c.sub(g.lastEnd))
	}
	g.win = window{open: true, first: g.frames, start: c, size: g.spanSize()}
	g.beginCost, g.timed = time.Since(t), true
}

// EndFrame closes the frame. Once armed, it reads the count when the frame
// completes its window, and records a violation if any goroutine allocated
// or started a goroutine within the window.
func (g *Guard) EndFrame() {
	if !g.open {
		g.misuse("EndFrame with no open frame")
		return
	}
	g.open = false
	if !g.isArmed() {
		g.settled++
		return
	}
	g.win.n++
	if g.win.n < g.win.size {
		g.cost.record(g.beginCost, g.timed)
		return
	}
	t, reported := time.Now(), g.reporting
	g.closeWindow(true)
	g.cost.record(g.beginCost+time.Since(t)-(g.reporting-reported), true)
}

// CloseWindow counts the open window now, between frames, so that what
// runs before the next BeginFrame is outside every window. Call it before
// work that allocates between frames on purpose (a terminal redraw) and at
// the end of a run that reads Report without Verdict. With Window 1 the
// time between frames is never counted and CloseWindow does nothing.
func (g *Guard) CloseWindow() {
	if g.open {
		g.misuse("CloseWindow while a frame is open")
		return
	}
	if !g.win.open {
		return
	}
	if g.win.n == 0 {
		// A window chained from the last one that no frame has entered:
		// its start is the last end, so the next BeginFrame counts the
		// time between as a gap.
		g.win.open = false
		return
	}
	g.closeWindow(false)
}

// Resettle disarms the guard until Settle more frames have completed. Call
// it between frames when the next ones are knowingly unsteady (a level
// load, an open console); it first counts the open window, and the frames
// until the guard arms again are not checked.
func (g *Guard) Resettle() {
	if g.open {
		g.misuse("Resettle while a frame is open")
		return
	}
	g.CloseWindow()
	g.settled = 0
	g.baselined = false
	g.narrowLeft = 0
}

// Verdict ends a run's accounting: it counts the open window (between
// frames) and returns the run's verdict. That is the first violation
// (ErrAllocation) or misuse (ErrFrameOrder) if any, since a definite
// failure needs no frame count. Otherwise it is ErrTooFewFrames when
// fewer than MinFrames armed frames were checked. That error names how
// many ran, how many were required and why. Otherwise it is nil. Call it once the frames are done;
// frames may follow, and a later Verdict covers them too.
func (g *Guard) Verdict() error {
	if g.open {
		g.misuse("Verdict while a frame is open")
		return g.first
	}
	g.CloseWindow()
	if g.first != nil {
		return g.first
	}
	if g.armed() < g.minFrames {
		return g.tooFew(time.Since(g.began))
	}
	return nil
}

// Err returns nil while no checked span has violated, and otherwise an
// error wrapping ErrAllocation that describes the first violation on one
// line, naming its first site when known. Misuse (EndFrame without
// BeginFrame) is reported as ErrFrameOrder. It does not read or count
// anything and does not allocate, so a frame may call it; a violation in
// the open window shows only once the window closes, and a run's final
// answer is Verdict's.
func (g *Guard) Err() error { return g.first }

// isArmed reports whether frames are checked. settled changes only in
// an unarmed EndFrame and in Resettle, which is refused inside a frame, so
// BeginFrame and EndFrame of one frame get the same answer.
func (g *Guard) isArmed() bool { return g.settled >= g.settle }

// armed is the number of armed frames checked: each is in exactly one
// closed span, counted alone or in a window.
func (g *Guard) armed() uint64 { return g.perFrame + g.inWindows }

func (g *Guard) misuse(what string) {
	if g.first == nil {
		g.first = fmt.Errorf("%w: guard %s (frame %d)", ErrFrameOrder, what, g.frames)
	}
}
