package main

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// row is one benchmark's results, with the samples of repeated runs.
type row struct {
	pkg    string
	group  string // top-level name without "Benchmark"
	sub    string // sub-benchmark path; "" for a benchmark without one
	ns     []float64
	bytes  []float64 // empty when the run did not report allocations
	allocs []float64
}

// result is what parse found in the input.
type result struct {
	rows   []*row
	failed string // the first FAIL line, if any
}

// parse reads `go test -bench` output. Rows keep their first appearance's
// order; repeated results of one name join that row's samples.
func parse(r io.Reader) (result, error) {
	var res result
	byName := map[string]*row{}
	pkg := ""
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "pkg: "):
			pkg = strings.TrimPrefix(line, "pkg: ")
		case strings.HasPrefix(line, "FAIL") || strings.HasPrefix(line, "--- FAIL"):
			if res.failed == "" {
				res.failed = line
			}
		case strings.HasPrefix(line, "Benchmark"):
			name, m, ok := parseLine(line)
			if !ok {
				continue
			}
			key := pkg + " " + name
			rw := byName[key]
			if rw == nil {
				group, sub, _ := strings.Cut(strings.TrimPrefix(name, "Benchmark"), "/")
				rw = &row{pkg: pkg, group: group, sub: sub}
				byName[key] = rw
				res.rows = append(res.rows, rw)
			}
			rw.ns = append(rw.ns, m["ns/op"])
			if b, ok := m["B/op"]; ok {
				rw.bytes = append(rw.bytes, b)
				rw.allocs = append(rw.allocs, m["allocs/op"])
			}
		}
	}
	return res, sc.Err()
}

// parseLine splits a result line into the benchmark's name, without the
// -GOMAXPROCS suffix, and its metrics by unit. Lines that are not results
// (a benchmark's own log output) report ok=false.
func parseLine(line string) (string, map[string]float64, bool) {
	f := strings.Fields(line)
	if len(f) < 4 || len(f)%2 != 0 {
		return "", nil, false
	}
	if _, err := strconv.ParseUint(f[1], 10, 64); err != nil {
		return "", nil, false
	}
	m := map[string]float64{}
	for i := 2; i+1 < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return "", nil, false
		}
		m[f[i+1]] = v
	}
	if _, ok := m["ns/op"]; !ok {
		return "", nil, false
	}
	name := f[0]
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			name = name[:i]
		}
	}
	return name, m, true
}

// median returns the middle sample (the mean of the two middle ones for
// an even count).
func median(s []float64) float64 {
	c := slices.Clone(s)
	slices.Sort(c)
	n := len(c)
	if n%2 == 1 {
		return c[n/2]
	}
	return (c[n/2-1] + c[n/2]) / 2
}

// baselineOf returns the index, within group, of the group's baseline row.
func baselineOf(group []*row, prefix string) int {
	if prefix != "" {
		for i, r := range group {
			if strings.HasPrefix(r.sub, prefix) {
				return i
			}
		}
	}
	return 0
}

// render formats rows as one markdown table, group by group.
func render(rows []*row, prefix string) string {
	type key struct{ pkg, group string }
	var order []key
	groups := map[key][]*row{}
	for _, r := range rows {
		k := key{r.pkg, r.group}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	var b strings.Builder
	b.WriteString("| group | benchmark | ns/op | B/op | allocs/op | time vs baseline |\n")
	b.WriteString("| --- | --- | ---: | ---: | ---: | ---: |\n")
	for _, k := range order {
		g := groups[k]
		bi := baselineOf(g, prefix)
		base := median(g[bi].ns)
		for i, r := range g {
			name := r.sub
			if name == "" {
				name = r.group
			}
			ratio := "n/a"
			if base > 0 {
				ratio = fmt.Sprintf("%.2fx", median(r.ns)/base)
			}
			if i == bi {
				name = "**" + name + "**"
				ratio += " (baseline)"
			}
			bytes, allocs := "-", "-"
			if len(r.bytes) > 0 {
				bytes = formatNum(median(r.bytes))
				allocs = formatNum(median(r.allocs))
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n",
				k.group, name, formatNum(median(r.ns)), bytes, allocs, ratio)
		}
	}
	return b.String()
}

// formatNum prints integers and values of 100 or more without decimals,
// and smaller values with three significant digits, never in exponent
// form.
func formatNum(v float64) string {
	switch {
	case v == float64(int64(v)) || v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}
