package doccheck

import (
	"slices"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"One. Two words. Three (here).", []string{"One.", "Two words.", "Three (here)."}},
		{"Use e.g. a pool. Then stop.", []string{"Use e.g. a pool.", "Then stop."}},
		{"It ends (see Stats.Retired.) voices' tests follow.", []string{"It ends (see Stats.Retired.)", "voices' tests follow."}},
		{"Serials (1, 2, 3, ...; 0 means none) start at 10.7 ms.", []string{"Serials (1, 2, 3, ...; 0 means none) start at 10.7 ms."}},
		{"Is it? Yes! Done", []string{"Is it?", "Yes!", "Done"}},
	} {
		if got := split(c.in); !slices.Equal(got, c.want) {
			t.Errorf("split(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSentencesSkipCodeAndHeadings(t *testing.T) {
	doc := "Package x is short.\n\n# Ownership\n\nA list:\n\n  - first item. Second part.\n\nRun it:\n\n\tcode that runs on and on and on. Not prose.\n"
	got := sentences(doc)
	want := []string{"Package x is short.", "A list:", "first item.", "Second part.", "Run it:"}
	if !slices.Equal(got, want) {
		t.Errorf("sentences = %q, want %q", got, want)
	}
}

func TestWords(t *testing.T) {
	if n := words("a — b - c 3 × 512"); n != 5 {
		t.Errorf("words = %d, want 5 (dashes and symbols are not words)", n)
	}
}

func TestMeasureFlagsLongSentences(t *testing.T) {
	long := strings.Repeat("word ", maxSentence+1) + "end."
	m := measureAll("Short one. " + long)
	if m.sentences != 2 || len(m.long) != 1 {
		t.Fatalf("measure = %+v, want 2 sentences and 1 long one", m)
	}
	if !strings.HasPrefix(m.long[0], "(42 words)") {
		t.Errorf("long sentence reported as %q", m.long[0])
	}
	if avg := m.average(); avg != 22 {
		t.Errorf("average = %v, want 22", avg)
	}
}

func TestHistory(t *testing.T) {
	for _, s := range []string{
		"Push used to take 71 instructions.",
		"It used to allocate.",
		"Before this round the guard read twice.",
		"Fixed in issue 12.",
		"See issue #7.",
		"The code built from commit ed97fd0 measured 13 µs.",
		"The churn op was 375 ns.",
		"It was about 11.5 ns per op.",
		"Reads were 2 allocs each.",
		"Down from 163 µs.",
		"Last round it was slower.",
		"The full hash 23760da0c1b2e3f4a5b6c7d8e9f0a1b2c3d4e5f6.",
	} {
		if h := historyIn(s); len(h) == 0 {
			t.Errorf("no history found in %q", s)
		}
	}
	for _, s := range []string{
		"A buffer used to hold the frame's vertices.",
		"The pointer is used to reach the slot.",
		"The mask 0xdeadbeef marks a poisoned slot.",
		"A handle prints as slot 3 gen 12.",
		"The ring holds 1048576 cells, 4096 per page.",
		"It was refused: the pool was full.",
		"Ten runs gave 15 µs and 0.30 µs.",
		"A decade of frames, effaced.",
		"Issue a play request per frame.",
	} {
		if h := historyIn(s); len(h) > 0 {
			t.Errorf("history %q found in %q", h, s)
		}
	}
}
