package scene

// CloseFirst has the teardown's descriptors-close stage (CloseHeap) run
// f before it closes the heap. It is for an owner a command adds beside
// the scene's, such as a texture array following the same clock. Such an
// owner must close after the frames drain and before the clock does. f runs once; if it
// fails, the heap is not closed and the stage reports f's error. Call it
// at load time on the render goroutine.
func (r *Render) CloseFirst(f func() error) {
	next := r.closeHeap
	r.closeHeap = func() error {
		if err := f(); err != nil {
			return err
		}
		return next()
	}
}
