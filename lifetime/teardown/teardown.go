package teardown

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
)

// Status says what happened to a teardown stage. It is a plain value,
// safe to copy and to hand to any goroutine.
type Status uint8

const (
	// StageNotRun is a stage Run has not reached.
	StageNotRun Status = iota
	// StageOK is a stage whose function returned nil.
	StageOK
	// StageFailed is a stage whose function returned an error or panicked.
	StageFailed
	// StageSkipped is a stage not run because a prerequisite failed or was
	// itself skipped: running it could release something still in use.
	StageSkipped
)

// String returns the status as a log word: "ok", "failed", "skipped" or
// "not run".
func (s Status) String() string {
	switch s {
	case StageOK:
		return "ok"
	case StageFailed:
		return "failed"
	case StageSkipped:
		return "skipped"
	}
	return "not run"
}

// Result is the outcome of one teardown stage. Results returns copies
// the caller owns and may hand to any goroutine.
type Result struct {
	Name     string
	Status   Status
	Duration time.Duration
	Err      error // the stage's error, or why it was skipped
}

type stage struct {
	name  string
	fn    func() error
	after []string
}

type use struct{ user, resource string }

// Plan is an explicit, logged, ordered shutdown. Each stage has a name
// and the names of the stages it must follow; Run executes them in that
// order (registration order breaks ties, so the order is deterministic),
// logs each with its duration, and joins their errors. A stage whose
// prerequisite failed is skipped rather than run, because the prerequisite
// is what made it safe.
//
// Uses records that one stage's subject is used until another stage has
// run: Uses("voices-stopall", "sound-memory") says the sound memory
// released by stage "sound-memory" is read by voices until stage
// "voices-stopall" has stopped them. Validation then requires
// "sound-memory" to follow "voices-stopall", directly or through other
// stages, and reports a violation as ErrOrder naming both, before
// anything runs, instead of a use-after-free at exit.
//
// A Plan belongs to the goroutine that shuts the program down; it is
// not safe for concurrent use.
type Plan struct {
	logger  *slog.Logger
	stages  []stage
	index   map[string]int
	uses    []use
	ran     bool
	results []Result
}

// New returns an empty Plan that logs to logger, or to
// slog.Default() when logger is nil.
func New(logger *slog.Logger) *Plan {
	if logger == nil {
		logger = slog.Default()
	}
	return &Plan{logger: logger, index: make(map[string]int)}
}

// Add registers stage name, run by fn after every stage named in after.
// Stages named in after may be added later; Run checks they exist. Adding
// a name twice returns ErrDuplicate and keeps the first stage.
func (t *Plan) Add(name string, fn func() error, after ...string) error {
	if t.ran {
		return fmt.Errorf("%w: Add(%q) after Run", ErrTwice, name)
	}
	if name == "" {
		return fmt.Errorf("%w: teardown stage with an empty name", ErrInvalidConfig)
	}
	if fn == nil {
		return fmt.Errorf("%w: teardown stage %q has a nil function", ErrInvalidConfig, name)
	}
	if _, dup := t.index[name]; dup {
		return fmt.Errorf("%w: %q", ErrDuplicate, name)
	}
	for _, a := range after {
		if a == name {
			return fmt.Errorf("%w: %q after %q", ErrCycle, name, name)
		}
	}
	t.index[name] = len(t.stages)
	t.stages = append(t.stages, stage{name: name, fn: fn, after: append([]string(nil), after...)})
	return nil
}

// Uses declares that the resource released by stage resource is used until
// stage user has run. Both stages may be added later; Run checks them.
func (t *Plan) Uses(user, resource string) error {
	if t.ran {
		return fmt.Errorf("%w: Uses(%q, %q) after Run", ErrTwice, user, resource)
	}
	if user == "" || resource == "" || user == resource {
		return fmt.Errorf("%w: Uses(%q, %q) needs two different stage names", ErrInvalidConfig, user, resource)
	}
	t.uses = append(t.uses, use{user: user, resource: resource})
	return nil
}

// Validate checks the stages without running anything: every dependency
// and every Uses name exists, the dependencies have no cycle, and every
// resource is released only after all of its users' stages. It returns
// the order Run would use.
func (t *Plan) Validate() ([]string, error) {
	order, err := t.order()
	if err != nil {
		return nil, err
	}
	names := make([]string, len(order))
	for i, s := range order {
		names[i] = t.stages[s].name
	}
	return names, nil
}

// Run validates the stages and, if they are valid, runs them in order.
// It returns every stage error and skip joined with errors.Join. A
// validation error runs nothing and may be fixed (Add the missing stage)
// before calling Run again; once stages have run, Run returns
// ErrTwice. Call Validate at startup to find graph errors before
// shutdown.
func (t *Plan) Run() error {
	if t.ran {
		return fmt.Errorf("%w: Run", ErrTwice)
	}
	order, err := t.order()
	if err != nil {
		t.logger.Error("teardown: not run", "err", err)
		return err
	}
	t.ran = true
	t.results = make([]Result, len(t.stages))
	for i, s := range t.stages {
		t.results[i].Name = s.name
	}
	var errs []error
	start := time.Now()
	for _, i := range order {
		r := &t.results[i]
		if blocker := t.blocker(i); blocker != "" {
			r.Status = StageSkipped
			r.Err = fmt.Errorf("%w: %q not run because prerequisite %q did not complete",
				ErrSkipped, r.Name, blocker)
			errs = append(errs, r.Err)
			t.logger.Warn("teardown: stage skipped", "stage", r.Name, "prerequisite", blocker)
			continue
		}
		began := time.Now()
		stageErr := runStage(t.stages[i].fn)
		r.Duration = time.Since(began)
		if stageErr != nil {
			r.Status = StageFailed
			r.Err = fmt.Errorf("teardown: stage %q: %w", r.Name, stageErr)
			errs = append(errs, r.Err)
			t.logger.Error("teardown: stage failed", "stage", r.Name, "duration", r.Duration, "err", stageErr)
			continue
		}
		r.Status = StageOK
		t.logger.Info("teardown: stage", "stage", r.Name, "duration", r.Duration)
	}
	t.logger.Info("teardown: done", "stages", len(order), "failed", len(errs), "duration", time.Since(start))
	return errors.Join(errs...)
}

// runStage calls fn, turning a panic into an error: a panicking stage must
// not stop the stages that do not depend on it from releasing their
// resources.
func runStage(fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panicked: %v", p)
		}
	}()
	return fn()
}

// blocker returns the first prerequisite of stage i that did not complete.
func (t *Plan) blocker(i int) string {
	for _, a := range t.stages[i].after {
		if t.results[t.index[a]].Status != StageOK {
			return a
		}
	}
	return ""
}

// Results returns each stage's outcome in registration order, or nil
// before Run. The slice is the caller's.
func (t *Plan) Results() []Result {
	if t.results == nil {
		return nil
	}
	return append([]Result(nil), t.results...)
}

// order returns stage indexes in run order, or the validation error.
func (t *Plan) order() ([]int, error) {
	var errs []error
	for _, s := range t.stages {
		for _, a := range s.after {
			if _, ok := t.index[a]; !ok {
				errs = append(errs, fmt.Errorf("%w: stage %q follows unknown stage %q", ErrUnknown, s.name, a))
			}
		}
	}
	for _, u := range t.uses {
		for _, n := range []string{u.user, u.resource} {
			if _, ok := t.index[n]; !ok {
				errs = append(errs, fmt.Errorf("%w: Uses(%q, %q) names unknown stage %q", ErrUnknown, u.user, u.resource, n))
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	order, cycle := t.topo()
	if cycle != nil {
		return nil, fmt.Errorf("%w: %s", ErrCycle, strings.Join(cycle, " after "))
	}
	for _, u := range t.uses {
		if !t.follows(t.index[u.resource], t.index[u.user]) {
			errs = append(errs, fmt.Errorf("%w: stage %q releases a resource that stage %q still uses; add %q to its after list",
				ErrOrder, u.resource, u.user, u.user))
		}
	}
	return order, errors.Join(errs...)
}

// topo is Kahn's algorithm picking the lowest registration index among
// ready stages, so ties keep registration order. On a cycle it returns the
// cycle's names instead, each following the next.
func (t *Plan) topo() (order []int, cycle []string) {
	n := len(t.stages)
	waiting := make([]int, n) // unfinished prerequisites per stage
	followers := make([][]int, n)
	for i, s := range t.stages {
		waiting[i] = len(s.after)
		for _, a := range s.after {
			p := t.index[a]
			followers[p] = append(followers[p], i)
		}
	}
	done := make([]bool, n)
	for len(order) < n {
		next := -1
		for i := 0; i < n; i++ {
			if !done[i] && waiting[i] == 0 {
				next = i
				break
			}
		}
		if next < 0 {
			return nil, t.findCycle(done)
		}
		done[next] = true
		order = append(order, next)
		for _, f := range followers[next] {
			waiting[f]--
		}
	}
	return order, nil
}

// findCycle walks unfinished prerequisites from the first stage Kahn's
// algorithm could not place; every such stage has one, so the walk must
// revisit a stage, and the path from that stage on is a cycle.
func (t *Plan) findCycle(done []bool) []string {
	at := 0
	for done[at] {
		at++
	}
	pos := map[int]int{}
	var path []int
	for {
		if p, seen := pos[at]; seen {
			names := make([]string, 0, len(path)-p+1)
			for _, i := range path[p:] {
				names = append(names, t.stages[i].name)
			}
			return append(names, t.stages[at].name)
		}
		pos[at] = len(path)
		path = append(path, at)
		next := -1
		for _, a := range t.stages[at].after {
			if p := t.index[a]; !done[p] {
				next = p
				break
			}
		}
		if next < 0 {
			panic("teardown: stage left unplaced with every prerequisite placed")
		}
		at = next
	}
}

// follows reports whether stage later must run after stage earlier,
// directly or through other stages.
func (t *Plan) follows(later, earlier int) bool {
	seen := make([]bool, len(t.stages))
	stack := []int{later}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, a := range t.stages[i].after {
			p := t.index[a]
			if p == earlier {
				return true
			}
			if !seen[p] {
				seen[p] = true
				stack = append(stack, p)
			}
		}
	}
	return false
}
