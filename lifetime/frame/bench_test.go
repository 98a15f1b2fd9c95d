package frame

import (
	"testing"
)

func BenchmarkBeginEndFrame(b *testing.B) {
	fr := newClock(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fr.BeginFrame(); err != nil {
			b.Fatal(err)
		}
		if err := fr.EndFrame(); err != nil {
			b.Fatal(err)
		}
	}
}

// benchScheduleRun releases 4 items per frame through Deferred: each
// op is a frame on a clock with CPU fences (BeginFrame, which runs the
// items of completed frames, 4 Schedules, EndFrame), so it includes the
// clock's own cost (BenchmarkBeginEndFrame).
func benchScheduleRun(b *testing.B) {
	fr := newClock(b)
	dq := deferredOn(b, fr, 64)
	rel := &countReleaser{}
	b.ReportAllocs()
	for b.Loop() {
		scheduleFrame(b, fr, dq, rel)
	}
}

// closureQueue is what a user would otherwise write: a slice of pending
// closures per frame, appended to and resliced.
type closureQueue struct {
	items []closureItem
}

type closureItem struct {
	serial uint64
	fn     func()
}

func (q *closureQueue) schedule(serial uint64, fn func()) {
	q.items = append(q.items, closureItem{serial, fn})
}

func (q *closureQueue) run(completed uint64) {
	i := 0
	for ; i < len(q.items) && q.items[i].serial <= completed; i++ {
		q.items[i].fn()
	}
	q.items = append(q.items[:0], q.items[i:]...)
}

// benchScheduleRunClosures is the comparison for BenchmarkScheduleRun,
// on the same clock: the closures capture their argument, so each
// schedule allocates, and the user runs the queue after BeginFrame.
func benchScheduleRunClosures(b *testing.B) {
	fr := newClock(b)
	var q closureQueue
	rel := &countReleaser{}
	b.ReportAllocs()
	for b.Loop() {
		serial, err := fr.BeginFrame()
		if err != nil {
			b.Fatal(err)
		}
		q.run(fr.Completed())
		for k := uint64(0); k < 4; k++ {
			q.schedule(serial, func() { rel.Release(k) })
		}
		if err := fr.EndFrame(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScheduleRun is a frame with 4 deferred releases: through
// Deferred, and through the slice of closures a user would otherwise keep.
func BenchmarkScheduleRun(b *testing.B) {
	b.Run("impl=ours", benchScheduleRun)
	b.Run("impl=closures", benchScheduleRunClosures)
}
