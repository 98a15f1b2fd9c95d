package main

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/steadyframe/steadyframe/lifetime/syncs"
)

// requestKind says what a worker asks of the render goroutine.
type requestKind uint8

const (
	reqUpload requestKind = iota + 1 // per-frame upload traffic into one arena
	reqRebake                        // font atlas rebake at a new scale (a resize)
	reqSwap                          // quality swap of the 30 quality textures
	reqLevel                         // level transition: free and reload the level set
)

// request is one fixed-size message from a worker to the render
// goroutine. It is copied by value through the queue; nothing in it points
// to worker memory, so a worker never shares a buffer with the renderer.
type request struct {
	kind   requestKind
	arena  uint8  // reqUpload: renderer, sprites or particles
	worker uint8  // who asked (the queue tests check order per producer)
	size   uint32 // reqUpload: bytes; reqRebake: new font scale
	seed   uint64 // fill pattern for the uploaded bytes
}

// player starts a sound from any goroutine without allocating; the audio
// owner behind it is reached only through its own bounded command queue.
// It returns errQueueFull or errNoVoice (wrapped or not) when the owner
// refuses.
type player interface {
	Play(sound int, volume, pan float32) error
	Sounds() int
}

// Outcomes a player reports through errors.Is.
var (
	errQueueFull = errors.New("stress: queue full")
	errNoVoice   = errors.New("stress: no voice")
)

// workerPoll is how often an idle worker looks for the next frame.
const workerPoll = 250 * time.Microsecond

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
}

// worker is one simulated game worker (an AI thread in the reference
// engine). Each frame it issues its share of upload traffic and, at the
// configured rates, play requests and texture churn. Its counters are
// written only by its own goroutine and read after it has exited (the
// WaitGroup orders them).
type worker struct {
	id     int
	rng    rng
	clock  *clock
	reqs   *syncs.Queue[request]
	player player
	cfg    *config

	last      time.Time
	playDebt  float64 // play requests owed, fractional
	churnDebt float64

	// Refused pushes are counted by the queue (Full), refused plays by
	// the engine (Refusals, QueueFull); the report reads those.
	plays, churn uint64
	// playErrs counts plays that failed for any other reason, a bug the
	// run fails on; playErr is the first.
	playErrs uint64
	playErr  error
}

func newWorker(id int, cfg *config, clk *clock, reqs *syncs.Queue[request], p player) *worker {
	return &worker{
		id:     id,
		rng:    newRNG(uint64(cfg.seed)*0x9e3779b97f4a7c15 + uint64(id)),
		clock:  clk,
		reqs:   reqs,
		player: p,
		cfg:    cfg,
	}
}

// run ticks once per new frame serial until the clock stops. It
// allocates nothing per tick: the queue and the player are preallocated.
func (w *worker) run(wg *sync.WaitGroup) {
	defer wg.Done()
	// The first time.Sleep of a goroutine allocates its runtime timer:
	// take that now, long before the guard arms.
	time.Sleep(time.Nanosecond)
	var seen uint64
	for !w.clock.stop.Load() {
		serial := w.clock.serial.Load()
		if serial == seen {
			time.Sleep(workerPoll)
			continue
		}
		seen = serial
		w.tick(serial)
	}
}

func (w *worker) tick(serial uint64) {
	now := time.Now()
	dt := 0.0
	if !w.last.IsZero() {
		dt = now.Sub(w.last).Seconds()
	}
	w.last = now
	cfg := w.cfg

	for i := 0; i < cfg.uploadsPer; i++ {
		r := request{kind: reqUpload, arena: uint8((w.id + i) % arenaCount), worker: uint8(w.id),
			size: uint32(cfg.uploadBytes/2 + w.rng.intn(cfg.uploadBytes/2+1)), seed: serial<<8 ^ w.rng.next()}
		if r.size == 0 {
			r.size = 1
		}
		w.reqs.Push(r)
	}

	w.playDebt += cfg.playRate * dt
	for ; w.playDebt >= 1; w.playDebt-- {
		w.play()
	}

	w.churnDebt += cfg.churnRate / float64(cfg.workers) * dt
	for ; w.churnDebt >= 1; w.churnDebt-- {
		w.requestChurn()
	}
}

func (w *worker) play() {
	if w.player == nil || w.player.Sounds() == 0 {
		return
	}
	sound := w.rng.intn(w.player.Sounds())
	vol := 0.2 + 0.6*w.rng.float32()
	pan := 2*w.rng.float32() - 1
	err := w.player.Play(sound, vol, pan)
	switch {
	case err == nil:
		w.plays++
	case errors.Is(err, errQueueFull), errors.Is(err, errNoVoice):
		// A refusal under load, counted by the engine.
	default:
		if w.playErrs == 0 {
			w.playErr = err
		}
		w.playErrs++
	}
}

// requestChurn picks a churn event with the mix the reference reports:
// rebakes on resize are the most common, quality swaps next, level
// transitions rare.
func (w *worker) requestChurn() {
	r := request{worker: uint8(w.id)}
	switch n := w.rng.intn(100); {
	case n < 50:
		r.kind, r.size = reqRebake, uint32(1+w.rng.intn(4))
	case n < 85:
		r.kind = reqSwap
	default:
		r.kind = reqLevel
	}
	if w.reqs.Push(r) {
		w.churn++
	}
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
