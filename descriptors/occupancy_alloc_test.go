package descriptors_test

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/internal/testenv"
)

// recordKeys is the fixed set of per-record attributes, in order.
var recordKeys = [...]string{"pct", "live", "pending", "peak", "high_water"}

// logCounts is what a countingHandler saw.
type logCounts struct {
	warn, info int
	bound      string  // attributes bound through WithAttrs, as key=value
	bad        int     // records whose attributes were not recordKeys
	live       int64   // "live" of the last record
	pct        float64 // "pct" of the last record
}

// countingHandler is a slog.Handler that allocates nothing: it reads
// every attribute of every record, checks them against recordKeys and
// keeps only counts and numbers, never the record or its attributes, so
// AllocsPerRun sees only what the heap's side of the logging allocates.
type countingHandler struct {
	min slog.Level
	n   *logCounts
}

func (h *countingHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= h.min }

func (h *countingHandler) Handle(_ context.Context, r slog.Record) error {
	switch r.Level {
	case slog.LevelWarn:
		h.n.warn++
	case slog.LevelInfo:
		h.n.info++
	}
	i := 0
	r.Attrs(func(a slog.Attr) bool {
		if i >= len(recordKeys) || a.Key != recordKeys[i] {
			h.n.bad++
			return false
		}
		switch a.Key {
		case "live":
			h.n.live = a.Value.Int64()
		case "pct":
			h.n.pct = a.Value.Float64()
		}
		i++
		return true
	})
	if i != len(recordKeys) || r.NumAttrs() != len(recordKeys) {
		h.n.bad++
	}
	return nil
}

// WithAttrs runs once, in NewHeap; it may allocate.
func (h *countingHandler) WithAttrs(as []slog.Attr) slog.Handler {
	for _, a := range as {
		h.n.bound += a.String() + " "
	}
	return h
}

func (h *countingHandler) WithGroup(string) slog.Handler { return h }

// occupancyRig is a heap of 100 slots, 60 live, whose periodic line is
// due every frame, and a frame that crosses 75% and 90% on the way up to
// 90 and falls back to 60 (re-arming both levels) when the next frame
// retires the batch.
type occupancyRig struct {
	*rig
	now   time.Time
	batch []descriptors.Handle
}

func newOccupancyRig(t testing.TB, h slog.Handler) *occupancyRig {
	o := &occupancyRig{now: time.Unix(1000, 0), batch: make([]descriptors.Handle, 30)}
	o.rig = newRig(t, descriptors.HeapDesc{Capacity: 100, Logger: slog.New(h), LogInterval: time.Second,
		Now: func() time.Time { return o.now }})
	o.begin()
	o.alloc(60)
	o.end()
	o.gpuCatchUp()
	return o
}

func (o *occupancyRig) frame() {
	o.now = o.now.Add(time.Second)
	// Retires last frame's batch (back to 60%), then the periodic line.
	if _, err := o.clock.BeginFrame(); err != nil {
		o.t.Fatal(err)
	}
	if err := o.heap.AllocN(o.batch); err != nil {
		o.t.Fatal(err) // 75% and 90% crossed
	}
	if err := o.heap.FreeN(o.batch); err != nil {
		o.t.Fatal(err)
	}
	if err := o.clock.EndFrame(); err != nil {
		o.t.Fatal(err)
	}
	o.gpuCatchUp()
}

// The periodic line and both crossing warnings, with their re-arming,
// allocate nothing on the heap's side, also after a GC has emptied every
// pool; a level the Logger drops costs nothing either.
func TestOccupancyLoggingDoesNotAllocate(t *testing.T) {
	const runs = 200
	n := &logCounts{}
	o := newOccupancyRig(t, &countingHandler{min: slog.LevelInfo, n: n})
	if want := "heap=textures capacity=100 "; n.bound != want {
		t.Fatalf("bound attributes %q, want %q", n.bound, want)
	}
	for round, gc := range []bool{false, true} {
		if gc {
			runtime.GC()
		}
		warn, info := n.warn, n.info
		testenv.NoAllocs(t, fmt.Sprintf("round %d (after GC: %v): a logging frame", round, gc), runs, o.frame)
		// NoAllocs calls the frame once more to warm up.
		if got := n.warn - warn; got != 2*(runs+1) {
			t.Errorf("round %d: %d warnings in %d frames, want two a frame", round, got, runs+1)
		}
		if got := n.info - info; got != runs+1 {
			t.Errorf("round %d: %d periodic lines in %d frames, want one a frame", round, got, runs+1)
		}
	}
	if n.bad != 0 {
		t.Errorf("%d records without exactly the attributes %v", n.bad, recordKeys)
	}
	if n.live != 90 || n.pct != 90 {
		t.Errorf("last record (the 90%% warning): live %d pct %v, want 90 and 90", n.live, n.pct)
	}
	st := o.heap.Stats()
	if st.Warnings != uint64(n.warn) || st.LogLines != uint64(n.info) {
		t.Errorf("Stats: %d warnings %d lines; handler saw %d and %d", st.Warnings, st.LogLines, n.warn, n.info)
	}

	quietN := &logCounts{}
	q := newOccupancyRig(t, &countingHandler{min: slog.LevelError, n: quietN})
	testenv.NoAllocs(t, "a frame with the levels disabled", runs, q.frame)
	if quietN.warn+quietN.info != 0 {
		t.Errorf("disabled levels reached the handler: %+v", quietN)
	}
	// The set-up frame's line fell due too.
	if st := q.heap.Stats(); st.Warnings != 2*(runs+1) || st.LogLines != runs+2 {
		t.Errorf("with the levels disabled Stats counts %d warnings %d lines, want %d and %d",
			st.Warnings, st.LogLines, 2*(runs+1), runs+2)
	}
}

// legacyLine is how String formatted the line with fmt; Append must
// write the same bytes.
func legacyLine(s descriptors.Stats) string {
	const width = 20
	filled := s.InUse() * width / max(s.Capacity, 1)
	bar := strings.Repeat("#", filled) + strings.Repeat(".", width-filled)
	w := len(fmt.Sprint(s.Capacity))
	return fmt.Sprintf("%-9s %*d/%d (%5.1f%%) [%s] live %*d pending %*d peak %*d high-water %*d recycled %d",
		s.Name, w, s.InUse(), s.Capacity, s.Percent(), bar, w, s.Live, w, s.Pending, w, s.Peak, w, s.HighWater, s.Recycled)
}

func TestStatsAppendMatchesStringWithoutAllocating(t *testing.T) {
	for _, s := range []descriptors.Stats{
		{Name: "textures", Capacity: 1024, Live: 239, Peak: 275, HighWater: 275, Recycled: 43},
		{Name: "textures", Capacity: 1024, Live: 1000, Pending: 24, Peak: 1024, HighWater: 1024, Recycled: 5},
		{Name: "ui", Capacity: 1, Live: 1, Peak: 1, HighWater: 1},
		{Name: "a-long-heap-name", Capacity: 100, Live: 33, Pending: 1, Peak: 50, HighWater: 60, Recycled: 1 << 40},
		{Name: "größe", Capacity: 1 << 24, Live: 12345, Pending: 678, Peak: 99999, HighWater: 100000},
		{Name: "textures", Capacity: 3, Live: 2, Peak: 2, HighWater: 2},
	} {
		want := legacyLine(s)
		if got := s.String(); got != want {
			t.Errorf("String\n%q\nwant\n%q", got, want)
		}
		buf := make([]byte, 0, 256)
		if got := string(s.Append(buf[:0])); got != want {
			t.Errorf("Append\n%q\nwant\n%q", got, want)
		}
		if testenv.Race {
			continue
		}
		if allocs := testing.AllocsPerRun(100, func() { buf = s.Append(buf[:0]) }); allocs != 0 {
			t.Errorf("Append into a buffer with room: %v allocations, want 0", allocs)
		}
	}
}

// BenchmarkOccupancyLine measures a frame that logs the periodic line and
// both crossing warnings through a non-allocating handler, against the
// same three records written the way slog is usually called
// (Logger.Info/Warn with key-value pairs and a formatted message).
func BenchmarkOccupancyLine(b *testing.B) {
	b.Run("impl=ours", func(b *testing.B) {
		o := newOccupancyRig(b, &countingHandler{min: slog.LevelInfo, n: &logCounts{}})
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			o.frame()
		}
	})
	b.Run("impl=slog-key-values", func(b *testing.B) {
		log := slog.New(&anyHandler{})
		s := descriptors.Stats{Name: "textures", Capacity: 100, Live: 60, Peak: 90, HighWater: 90}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			s.Frame = uint64(i)
			log.Info("descriptors: occupancy", "heap", s.Name, "in_use", fmt.Sprintf("%d/%d", s.InUse(), s.Capacity),
				"live", s.Live, "pending", s.Pending, "peak", s.Peak, "high_water", s.HighWater, "frame", s.Frame)
			for _, lvl := range []int{75, 90} {
				log.Warn(fmt.Sprintf("descriptors: heap %q crossed %d%% occupancy", s.Name, lvl), "heap", s.Name,
					"live", s.Live, "pending", s.Pending, "peak", s.Peak, "high_water", s.HighWater, "frame", s.Frame)
			}
		}
	})
}

// anyHandler accepts any record and reads nothing: the comparison pays
// only for building the records.
type anyHandler struct{}

func (anyHandler) Enabled(context.Context, slog.Level) bool  { return true }
func (anyHandler) Handle(context.Context, slog.Record) error { return nil }
func (h anyHandler) WithAttrs([]slog.Attr) slog.Handler      { return h }
func (h anyHandler) WithGroup(string) slog.Handler           { return h }

// BenchmarkStatsLine measures drawing the Stats line every frame: Append
// into a kept buffer against String.
func BenchmarkStatsLine(b *testing.B) {
	s := descriptors.Stats{Name: "textures", Capacity: 1024, Live: 239, Peak: 275, HighWater: 275, Recycled: 43}
	b.Run("impl=ours", func(b *testing.B) {
		buf := make([]byte, 0, 256)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			buf = s.Append(buf[:0])
		}
		sinkInt = len(buf)
	})
	b.Run("impl=string", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			sinkInt = len(s.String())
		}
	})
}
