package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"
	"time"
)

func TestSeriesHalvesKeepingPeaks(t *testing.T) {
	s := newSeries(8)
	for i := 0; i < 100; i++ {
		s.Offer(sample{At: time.Duration(i) * time.Second, Live: i % 10, Pending: 100 - i})
	}
	got := s.Samples()
	if len(got) > 8 || len(got) < 4 {
		t.Fatalf("%d samples kept in a buffer of 8", len(got))
	}
	peak := 0
	for _, p := range got {
		peak = max(peak, p.Live)
	}
	if peak != 9 {
		t.Errorf("the merged series lost the peak: max live %d, want 9", peak)
	}
	for i := 1; i < len(got); i++ {
		if got[i].At <= got[i-1].At {
			t.Errorf("samples out of order: %v after %v", got[i].At, got[i-1].At)
		}
	}
}

func TestPlainProgressLine(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, 400, 0, time.Second)
	if p.term {
		t.Fatal("a buffer is not a terminal, but the terminal line was chosen")
	}
	if p.Due(500*time.Millisecond) || !p.Due(time.Second) {
		t.Error("Due ignores the interval")
	}
	p.Update(time.Second, 100, 239, 275, true)
	if got, want := b.String(), "progress 25% frames=100 elapsed=1.0s descriptors live=239 peak=275 guard=ok\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestPlotIsWellFormedSVG(t *testing.T) {
	var samples []sample
	for i := 0; i < 50; i++ {
		samples = append(samples, sample{At: time.Duration(i) * 100 * time.Millisecond, Live: 239, Pending: i % 7,
			HighWater: 300, ArenaUsed: [arenaCount]int{i << 10, 32000, 100}, FrameTime: time.Duration(i) * time.Millisecond,
			Warnings: uint64(i / 20), Refusals: uint64(i / 10)})
	}
	phases := []scenarioSection{{Name: "steady", Start: 0.5, End: 1.5, Passed: true}, {Name: "leak", Start: 1.5, End: 3, Passed: false}}
	var b bytes.Buffer
	if err := writePlot(&b, samples, 1024, [arenaCount]int{4 << 20, 4 << 20, 1 << 20}, phases); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	for _, want := range []string{"leak ✗", "2 occupancy warnings</title>", "4 refusals</title>", "Frame time"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the plot lacks %q", want)
		}
	}
	d := xml.NewDecoder(&b)
	lines := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("invalid SVG: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "polyline" {
			lines++
		}
	}
	// Occupancy (live, pending, high-water), the arenas, frame time.
	if lines != 3+arenaCount+1 {
		t.Errorf("%d series plotted, want %d", lines, 3+arenaCount+1)
	}
}

func TestReportText(t *testing.T) {
	r := &report{Verdict: "PASS: no allocation in 10 steady frames", Upload: []arenaSection{{Name: "sprites"}},
		Guard: guardSection{Cost: costSection{Mean: 0.31, P99: 7.9}},
		Requests: []requestSection{{Kind: "upload", Issued: 10, Applied: 7, Merged: 1, Refused: 1, DroppedAtExit: 1, Balanced: true},
			{Kind: "play", Issued: 5, Applied: 1, Balanced: false}}}
	var b bytes.Buffer
	r.writeText(&b)
	for _, want := range []string{"steadyframe stress report", "verdict    PASS", "upload     sprites",
		"guard cost per frame: mean 0.31 µs, p50 0.00 µs, p99 7.90 µs",
		"requests   upload       issued      10 = applied       7 + merged     1 + refused     1 + dropped at exit    1  ok",
		"requests   play         issued       5 = applied       1 + merged     0 + refused     0 + dropped at exit    0  MISMATCH"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	if !r.passed() {
		t.Error("a PASS verdict is not passed")
	}
}
