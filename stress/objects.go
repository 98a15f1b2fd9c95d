package main

import (
	"fmt"

	"github.com/steadyframe/steadyframe/internal/quads"
	"github.com/steadyframe/steadyframe/pools"
)

// object is one game object the workers spawned: a small square drifting
// across the playfield, wrapping around its edges.
type object struct {
	x, y, vx, vy float32
	rgba         uint32
}

// drawItem is one object visible this frame, in the frame's arena.
type drawItem struct {
	x, y float32
	rgba uint32
}

const (
	// objectBudget is the objects pool's budget: every worker's share at
	// the most workers, so only a bug can exhaust it.
	objectBudget = maxWorkers * objectsPerWorker
	objectSize   = 6
	// objectMargin is how far past the playfield's edges an object
	// drifts before it wraps, off screen and culled meanwhile.
	objectMargin = 64
)

// objects are the game's objects, spawned and despawned at the workers'
// request: a pools.Pool holds them (a spawn is Create, a despawn Destroy
// of the oldest, so slots and generations churn), a ring of their handles
// keeps them oldest first, and each frame a pools.Arena collects the
// visible ones for drawing and is Reset at the next frame. Nothing here
// allocates after construction, so the steady-frame gate covers pools too.
//
// objects belong to the render goroutine; workers reach them only through
// the request queue.
type objects struct {
	pool    *pools.Pool[object]
	ring    []pools.Handle[object] // live handles, oldest at head
	head, n int
	visible *pools.Arena[drawItem]
	batch   *quads.Writer
}

func newObjects() (*objects, error) {
	pool, err := pools.NewPool[object](objectBudget)
	if err != nil {
		return nil, fmt.Errorf("stress: objects pool: %w", err)
	}
	visible, err := pools.NewArena[drawItem](objectBudget)
	if err != nil {
		return nil, fmt.Errorf("stress: objects arena: %w", err)
	}
	batch, err := quads.NewWriter(1)
	if err != nil {
		return nil, err
	}
	return &objects{pool: pool, ring: make([]pools.Handle[object], objectBudget), visible: visible, batch: batch}, nil
}

// spawn creates an object for q somewhere on a w×h playfield. A full
// pool refuses.
func (o *objects) spawn(q request, w, h float32, l *ledger) {
	hd, obj, err := o.pool.Create()
	if err != nil {
		// Create fails only when the budget is exhausted.
		l[reqSpawn].Refused++
		return
	}
	r := newRNG(q.seed)
	*obj = object{
		x: r.float32() * w, y: r.float32() * h,
		vx: (2*r.float32() - 1) * 120, vy: (2*r.float32() - 1) * 120,
		rgba: uint32(r.next())&0xffffff00 | 0xc0,
	}
	o.ring[(o.head+o.n)%len(o.ring)] = hd
	o.n++
	l[reqSpawn].Applied++
}

// despawn destroys the oldest object; with none alive it refuses. An
// error means the ring and the pool disagree, a bug.
func (o *objects) despawn(l *ledger) error {
	if o.n == 0 {
		l[reqDespawn].Refused++
		return nil
	}
	hd := o.ring[o.head]
	o.ring[o.head] = pools.Handle[object]{}
	o.head = (o.head + 1) % len(o.ring)
	o.n--
	if err := o.pool.Destroy(hd); err != nil {
		return fmt.Errorf("stress: despawn %v: %w", hd, err)
	}
	l[reqDespawn].Applied++
	return nil
}

// step starts a frame: it resets the frame's arena, moves every object by
// dt on a w×h playfield and collects the visible ones.
func (o *objects) step(dt, w, h float32) error {
	o.visible.Reset()
	for i := 0; i < o.n; i++ {
		hd := o.ring[(o.head+i)%len(o.ring)]
		obj := o.pool.Get(hd)
		if obj == nil {
			return fmt.Errorf("stress: object %v in the ring is not live", hd)
		}
		obj.x = wrap(obj.x+obj.vx*dt, w)
		obj.y = wrap(obj.y+obj.vy*dt, h)
		if obj.x < -objectSize || obj.x > w || obj.y < -objectSize || obj.y > h {
			continue
		}
		_, it, err := o.visible.Alloc()
		if err != nil {
			return fmt.Errorf("stress: objects arena: %w", err)
		}
		*it = drawItem{x: obj.x, y: obj.y, rgba: obj.rgba}
	}
	return nil
}

// wrap keeps v within the playfield and its margins.
func wrap(v, size float32) float32 {
	switch {
	case v < -objectMargin:
		return v + size + 2*objectMargin
	case v > size+objectMargin:
		return v - size - 2*objectMargin
	}
	return v
}

// write puts the visible objects' quads into view, textured with white
// (the white texel's GL name, 0 headless), and returns the draw runs.
func (o *objects) write(view []byte, white uint32) ([]quads.Run, error) {
	if err := o.batch.Reset(view); err != nil {
		return nil, err
	}
	for i := range o.visible.Len() {
		it := o.visible.At(i)
		o.batch.Fill(white, it.x, it.y, it.x+objectSize, it.y+objectSize, it.rgba)
	}
	return o.batch.Runs(), nil
}

// len returns the objects alive.
func (o *objects) len() int { return o.n }
