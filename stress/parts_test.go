package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestHistQuantiles(t *testing.T) {
	var h hist
	rng := rand.New(rand.NewPCG(1, 2))
	var all []time.Duration
	for i := 0; i < 20000; i++ {
		d := time.Duration(rng.ExpFloat64() * float64(2*time.Millisecond))
		all = append(all, d)
		h.Record(d)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	for _, q := range []float64{0.5, 0.9, 0.99} {
		want := all[int(q*float64(len(all)-1))]
		got := h.Quantile(q)
		if diff := float64(got-want) / float64(want); diff > 1.0/histSub || diff < -1.0/histSub {
			t.Errorf("q%.2f = %v, exact %v (%.1f%% off, bucket width %.1f%%)", q, got, want, 100*diff, 100.0/histSub)
		}
	}
	if h.Max() != all[len(all)-1] || h.Quantile(1) != h.Max() || h.Quantile(0) != all[0] {
		t.Errorf("max %v min %v, want %v and %v", h.Max(), h.Quantile(0), all[len(all)-1], all[0])
	}
	if h.Count() != uint64(len(all)) {
		t.Errorf("count %d", h.Count())
	}
	h.Reset()
	if h.Count() != 0 || h.Quantile(0.5) != 0 {
		t.Error("Reset left data behind")
	}
}

func TestHistIndexMonotonic(t *testing.T) {
	prev := -1
	for v := uint64(0); v < 1<<22; v += 1 + v/97 {
		i := histIndex(v)
		if i < prev || i >= histBuckets {
			t.Fatalf("index(%d) = %d after %d", v, i, prev)
		}
		if lo := histLower(i); lo > v || histLower(i+1) <= v {
			t.Fatalf("value %d outside its bucket [%d, %d)", v, lo, histLower(i+1))
		}
		prev = i
	}
}

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
			HighWater: 300, ArenaUsed: [arenaCount]int{i << 10, 32000, 100}})
	}
	var b bytes.Buffer
	if err := writePlot(&b, samples, 1024, [arenaCount]int{4 << 20, 4 << 20, 1 << 20}); err != nil {
		t.Fatal(err)
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
	if lines != 3+arenaCount {
		t.Errorf("%d series plotted, want %d", lines, 3+arenaCount)
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
