package main

import (
	"strings"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/internal/testenv"
)

// TestChurnMergesAndDrops: churn requests that arrive while one of the
// same kind waits are merged, not lost; what waits at exit is dropped and
// counted; and the ledger balances.
func TestChurnMergesAndDrops(t *testing.T) {
	f := newHeadless(t)
	tex := f.load()
	var c churn
	var l ledger
	issue := func(q request) {
		l[q.kind].Issued++
		c.request(q, &l)
	}
	// Frame 10: three rebakes, two swaps and two level transitions arrive.
	issue(request{kind: reqRebake, size: 2})
	issue(request{kind: reqRebake, size: 3})
	issue(request{kind: reqRebake, size: 4})
	issue(request{kind: reqSwap})
	issue(request{kind: reqSwap})
	issue(request{kind: reqLevel})
	issue(request{kind: reqLevel})
	f.frame(func() {
		if err := c.apply(tex, 10, 3, &l); err != nil {
			t.Fatal(err)
		}
	})
	if got := tex.Atlas().Scale; got != 4 {
		t.Errorf("the merged rebake baked at scale %d, want the last request's 4", got)
	}
	want := map[requestKind]tally{
		reqRebake: {Issued: 3, Applied: 1, Merged: 2},
		reqSwap:   {Issued: 2, Applied: 1},
		reqLevel:  {Issued: 2, Applied: 1, Merged: 1},
	}
	for k, w := range want {
		if l[k] != w {
			t.Errorf("%s after one frame: %+v, want %+v", kindNames[k], l[k], w)
		}
	}
	// A level transition asked for within the frames in flight waits.
	issue(request{kind: reqLevel})
	f.frame(func() { _ = c.apply(tex, 11, 3, &l) })
	if l[reqLevel].Applied != 1 || l[reqSwap].Applied != 2 {
		t.Errorf("frame 11: level %+v (want it waiting), swap %+v (want the second applied)", l[reqLevel], l[reqSwap])
	}
	issue(request{kind: reqSwap})
	issue(request{kind: reqSwap})
	issue(request{kind: reqRebake, size: 1})
	c.abandon(&l)
	want = map[requestKind]tally{
		reqRebake: {Issued: 4, Applied: 1, Merged: 2, Dropped: 1},
		reqSwap:   {Issued: 4, Applied: 2, Dropped: 2},
		reqLevel:  {Issued: 3, Applied: 1, Merged: 1, Dropped: 1},
	}
	for k, w := range want {
		if l[k] != w {
			t.Errorf("%s at exit: %+v, want %+v", kindNames[k], l[k], w)
		}
	}
	if err := l.check(); err != nil {
		t.Error(err)
	}
}

// TestLedgerCheckNamesMismatch: a request the tool lost track of fails
// the run, naming the kind and every term.
func TestLedgerCheckNamesMismatch(t *testing.T) {
	var l ledger
	l[reqUpload] = tally{Issued: 10, Applied: 8, Refused: 1}
	l[reqPlay] = tally{Issued: 3, Applied: 3}
	err := l.check()
	if err == nil {
		t.Fatal("an unbalanced ledger passed")
	}
	for _, want := range []string{"upload: 10 issued but 9 accounted", "8 applied + 0 merged + 1 refused + 0 dropped at exit"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v lacks %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "play") {
		t.Errorf("%v names a balanced kind", err)
	}
}

// TestChurnSpreadOverWorkers: with 64 workers sharing 4 churn events a
// second, each worker's period is 16 s; the workers' phases spread the
// events evenly, so a 2-second run has its 8, one or two a tick, instead
// of none (every worker's first event falling due at 16 s at once).
func TestChurnSpreadOverWorkers(t *testing.T) {
	cfg := defaultConfig()
	cfg.workers, cfg.churnRate, cfg.playRate, cfg.spawnRate, cfg.uploadsPer = 64, 4, 0, 0, 0
	q := mustQueue(1 << 12)
	workers := make([]*worker, cfg.workers)
	for i := range workers {
		workers[i] = newWorker(i, &cfg, &clock{}, q, nil)
	}
	start := time.Unix(1000, 0)
	total, busiest := 0, 0
	for tick := 0; tick <= 120; tick++ { // 2 s at 60 Hz
		now := start.Add(time.Duration(tick) * time.Second / 60)
		for _, w := range workers {
			w.tick(uint64(tick+1), now)
		}
		n := 0
		for {
			if _, ok := q.Pop(); !ok {
				break
			}
			n++
		}
		total += n
		busiest = max(busiest, n)
	}
	if total < 7 || total > 9 {
		t.Errorf("%d churn events in 2 s at 4 a second, want 8", total)
	}
	if busiest > 2 {
		t.Errorf("%d churn events fell due on one tick: not spread", busiest)
	}
}

// TestObjectsChurnPool: spawns and despawns go through the pool, oldest
// first; a despawn with nothing alive is refused; the frame's arena holds
// only the visible objects; none of it allocates.
func TestObjectsChurnPool(t *testing.T) {
	o, err := newObjects()
	if err != nil {
		t.Fatal(err)
	}
	var l ledger
	if err := o.despawn(&l); err != nil || l[reqDespawn].Refused != 1 {
		t.Fatalf("despawn of nothing: %v, %+v", err, l[reqDespawn])
	}
	for i := range 10 {
		o.spawn(request{kind: reqSpawn, seed: uint64(i + 1)}, 640, 480, &l)
	}
	oldest := o.ring[o.head]
	if err := o.despawn(&l); err != nil {
		t.Fatal(err)
	}
	if o.pool.Valid(oldest) || o.len() != 9 || l[reqSpawn].Applied != 10 || l[reqDespawn].Applied != 1 {
		t.Errorf("after 10 spawns and a despawn: oldest valid %v, %d alive, %+v %+v", o.pool.Valid(oldest), o.len(), l[reqSpawn], l[reqDespawn])
	}
	if err := o.step(1.0/60, 640, 480); err != nil {
		t.Fatal(err)
	}
	if n := o.visible.Len(); n == 0 || n > 9 {
		t.Errorf("%d visible of 9", n)
	}
	view := make([]byte, objectBudget*80)
	runs, err := o.write(view[:o.visible.Len()*80], 7)
	if err != nil || len(runs) != 1 || runs[0].Count != o.visible.Len() {
		t.Errorf("write: %v, runs %+v", err, runs)
	}
	seed := uint64(100)
	testenv.NoAllocs(t, "an object spawn, despawn and frame", 200, func() {
		seed++
		o.spawn(request{kind: reqSpawn, seed: seed}, 640, 480, &l)
		_ = o.despawn(&l)
		_ = o.step(1.0/60, 640, 480)
		_, _ = o.write(view[:o.visible.Len()*80], 7)
	})
	st := o.pool.Stats()
	if st.HighWater > 11 || st.Refused != 0 {
		t.Errorf("pool high-water %d, refused %d: despawned slots are not reused", st.HighWater, st.Refused)
	}
}

// headless drives a headless scene the way the render goroutine does.
type headless struct {
	t *testing.T
	r *scene.Render
}

func newHeadless(t *testing.T) *headless {
	t.Helper()
	r, err := scene.OpenHeadless(scene.RenderDesc{})
	if err != nil {
		t.Fatal(err)
	}
	return &headless{t: t, r: r}
}

func (h *headless) frame(body func()) {
	if _, err := h.r.Clock.BeginFrame(); err != nil {
		h.t.Fatal(err)
	}
	body()
	if err := h.r.Clock.EndFrame(); err != nil {
		h.t.Fatal(err)
	}
}

func (h *headless) load() *scene.Textures {
	var tex *scene.Textures
	h.frame(func() {
		var err error
		if tex, err = scene.NewTextures(h.r.Tex, h.r.Heap, 2); err != nil {
			h.t.Fatal(err)
		}
	})
	return tex
}
