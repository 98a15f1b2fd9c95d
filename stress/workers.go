package main

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/lifetime/syncs"
	"github.com/steadyframe/steadyframe/voices"
)

// player starts a sound from any goroutine without allocating; the audio
// owner behind it is reached only through its own bounded command queue.
// Its refusals are voices' bare sentinels (voices.ErrNoVoice,
// voices.ErrQueueFull), told apart by value.
type player interface {
	Play(sound int, volume, pan float32) error
	Effects() int
}

// workerPoll is how often an idle worker looks for the next frame.
const workerPoll = 250 * time.Microsecond

// objectsPerWorker is how many game objects a worker keeps alive: it asks
// for spawns until it has asked for this many more than despawns, then
// alternates, so the population holds steady while slots churn.
const objectsPerWorker = 32

// clock is the frame serial the render goroutine publishes for the
// workers, and the stop flag. Workers poll it with time.Sleep instead of
// blocking on a channel or a sync.Cond: a blocked receive borrows a sudog
// from the runtime's cache, and the runtime allocates a fresh one whenever
// that cache is empty, which happens after every GC (the guard's own
// baseline collection when it arms is one). That allocation would be
// charged, correctly, to the worker's frame. A sleeping goroutine parks on
// its own timer and allocates nothing.
type clock struct {
	serial atomic.Uint64
	stop   atomic.Bool
	// storm counts the voice-storm bursts asked for: each worker issues
	// stormPlays plays in the first tick that sees it rise, and
	// stormExtra more (its share of twice a logical cap past 32).
	storm      atomic.Uint64
	stormExtra atomic.Int64
}

// worker is one simulated game worker (an AI thread in the reference
// engine). Each frame it issues its share of upload traffic and, at the
// configured rates, play requests, spawns and despawns of game objects,
// and texture churn. Its counters are written only by its own goroutine
// and read after it has exited (the WaitGroup orders them).
type worker struct {
	id     int
	rng    rng
	clock  *clock
	reqs   *syncs.Queue[request]
	player player
	cfg    *config

	last time.Time
	// Debts are the requests owed at each rate, fractional. They start
	// at the worker's phase, id/workers, so that the workers' requests
	// are spread evenly over each period instead of all falling due on
	// the same tick: with 64 workers at 4 churn events a second, one
	// worker's period is 16 s, and without the phase no churn at all
	// would happen in a shorter run.
	playDebt, churnDebt, spawnDebt float64
	objects                        int    // spawns issued and queued less despawns issued and queued
	storm                          uint64 // the last voice-storm burst issued

	// ledger holds what this worker issued and what was refused before
	// reaching an owner: a full render queue, or a play the engine
	// refused at the call (so the plays it queued are Issued less
	// Refused). The render goroutine and the report fill in the rest of
	// each request's fate.
	ledger ledger
	// noVoice counts the plays the engine refused with voices.ErrNoVoice
	// or voices.ErrCooldown, which are also in its Refusals.
	noVoice uint64
	// playErrs counts plays that failed for any other reason, a bug the
	// run fails on; playErr is the first.
	playErrs uint64
	playErr  error
}

func newWorker(id int, cfg *config, clk *clock, reqs *syncs.Queue[request], p player) *worker {
	phase := float64(id) / float64(cfg.workers)
	return &worker{
		id:        id,
		rng:       newRNG(uint64(cfg.seed)*0x9e3779b97f4a7c15 + uint64(id)),
		clock:     clk,
		reqs:      reqs,
		player:    p,
		cfg:       cfg,
		playDebt:  phase,
		churnDebt: phase,
		spawnDebt: phase,
	}
}

// run ticks once per new frame serial until the clock stops. It
// allocates nothing per tick: the queue and the player are preallocated.
// It calls ready.Done once it has made its one allocation.
func (w *worker) run(wg, ready *sync.WaitGroup) {
	defer wg.Done()
	// The first time.Sleep of a goroutine allocates its runtime timer:
	// take that now, before the guard arms.
	time.Sleep(time.Nanosecond)
	ready.Done()
	var seen uint64
	for !w.clock.stop.Load() {
		serial := w.clock.serial.Load()
		if serial == seen {
			time.Sleep(workerPoll)
			continue
		}
		seen = serial
		w.tick(serial, time.Now())
	}
}

// tick issues the worker's requests for frame serial at time now: a
// worker still busy with the last frame skips frames and catches up on
// its rates from the elapsed time.
func (w *worker) tick(serial uint64, now time.Time) {
	dt := 0.0
	if !w.last.IsZero() {
		dt = now.Sub(w.last).Seconds()
	}
	w.last = now
	cfg := w.cfg

	for i := 0; i < cfg.uploadsPer; i++ {
		r := request{kind: reqUpload, arena: uint8((w.id + i) % arenaCount),
			size: uint32(cfg.uploadBytes/2 + w.rng.intn(cfg.uploadBytes/2+1)), seed: serial<<8 ^ w.rng.next()}
		if r.size == 0 {
			r.size = 1
		}
		w.push(r)
	}

	if b := w.clock.storm.Load(); b != w.storm {
		w.storm = b
		for range stormPlays + w.clock.stormExtra.Load() {
			w.play()
		}
	}

	w.playDebt += cfg.playRate * dt
	for ; w.playDebt >= 1; w.playDebt-- {
		w.play()
	}

	w.spawnDebt += cfg.spawnRate * dt
	for ; w.spawnDebt >= 1; w.spawnDebt-- {
		w.spawnOrDespawn()
	}

	w.churnDebt += cfg.churnRate / float64(cfg.workers) * dt
	for ; w.churnDebt >= 1; w.churnDebt-- {
		w.requestChurn()
	}
}

// push sends r to the render goroutine and counts it issued, or refused
// when the queue is full.
func (w *worker) push(r request) bool {
	t := &w.ledger[r.kind]
	t.Issued++
	if !w.reqs.Push(r) {
		t.Refused++
		return false
	}
	return true
}

func (w *worker) play() {
	if w.player == nil || w.player.Effects() == 0 {
		return
	}
	sound := w.rng.intn(w.player.Effects())
	vol := 0.2 + 0.6*w.rng.float32()
	pan := 2*w.rng.float32() - 1
	t := &w.ledger[reqPlay]
	t.Issued++
	// A switch on the value, as voices documents: Play returns its
	// refusals as the bare sentinels, and comparing them allocates
	// nothing, where errors.Is against a sentinel that does not match
	// may (the runtime fills a type-assertion cache).
	switch err := w.player.Play(sound, vol, pan); err {
	case nil:
	case voices.ErrNoVoice, voices.ErrCooldown: // both counted in the engine's Refusals
		t.Refused++
		w.noVoice++
	case voices.ErrQueueFull:
		t.Refused++
	default:
		t.Refused++
		if w.playErrs == 0 {
			w.playErr = err
		}
		w.playErrs++
	}
}

// spawnOrDespawn asks for a new game object until the worker keeps
// objectsPerWorker, then alternates despawns and spawns.
func (w *worker) spawnOrDespawn() {
	r := request{kind: reqSpawn, seed: w.rng.next()}
	delta := 1
	if w.objects >= objectsPerWorker {
		r.kind, delta = reqDespawn, -1
	}
	if w.push(r) {
		w.objects += delta
	}
}

// requestChurn picks a churn event with the mix the reference reports:
// rebakes on resize are the most common, quality swaps next, level
// transitions rare.
func (w *worker) requestChurn() {
	var r request
	switch n := w.rng.intn(100); {
	case n < 50:
		r.kind, r.size = reqRebake, uint32(1+w.rng.intn(scene.MaxFontScale))
	case n < 85:
		r.kind = reqSwap
	default:
		r.kind = reqLevel
	}
	w.push(r)
}

// rng is xorshift64*: deterministic for a seed and allocation-free.
type rng struct{ s uint64 }

func newRNG(seed uint64) rng {
	if seed == 0 {
		seed = 0x2545f4914f6cdd1d
	}
	return rng{s: seed}
}

func (r *rng) next() uint64 {
	r.s ^= r.s >> 12
	r.s ^= r.s << 25
	r.s ^= r.s >> 27
	return r.s * 0x2545f4914f6cdd1d
}

// intn returns a value in [0, n); n must be positive.
func (r *rng) intn(n int) int {
	if n <= 1 {
		return 0
	}
	return int(r.next() % uint64(n))
}

func (r *rng) float32() float32 { return float32(r.next()>>40) / float32(1<<24) }
