package upload

// Flusher is implemented by a Backend whose mapping is not the device's
// memory: one that hands out CPU memory and copies written ranges to the
// device when asked (upload/glbuf on a context without
// GL_ARB_buffer_storage maps each range with glMapBufferRange). A
// persistent, coherent mapping needs no flush and does not implement it.
//
// A Flusher belongs to the goroutine that owns its Set.
type Flusher interface {
	// Flush makes bytes [offset, offset+size) of the mapping visible to
	// device commands issued after it. The Set calls it only with ranges
	// of the open frame's region, which the clock has fenced, each byte at
	// most once a frame, so the backend may write them unsynchronized.
	// It must not allocate.
	Flush(offset, size int) error
}

// Flush makes what the arena's views received since its last Flush in
// this frame visible to the device commands issued after it. Call it
// after writing views and before the draws or copies that read them: on
// a persistently mapped backend it costs a comparison, on a Flusher (GL
// without GL_ARB_buffer_storage) it copies those bytes into the buffer.
// Write a view only before the Flush that follows its Alloc: bytes
// written after it reach the device only if a later Flush covers them,
// which it does not. Flush does not allocate; between frames it does
// nothing.
func (a *Arena) Flush() error {
	if a.next <= a.flushed {
		return nil
	}
	off, n := a.flushed, a.next-a.flushed
	a.flushed = a.next
	if f := a.set.flusher; f != nil {
		return f.Flush(off, n)
	}
	return nil
}

// Flush flushes every arena (Arena.Flush) and returns the first error.
func (s *Set) Flush() error {
	var first error
	for i := range s.arenas {
		if err := s.arenas[i].Flush(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
