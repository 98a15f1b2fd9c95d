package main

import (
	"fmt"
	"strconv"

	"github.com/steadyframe/steadyframe/internal/scene"
)

// requestKind says what a worker asks for. All but reqPlay travel to the
// render goroutine through its queue; plays go to the voices engine.
type requestKind uint8

const (
	reqUpload  requestKind = iota + 1 // per-frame upload traffic into one arena
	reqRebake                         // font atlas rebake at a new scale (a resize)
	reqSwap                           // quality swap of the 30 quality textures
	reqLevel                          // level transition: free and reload the level set
	reqSpawn                          // a new game object in the objects pool
	reqDespawn                        // the oldest game object destroyed
	reqPlay                           // a sound effect, through Engine.Play
	kindCount
)

// request is one fixed-size message from a worker to the render
// goroutine. It is copied by value through the queue; nothing in it points
// to worker memory, so a worker never shares a buffer with the renderer.
type request struct {
	kind  requestKind
	arena uint8  // reqUpload: renderer, sprites or particles
	size  uint32 // reqUpload: bytes; reqRebake: new font scale
	seed  uint64 // fill pattern for the uploaded bytes; a spawned object's motion
}

var kindNames = [kindCount]string{
	reqUpload: "upload", reqRebake: "font-rebake", reqSwap: "quality-swap", reqLevel: "level",
	reqSpawn: "spawn", reqDespawn: "despawn", reqPlay: "play",
}

// tally is what became of every request of one kind. Each request a
// worker issues ends in exactly one of the other four:
//
//   - Applied: the owner did it (an upload copied into its arena, a
//     rebake, swap or level transition made, an object spawned or
//     destroyed, a sound started by the mixer).
//   - Merged: it arrived while an earlier request of the same kind was
//     still waiting, and one application serves both (two rebakes in a
//     frame bake once, at the later scale; a level transition asked for
//     while one waits for its frames to retire).
//   - Refused: an owner turned it down: the render queue was full, the
//     upload arena or the objects pool was, there was no object to
//     despawn, the engine refused the play at the call (no voice, queue
//     full) or the mixer dropped it under steal (no voice to steal).
//   - Dropped: it was still waiting when the run ended: queued and never
//     drained, a churn event not yet applied, a play the final StopAll
//     cancelled.
type tally struct {
	Issued, Applied, Merged, Refused, Dropped uint64
}

// accounted is Applied + Merged + Refused + Dropped, which must equal
// Issued.
func (t tally) accounted() uint64 { return t.Applied + t.Merged + t.Refused + t.Dropped }

// ledger is a tally per kind, indexed by requestKind. A ledger belongs to
// one goroutine (a worker, or the render goroutine); the report sums them
// once every goroutine that wrote one has stopped.
type ledger [kindCount]tally

func (l *ledger) add(o *ledger) {
	for k := range l {
		l[k].Issued += o[k].Issued
		l[k].Applied += o[k].Applied
		l[k].Merged += o[k].Merged
		l[k].Refused += o[k].Refused
		l[k].Dropped += o[k].Dropped
	}
}

// check returns an error naming every kind whose terms do not sum to what
// was issued: a request the tool lost track of fails the run.
func (l *ledger) check() error {
	var bad []byte
	for k := reqUpload; k < kindCount; k++ {
		t := l[k]
		if t.accounted() == t.Issued {
			continue
		}
		if bad != nil {
			bad = append(bad, "; "...)
		}
		bad = fmt.Appendf(bad, "%s: %d issued but %d accounted (%s)", kindNames[k], t.Issued, t.accounted(), t.terms())
	}
	if bad == nil {
		return nil
	}
	return fmt.Errorf("stress: request accounting does not balance: %s", bad)
}

// terms spells out one kind's sum.
func (t tally) terms() string {
	b := strconv.AppendUint(nil, t.Applied, 10)
	b = append(b, " applied + "...)
	b = strconv.AppendUint(b, t.Merged, 10)
	b = append(b, " merged + "...)
	b = strconv.AppendUint(b, t.Refused, 10)
	b = append(b, " refused + "...)
	b = strconv.AppendUint(b, t.Dropped, 10)
	b = append(b, " dropped at exit"...)
	return string(b)
}

// churn holds the texture churn the workers asked for that the render
// goroutine has not applied yet. A game resizes, swaps quality and changes
// level one event at a time, and lets a level's freed slots retire before
// it loads the next, so the render goroutine applies at most one event of
// each kind per frame and one level transition per frames-in-flight
// window. That bounds the slots pending retirement well below the heap's
// 75% warning, whose log line would allocate.
//
// Every request is accounted in the render goroutine's ledger: a rebake
// that arrives while another waits replaces it (the earlier one is
// merged: one bake at the later scale serves both), as does a level
// transition asked for while one waits; quality swaps queue up and are
// applied one a frame; whatever still waits when the run ends is dropped
// at exit. A churn belongs to the render goroutine.
type churn struct {
	rebakeScale int // 0: none waiting
	swaps       int
	level       bool
	lastLevel   uint64 // frame of the last transition
}

// request takes one churn request from the queue.
func (c *churn) request(q request, l *ledger) {
	switch q.kind {
	case reqRebake:
		if c.rebakeScale != 0 {
			l[reqRebake].Merged++
		}
		c.rebakeScale = int(q.size)
	case reqSwap:
		c.swaps++
	case reqLevel:
		if c.level {
			l[reqLevel].Merged++
		}
		c.level = true
	}
}

// apply applies what is due in frame, whose clock keeps inFlight frames
// in flight, and returns the first error the textures reported.
func (c *churn) apply(tex *scene.Textures, frame uint64, inFlight int, l *ledger) error {
	var err error
	keep := func(e error) {
		if err == nil {
			err = e
		}
	}
	if c.rebakeScale != 0 {
		keep(tex.RebakeFont(c.rebakeScale))
		c.rebakeScale = 0
		l[reqRebake].Applied++
	}
	if c.swaps > 0 {
		keep(tex.SwapQuality())
		c.swaps--
		l[reqSwap].Applied++
	}
	if c.level && frame > c.lastLevel+uint64(inFlight) {
		keep(tex.NextLevel())
		c.level, c.lastLevel = false, frame
		l[reqLevel].Applied++
	}
	return err
}

// abandon counts what still waits when the run ends as dropped at exit.
func (c *churn) abandon(l *ledger) {
	if c.rebakeScale != 0 {
		l[reqRebake].Dropped++
	}
	l[reqSwap].Dropped += uint64(c.swaps)
	if c.level {
		l[reqLevel].Dropped++
	}
	*c = churn{lastLevel: c.lastLevel}
}
