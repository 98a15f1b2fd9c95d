package descriptors_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/descriptors"
)

func countLines(buf *bytes.Buffer, substr string) int {
	n := 0
	for _, line := range strings.Split(buf.String(), "\n") {
		if strings.Contains(line, substr) {
			n++
		}
	}
	return n
}

// Warnings fire once per upward crossing of 75% and 90%, and re-arm only
// after occupancy falls Hysteresis points below the level.
func TestOccupancyWarningsHaveHysteresis(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	r := newRig(t, descriptors.HeapDesc{Capacity: 100, Logger: log})
	r.begin()
	hs := r.alloc(74)
	if buf.Len() != 0 {
		t.Fatalf("warned below 75%%: %s", buf.String())
	}
	more := r.alloc(1) // 75: crosses
	if got := countLines(&buf, "crossed 75% occupancy"); got != 1 {
		t.Fatalf("at 75%%: %d warnings, want 1:\n%s", got, buf.String())
	}
	for _, want := range []string{"level=WARN", "heap=textures", "capacity=100", "pct=75 ", "live=75", "pending=0", "peak=75", "high_water=75"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("warning lacks %q: %s", want, buf.String())
		}
	}
	// Hovering around the level: free and re-take one slot many times.
	for i := 0; i < 20; i++ {
		if err := r.heap.Free(more[0]); err != nil {
			t.Fatal(err)
		}
		r.end()
		r.drain()
		r.begin()
		more = r.alloc(1)
	}
	if got := countLines(&buf, "crossed 75%"); got != 1 {
		t.Errorf("hovering at 75%%: %d warnings, want still 1", got)
	}
	top := r.alloc(15) // 90
	if got := countLines(&buf, "crossed 90% occupancy"); got != 1 {
		t.Errorf("at 90%%: %d warnings, want 1", got)
	}
	// Fall to 71% (above 70): 75 stays disarmed; then to 69%: re-armed.
	if err := r.heap.FreeN(append(top, hs[:4]...)); err != nil {
		t.Fatal(err)
	}
	r.end()
	r.drain()
	r.begin()
	r.alloc(4)
	if got := countLines(&buf, "crossed 75%"); got != 1 {
		t.Errorf("back to 75%% without falling below 70%%: %d warnings, want 1", got)
	}
	if err := r.heap.FreeN(hs[4:10]); err != nil {
		t.Fatal(err)
	}
	r.end()
	r.drain()
	r.begin()
	r.alloc(6)
	if got := countLines(&buf, "crossed 75%"); got != 2 {
		t.Errorf("after falling to 69%% and rising again: %d warnings, want 2", got)
	}
	if st := r.heap.Stats(); st.Warnings != 3 {
		t.Errorf("Stats.Warnings %d, want 3", st.Warnings)
	}
	r.end()
}

// The periodic line is off by default and, when on, appears once per
// interval of the injected clock, with the same fields in the same order.
func TestPeriodicOccupancyLine(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	r := newRig(t, descriptors.HeapDesc{Capacity: 1024, Logger: log})
	for i := 0; i < 10; i++ {
		r.begin()
		r.end()
		r.gpuCatchUp()
	}
	if buf.Len() != 0 {
		t.Fatalf("logged with LogInterval 0: %s", buf.String())
	}

	now := time.Unix(1000, 0)
	r = newRig(t, descriptors.HeapDesc{Capacity: 1024, Logger: log, LogInterval: time.Second,
		Now: func() time.Time { return now }})
	r.begin()
	r.alloc(239)
	r.end()
	for i := 0; i < 40; i++ { // 40 frames at 100 ms: 4 seconds
		r.gpuCatchUp()
		r.begin()
		r.end()
		now = now.Add(100 * time.Millisecond)
	}
	lines := countLines(&buf, `msg="descriptors: occupancy"`)
	if lines != 4 && lines != 5 {
		t.Errorf("%d occupancy lines in 4 s at 1/s, want 4 or 5:\n%s", lines, buf.String())
	}
	last := strings.Split(strings.TrimSpace(buf.String()), "\n")
	want := "level=INFO msg=\"descriptors: occupancy\" heap=textures capacity=1024 pct=23.3 live=239 pending=0 peak=239 high_water=239\n"
	if l := last[len(last)-1] + "\n"; !strings.Contains(l, want) {
		t.Errorf("line\n%s\nwant it to contain\n%s", l, want)
	}
	if st := r.heap.Stats(); st.LogLines != uint64(lines) {
		t.Errorf("Stats.LogLines %d, want %d", st.LogLines, lines)
	}
}

func TestStatsStringIsFixedWidth(t *testing.T) {
	a := descriptors.Stats{Name: "textures", Capacity: 1024, Live: 7, Peak: 9, HighWater: 9}
	b := descriptors.Stats{Name: "textures", Capacity: 1024, Live: 1000, Pending: 24, Peak: 1024, HighWater: 1024, Recycled: 5}
	if len(a.String()) != len(b.String()) {
		t.Errorf("lines differ in width:\n%s\n%s", a, b)
	}
	if !strings.Contains(b.String(), "1024/1024 (100.0%) [####################]") {
		t.Errorf("full heap line: %s", b)
	}
	if !strings.Contains(a.String(), "   7/1024 (  0.7%) [....................]") {
		t.Errorf("near-empty heap line: %s", a)
	}
}
