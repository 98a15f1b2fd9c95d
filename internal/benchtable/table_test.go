package main

import (
	"bytes"
	"strings"
	"testing"
)

const sample = `goos: linux
goarch: amd64
pkg: github.com/steadyframe/steadyframe/pools
cpu: AMD EPYC
BenchmarkPoolCompare/sync.Pool-get-put-2         	10000000	        20.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkPoolCompare/ours-pool-create-destroy-2  	50000000	         4.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkPoolCompare/new-gc-2                    	 3000000	        40.00 ns/op	      64 B/op	       1 allocs/op
BenchmarkPoolCompare/ours-pool-create-destroy-2  	50000000	         6.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkPoolCompare/ours-pool-create-destroy-2  	50000000	         5.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkWalk/a-2                                	  100000	      1000 ns/op
BenchmarkWalk/b-2                                	  100000	      2500 ns/op
BenchmarkSolo-2                                  	  100000	      1234 ns/op	       8 B/op	       1 allocs/op
some log line a benchmark printed
PASS
ok  	github.com/steadyframe/steadyframe/pools	3.2s
pkg: github.com/steadyframe/steadyframe/voices
BenchmarkWalk/x-2                                	  100000	       300 ns/op
`

func TestRender(t *testing.T) {
	var out bytes.Buffer
	if err := run(strings.NewReader(sample), &out, "ours-"); err != nil {
		t.Fatal(err)
	}
	want := `| group | benchmark | ns/op | B/op | allocs/op | time vs baseline |
| --- | --- | ---: | ---: | ---: | ---: |
| PoolCompare | sync.Pool-get-put | 20 | 0 | 0 | 4.00x |
| PoolCompare | **ours-pool-create-destroy** | 5 | 0 | 0 | 1.00x (baseline) |
| PoolCompare | new-gc | 40 | 64 | 1 | 8.00x |
| Walk | **a** | 1000 | - | - | 1.00x (baseline) |
| Walk | b | 2500 | - | - | 2.50x |
| Solo | **Solo** | 1234 | 8 | 1 | 1.00x (baseline) |
| Walk | **x** | 300 | - | - | 1.00x (baseline) |
`
	if out.String() != want {
		t.Fatalf("table:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestBaselineFlag(t *testing.T) {
	var out bytes.Buffer
	if err := run(strings.NewReader(sample), &out, "new-"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "| PoolCompare | **new-gc** | 40 | 64 | 1 | 1.00x (baseline) |") ||
		!strings.Contains(out.String(), "| PoolCompare | sync.Pool-get-put | 20 | 0 | 0 | 0.50x |") {
		t.Fatalf("-baseline new- table:\n%s", out.String())
	}
	out.Reset()
	if err := run(strings.NewReader(sample), &out, ""); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "| PoolCompare | **sync.Pool-get-put** | 20 | 0 | 0 | 1.00x (baseline) |") {
		t.Fatalf("empty -baseline did not pick the first row:\n%s", out.String())
	}
}

func TestRunFailures(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"empty", "", "no benchmark results"},
		{"no results", "PASS\nok  \tx\t0.1s\n", "no benchmark results"},
		{"failed run", sample + "--- FAIL: BenchmarkX\nFAIL\n", "failed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			err := run(strings.NewReader(c.in), &out, "ours-")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("run = %v, want an error containing %q", err, c.want)
			}
		})
	}
}

func TestParseLine(t *testing.T) {
	cases := []struct {
		line, name string
		ok         bool
	}{
		{"BenchmarkA-16 	 100	 5.5 ns/op", "BenchmarkA", true},
		{"BenchmarkA/b-c-4 	 100	 5.5 ns/op	 0 B/op	 0 allocs/op", "BenchmarkA/b-c", true},
		{"BenchmarkA/x-y 	 100	 5.5 ns/op", "BenchmarkA/x-y", true},
		{"BenchmarkA is a sentence a benchmark logged", "", false},
		{"BenchmarkA-2 	 100	 fast ns/op", "", false},
		{"BenchmarkA-2 	 100	 5 MB/s", "", false},
	}
	for _, c := range cases {
		name, _, ok := parseLine(c.line)
		if ok != c.ok || name != c.name {
			t.Errorf("parseLine(%q) = %q, %v; want %q, %v", c.line, name, ok, c.name, c.ok)
		}
	}
	if median([]float64{3, 1, 2, 10}) != 2.5 || median([]float64{7}) != 7 {
		t.Error("median is wrong")
	}
	for v, want := range map[float64]string{0: "0", 3: "3", 4.256: "4.26", 19.64: "19.6", 1653.4: "1653", 1e6 + 0.5: "1000000"} {
		if got := formatNum(v); got != want {
			t.Errorf("formatNum(%v) = %q, want %q", v, got, want)
		}
	}
}
