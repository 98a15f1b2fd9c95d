package frame

import (
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

func TestHistogramQuantiles(t *testing.T) {
	var h Histogram
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
		if got < want {
			t.Errorf("q%.2f = %v, below the exact %v: Quantile must not under-report", q, got, want)
		}
	}
	if h.Max() != all[len(all)-1] || h.Quantile(1) != h.Max() || h.Quantile(0) != all[0] {
		t.Errorf("max %v min %v, want %v and %v", h.Max(), h.Quantile(0), all[len(all)-1], all[0])
	}
	if h.Count() != uint64(len(all)) {
		t.Errorf("count %d", h.Count())
	}
	h.Reset()
	if h.Count() != 0 || h.Quantile(0.5) != 0 || h.Mean() != 0 {
		t.Error("Reset left data behind")
	}
}

// TestHistogramFewSamples is the guard's cost distribution: mostly
// frames that cost nothing, one cheap and one dear.
func TestHistogramFewSamples(t *testing.T) {
	var h Histogram
	for range 98 {
		h.Record(0)
	}
	h.Record(10 * time.Microsecond)
	h.Record(3 * time.Millisecond)
	if h.Count() != 100 || h.Max() != 3*time.Millisecond {
		t.Fatalf("count %d max %v", h.Count(), h.Max())
	}
	if want := (3*time.Millisecond + 10*time.Microsecond) / 100; h.Mean() != want {
		t.Fatalf("mean %v, want %v", h.Mean(), want)
	}
	if p50, p99 := h.Quantile(0.5), h.Quantile(0.99); p50 != 0 || p99 < 10*time.Microsecond || p99 > 10*time.Microsecond*(histSub+1)/histSub {
		t.Fatalf("p50 %v p99 %v, want 0 and within one bucket above 10µs", p50, p99)
	}
	h.Record(-time.Second)
	if h.Quantile(0) != 0 {
		t.Fatalf("a negative duration counted as %v, want 0", h.Quantile(0))
	}
}

// TestHistogramBuckets checks the bucket layout: indices never decrease,
// each value lies within its bucket's bounds, every int64 fits.
func TestHistogramBuckets(t *testing.T) {
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
	for i := range histBuckets - 1 {
		if lo, next := histLower(i), histLower(i+1); next <= lo || histIndex(next-1) != i || histIndex(next) != i+1 {
			t.Fatalf("bucket %d: [%d, %d) maps %d to %d and %d to %d", i, lo, next, next-1, histIndex(next-1), next, histIndex(next))
		}
	}
	if i := histIndex(1<<63 - 1); i != histBuckets-1 {
		t.Fatalf("the largest duration maps to bucket %d, want the last, %d", i, histBuckets-1)
	}
}

func TestHistogramRecordAllocatesNothing(t *testing.T) {
	var h Histogram
	testenv.NoAllocs(t, "Histogram.Record", 200, func() { h.Record(3 * time.Millisecond) })
}

func BenchmarkHistogramRecord(b *testing.B) {
	var h Histogram
	b.ReportAllocs()
	for b.Loop() {
		h.Record(3 * time.Millisecond)
	}
}
