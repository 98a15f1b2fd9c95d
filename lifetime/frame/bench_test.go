package frame

import (
	"testing"
)

func BenchmarkBeginEndFrame(b *testing.B) {
	fr, err := NewClock(ClockDesc{})
	if err != nil {
		b.Fatal(err)
	}
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

// BenchmarkScheduleRun releases 4 items per frame through Deferred.
func BenchmarkScheduleRun(b *testing.B) {
	dq, err := NewDeferred(64)
	if err != nil {
		b.Fatal(err)
	}
	rel := &countReleaser{}
	var serial uint64
	b.ReportAllocs()
	for b.Loop() {
		serial++
		for k := uint64(0); k < 4; k++ {
			if err := dq.Schedule(serial, rel, k); err != nil {
				b.Fatal(err)
			}
		}
		dq.Run(serial - 1)
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

// BenchmarkScheduleRunClosures is the comparison for BenchmarkScheduleRun:
// the closures capture their argument, so each schedule allocates.
func BenchmarkScheduleRunClosures(b *testing.B) {
	var q closureQueue
	rel := &countReleaser{}
	var serial uint64
	b.ReportAllocs()
	for b.Loop() {
		serial++
		for k := uint64(0); k < 4; k++ {
			q.schedule(serial, func() { rel.Release(k) })
		}
		q.run(serial - 1)
	}
}
