package spritegl

import (
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/steadyframe/steadyframe/lifetime/frame"
)

// timerDepth is how many frames of queries a Timer keeps: a result is
// read that many frames after its query, when the GPU has long finished,
// so reading never stalls the CPU.
const timerDepth = 4

// Timer measures the GPU time of one span of each frame with
// GL_TIME_ELAPSED queries, and records it in a Histogram.
type Timer struct {
	queries [timerDepth]uint32
	issued  [timerDepth]bool
	n       int
	open    bool
	hist    frame.Histogram
	late    uint64 // results not available when read, dropped
	// ready and ns receive the query results: fields, not locals, since a
	// local's address handed to cgo escapes and would allocate a frame.
	ready int32
	ns    uint64
}

// NewTimer makes the queries. GL_TIME_ELAPSED is core since 3.3; a
// driver reports what its clock can resolve.
func NewTimer() *Timer {
	t := &Timer{}
	gl.GenQueries(timerDepth, &t.queries[0])
	return t
}

// Begin starts timing; End stops. One span a frame.
func (t *Timer) Begin() {
	k := t.n % timerDepth
	if t.issued[k] {
		t.collect(k)
	}
	gl.BeginQuery(gl.TIME_ELAPSED, t.queries[k])
	t.open = true
}

// End ends the span Begin started.
func (t *Timer) End() {
	if !t.open {
		return
	}
	gl.EndQuery(gl.TIME_ELAPSED)
	t.issued[t.n%timerDepth] = true
	t.open = false
	t.n++
}

func (t *Timer) collect(k int) {
	gl.GetQueryObjectiv(t.queries[k], gl.QUERY_RESULT_AVAILABLE, &t.ready)
	if t.ready == gl.FALSE {
		t.late++
	} else {
		gl.GetQueryObjectui64v(t.queries[k], gl.QUERY_RESULT, &t.ns)
		t.hist.Record(time.Duration(t.ns))
	}
	t.issued[k] = false
}

// Histogram returns the GPU times read so far.
func (t *Timer) Histogram() *frame.Histogram { return &t.hist }

// Late returns how many results were not ready when read and were dropped.
func (t *Timer) Late() uint64 { return t.late }

// Release deletes the queries.
func (t *Timer) Release() {
	if t.queries[0] != 0 {
		gl.DeleteQueries(timerDepth, &t.queries[0])
		t.queries = [timerDepth]uint32{}
	}
}
