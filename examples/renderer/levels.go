package main

import (
	"fmt"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"

	"github.com/steadyframe/steadyframe/lifetime/frame"
)

// levels are the per-level uniform buffers, each holding its level's tint,
// written with glBufferSubData when the level loads (OpenGL 3.3 and
// macOS's 4.1 have no persistent mapping). They are
// recycled: the buffer of the level left behind goes back to the free
// list through frame.Deferred, which runs the release only once every
// frame that drew with it has completed. Rewriting it sooner would
// change the colour of frames the GPU has not finished.
type levels struct {
	release *frame.Deferred
	bufs    []levelBuffer // every buffer made; the Deferred's argument indexes it
	free    []int         // buffers no frame in flight reads
	current int           // the level's buffer, -1 before the first
	loaded  int
}

type levelBuffer struct {
	name uint32
	tint [4]float32 // what load last wrote; kept here so cgo sees no local
}

func newLevels(clock *frame.Clock) (*levels, error) {
	// One level change per frame at most, three frames in flight: a few
	// entries are plenty. A full queue would refuse, never grow.
	release, err := frame.NewDeferred(clock, 4)
	if err != nil {
		return nil, err
	}
	return &levels{release: release, current: -1}, nil
}

// Release is the Deferred's callback: buffer i is no longer read by any
// frame in flight.
func (l *levels) Release(i uint64) { l.free = append(l.free, int(i)) }

// load makes level n current: it retires the old level's buffer and
// writes the new tint into a free buffer, or a new one. Writing a free
// buffer is safe because the Deferred returned it
// only once no frame in flight could read it.
func (l *levels) load(n int) error {
	if err := l.retire(); err != nil {
		return err
	}
	i := len(l.bufs)
	if k := len(l.free); k > 0 {
		i, l.free = l.free[k-1], l.free[:k-1]
	} else {
		b, err := newLevelBuffer()
		if err != nil {
			return err
		}
		l.bufs = append(l.bufs, b)
	}
	t := float32(n%3) * 0.25
	b := &l.bufs[i]
	b.tint = [4]float32{1 - t, 0.8 + t/2, 0.7 + t, 1}
	gl.BindBuffer(gl.UNIFORM_BUFFER, b.name)
	gl.BufferSubData(gl.UNIFORM_BUFFER, 0, 16, unsafe.Pointer(&b.tint[0]))
	gl.BindBuffer(gl.UNIFORM_BUFFER, 0)
	l.current = i
	l.loaded++
	return nil
}

// retire hands the current level's buffer to the Deferred.
func (l *levels) retire() error {
	if l.current < 0 {
		return nil
	}
	if err := l.release.Schedule(l, uint64(l.current)); err != nil {
		return err
	}
	l.current = -1
	return nil
}

func (l *levels) buffer() uint32 { return l.bufs[l.current].name }

func newLevelBuffer() (levelBuffer, error) {
	var b levelBuffer
	gl.GenBuffers(1, &b.name)
	gl.BindBuffer(gl.UNIFORM_BUFFER, b.name)
	gl.BufferData(gl.UNIFORM_BUFFER, 16, nil, gl.STATIC_DRAW)
	gl.BindBuffer(gl.UNIFORM_BUFFER, 0)
	if e := gl.GetError(); e != gl.NO_ERROR {
		gl.DeleteBuffers(1, &b.name)
		return b, fmt.Errorf("making a level buffer: GL error 0x%x", e)
	}
	return b, nil
}

// close stops the Deferred (it refuses while releases are pending, so run
// it after the clock's drain) and deletes every level buffer.
func (l *levels) close() error {
	if err := l.release.Close(); err != nil {
		return err
	}
	for _, b := range l.bufs {
		gl.DeleteBuffers(1, &b.name)
	}
	l.bufs, l.free = nil, nil
	return nil
}
