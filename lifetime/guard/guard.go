package guard

import (
	"fmt"
	"log/slog"
	"runtime"
	"sync/atomic"
	"time"
)

// DefaultSettleFrames is how many frames a Guard lets pass before it
// arms: warm-up work (pools filling, first-use caches) happens there.
const DefaultSettleFrames = 120

// DefaultViolationLog is how many violations a Guard keeps in detail.
const DefaultViolationLog = 64

// Allow tolerates heap allocations made by third-party code that steadyframe
// cannot change, such as a dependency's audio callback. Reason is required:
// an allowlist entry nobody can explain is a hidden bug. It is a plain
// value; New copies the allowlist, so the caller may reuse it.
type Allow struct {
	// Site is a function-name prefix as runtime.Frame.Function spells it,
	// for example "github.com/ebitengine/oto/v3/internal/mux.(*Mux)."
	Site string
	// Reason says why the allocation is tolerated; it must not be empty.
	Reason string
}

// Desc configures a Guard. The zero value of each field picks its
// default. It is a plain value read once by New, which copies
// its slices; the Logger is then used from the frame goroutine only.
type Desc struct {
	// Settle is the number of frames to let pass before arming; 0 means
	// DefaultSettleFrames. Negative is invalid.
	Settle int
	// Sites names the allocating call sites of each violation from
	// runtime.MemProfile. It requires EnableSiteProfiling to have been
	// called before the work started. Use it for pass/fail gates: without
	// it, the runtime's own rare allocations (an M for a new OS thread, the
	// scavenger's timer heap; see RuntimeReason) cannot be told apart and
	// count as violations.
	Sites bool
	// Prefixes are the function-name prefixes of guarded code, used to name
	// a site by the guarded function that caused it; nil means the module
	// path "github.com/steadyframe/steadyframe" and "main.".
	Prefixes []string
	// Allow lists tolerated third-party sites. It requires Sites, because
	// a frame is tolerated only when every one of its allocations is
	// attributed to an allowlisted site.
	Allow []Allow
	// Log is the capacity of the violation log; 0 means
	// DefaultViolationLog. Violations beyond it are counted, not kept.
	Log int
	// Logger receives one warning per unique site per guard; nil means
	// slog.Default().
	Logger *slog.Logger
}

// Violation is one armed frame that allocated. The values in a
// Report are copies the caller owns and may hand to any goroutine.
type Violation struct {
	Frame  uint64 // the guard's frame serial, 1 for the first BeginFrame
	Allocs uint64 // heap objects allocated process-wide during the frame
	// Sites are the allocation sites attributed to the frame, in site mode.
	Sites []Site
	// Exact reports that nothing allocated between frames since the last
	// profile read and that the profile had published every allocation up
	// to the read, so Sites hold this frame's allocations and no others.
	Exact bool
}

// Report is a snapshot of what a Guard has seen. Its slices are
// copies owned by the caller, who may hand the report to any goroutine.
type Report struct {
	Frames     uint64 // frames seen
	Armed      uint64 // frames checked after settling
	Tolerated  uint64 // armed frames whose allocations were all allowlisted
	Violations uint64 // armed frames that allocated, including those not logged
	// Log holds the first violations, up to the log capacity.
	Log []Violation
	// Sites holds every unique site seen, in the order first seen.
	Sites []Site
	// Overhead is the guard's mean cost per frame on the steady path (two
	// runtime.ReadMemStats calls, each a brief stop-the-world).
	Overhead time.Duration
}

// Guard asserts that steady-state frames allocate nothing on the heap.
// It counts runtime.MemStats.Mallocs between BeginFrame and EndFrame, which
// covers every goroutine in the process: worker goroutines and the audio
// callback are guarded as much as the frame goroutine, and an allocation by
// any of them inside the frame window is a violation of that frame.
//
// In site mode the guard forces a GC when it arms and on each violation,
// because runtime.MemProfile is only current after one. A GC empties every
// sync.Pool and the runtime's sudog cache, so the first frame that uses one
// afterwards allocates again; that is a real allocation and is reported as
// one (allowlist a third-party pool, with its reason). A steady state that
// allocates nothing triggers no GC of its own.
//
// A Guard belongs to the frame goroutine; it is not safe for
// concurrent use. Its steady path does not allocate; the violation path
// does (it formats, logs and, in site mode, forces a GC to read the
// profile), and it re-baselines afterwards so its own allocations never
// count against the next frame.
type Guard struct {
	settle uint64
	logger *slog.Logger
	sites  *siteTracker // nil unless naming sites

	// ms is kept in the guard rather than on the stack: it is several
	// kilobytes and read twice per frame.
	ms runtime.MemStats

	frames    uint64 // frames begun
	settled   uint64 // frames completed since (re)settling began
	open      bool
	armedNow  bool   // the open frame is checked
	baselined bool   // the site profile baseline is current
	start     uint64 // Mallocs at BeginFrame
	lastEnd   uint64 // Mallocs after the previous EndFrame's own work
	haveEnd   bool
	gap       uint64 // Mallocs between frames since the last profile read

	armed      uint64
	tolerated  uint64
	violations uint64
	log        []Violation // fixed capacity, allocated once
	first      error
	cost       time.Duration
	costFrames uint64
}

// New returns a guard. It validates the allowlist (every entry
// needs a site and a reason) and, in site mode, that EnableSiteProfiling
// has been called.
func New(d Desc) (*Guard, error) {
	if d.Settle < 0 {
		return nil, fmt.Errorf("%w: guard Settle %d", ErrInvalidConfig, d.Settle)
	}
	if d.Settle == 0 {
		d.Settle = DefaultSettleFrames
	}
	if d.Log < 0 {
		return nil, fmt.Errorf("%w: guard Log %d", ErrInvalidConfig, d.Log)
	}
	if d.Log == 0 {
		d.Log = DefaultViolationLog
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
		settle: uint64(d.Settle),
		logger: d.Logger,
		log:    make([]Violation, 0, d.Log),
	}
	if d.Sites {
		g.sites = newSiteTracker(d.Prefixes, d.Allow)
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

// BeginFrame opens a guarded frame.
func (g *Guard) BeginFrame() {
	if g.open {
		g.misuse("BeginFrame while a frame is open")
		return
	}
	g.frames++
	g.open = true
	g.armedNow = g.settled >= g.settle
	if g.armedNow && g.sites != nil && !g.baselined {
		// Reading the profile allocates; do it before the frame's count
		// starts, and record it as the point attribution diffs against.
		g.sites.baseline()
		g.baselined = true
		g.gap = 0
		g.haveEnd = false
	}
	t := time.Now()
	runtime.ReadMemStats(&g.ms)
	if g.haveEnd {
		g.gap += g.ms.Mallocs - g.lastEnd
	}
	g.start = g.ms.Mallocs
	g.cost += time.Since(t)
}

// EndFrame closes the frame and, once armed, records a violation if any
// goroutine allocated since BeginFrame.
func (g *Guard) EndFrame() {
	if !g.open {
		g.misuse("EndFrame with no open frame")
		return
	}
	t := time.Now()
	runtime.ReadMemStats(&g.ms)
	delta := g.ms.Mallocs - g.start
	g.open = false
	g.lastEnd, g.haveEnd = g.ms.Mallocs, true
	g.cost += time.Since(t)
	g.costFrames++
	if !g.armedNow {
		g.settled++
		return
	}
	g.armed++
	if delta == 0 {
		return
	}
	g.violation(g.frames, delta)
	// Re-baseline: the reporting above allocated, and that must not be
	// counted as the next frame's (or the gap's) allocations.
	runtime.ReadMemStats(&g.ms)
	g.lastEnd = g.ms.Mallocs
}

// Resettle disarms the guard until Settle more frames have completed. Call
// it between frames when the next ones are knowingly unsteady (a level
// load, an open console); the frames in between are not checked.
func (g *Guard) Resettle() {
	g.settled = 0
	g.baselined = false
}

// violation records an armed frame that allocated. It may allocate.
func (g *Guard) violation(frame, allocs uint64) {
	v := Violation{Frame: frame, Allocs: allocs}
	var fresh []Site
	if g.sites != nil {
		var published bool
		v.Sites, fresh, published = g.sites.collect()
		v.Exact = g.gap == 0 && published
		g.gap = 0
		if allAllowed(v.Sites) {
			g.tolerated++
			for _, s := range fresh {
				g.logger.Info("guard: tolerated allocation in guarded frame",
					"frame", frame, "site", s.String(), "reason", s.Allowed)
			}
			return
		}
	}
	g.violations++
	if len(g.log) < cap(g.log) {
		g.log = append(g.log, v)
	}
	if g.first == nil {
		g.first = fmt.Errorf("%w: %s", ErrAllocation, v.describe())
	}
	if g.sites == nil {
		if g.violations == 1 {
			g.logger.Warn("guard: allocation in guarded frame",
				"frame", frame, "allocs", allocs, "hint", "enable Sites to name the call sites")
		}
		return
	}
	for _, s := range fresh {
		if s.Allowed != "" {
			continue
		}
		g.logger.Warn("guard: allocation in guarded frame",
			"frame", frame, "allocs", allocs, "site", s.String(), "guarded", s.Guarded)
	}
}

func (g *Guard) misuse(what string) {
	if g.first == nil {
		g.first = fmt.Errorf("%w: guard %s (frame %d)", ErrFrameOrder, what, g.frames)
	}
}

// describe is the one-line form of a violation used by Err.
func (v Violation) describe() string {
	noun := "allocations"
	if v.Allocs == 1 {
		noun = "allocation"
	}
	s := fmt.Sprintf("frame %d made %d heap %s", v.Frame, v.Allocs, noun)
	for _, site := range v.Sites {
		if site.Allowed == "" {
			return s + " at " + site.String()
		}
	}
	return s
}

// Err returns nil while no armed frame has allocated, and otherwise an
// error wrapping ErrAllocation that describes the first violation on one
// line, naming its first site when known. Misuse (EndFrame without
// BeginFrame) is reported as ErrFrameOrder.
func (g *Guard) Err() error { return g.first }

// Report returns a snapshot of the guard's counters, violations and sites.
func (g *Guard) Report() Report {
	r := Report{
		Frames: g.frames, Armed: g.armed, Tolerated: g.tolerated, Violations: g.violations,
		Log: make([]Violation, len(g.log)),
	}
	copy(r.Log, g.log)
	for i := range r.Log {
		// Deep: the caller owns the report, and writing to its sites must
		// not rewrite the guard's log.
		r.Log[i].Sites = append([]Site(nil), r.Log[i].Sites...)
	}
	if g.sites != nil {
		r.Sites = append([]Site(nil), g.sites.unique...)
	}
	if g.costFrames > 0 {
		r.Overhead = g.cost / time.Duration(g.costFrames)
	}
	return r
}
