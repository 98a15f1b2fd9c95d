package dsp

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

var updateTables = flag.Bool("golden.update", false, "rewrite testdata/tables.golden from this build's tables")

// tablesFile holds the SHA-256 of the sinc table of every pair of pooled
// rates and of the limiter's release factor at each rate: they are built
// with math.Sin, math.Exp and long float64 sums, which Go may compile
// with fused multiply-adds on arm64 and GOAMD64=v3, so every build must
// reproduce this file (scripts/ci-kernels.sh runs them all).
const tablesFile = "testdata/tables.golden"

// poolRates are the source and device rates voices pools today.
var poolRates = []int{8000, 11025, 16000, 22050, 32000, 44100, 48000, 88200, 96000}

// tableHash hashes everything a table holds: its shape, coefficients,
// advances and group layout.
func tableHash(t *SincTable) string {
	h := sha256.New()
	put := func(v ...uint32) {
		for _, x := range v {
			_ = binary.Write(h, binary.LittleEndian, x)
		}
	}
	put(uint32(t.taps), uint32(t.half), t.phases, t.stepInt, t.stepNum)
	for _, c := range t.coef {
		put(math.Float32bits(c))
	}
	put(t.adv...)
	if g := t.grp; g != nil {
		put(uint32(g.terms))
		for _, c := range g.coef {
			put(math.Float32bits(c))
		}
		for _, l := range g.lane {
			put(uint32(l))
		}
		put(g.adv...)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestTablesGolden builds the sinc table of every pair of pooled rates
// and the limiter at every rate and compares their hashes with
// tablesFile. -golden.update rewrites the file.
func TestTablesGolden(t *testing.T) {
	var lines []string
	for _, src := range poolRates {
		for _, dev := range poolRates {
			if src != dev {
				lines = append(lines, fmt.Sprintf("sinc/%d/%d %s", src, dev, tableHash(newSincTable(src, dev))))
			}
		}
	}
	for _, rate := range poolRates {
		lines = append(lines, fmt.Sprintf("limiter/%d %08x", rate, math.Float32bits(NewLimiter(rate).keep)))
	}
	if *updateTables {
		text := "# TestTablesGolden's hashes; regenerate with go test -run TestTablesGolden -golden.update\n" + strings.Join(lines, "\n") + "\n"
		if err := os.WriteFile(tablesFile, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(tablesFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := sc.Text(); l != "" && !strings.HasPrefix(l, "#") {
			want[l] = true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if !want[l] {
			t.Errorf("%s: not in %s (this build computes another table)", l, tablesFile)
		}
	}
	if len(want) != len(lines) {
		t.Errorf("%s holds %d lines, the test makes %d", tablesFile, len(want), len(lines))
	}
}
