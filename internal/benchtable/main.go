// Command benchtable turns `go test -bench` output into a markdown table
// that puts each benchmark beside its group's baseline, with the ratio.
//
//	go test -run '^$' -bench . ./pools/ | go run ./internal/benchtable
//
// # Groups and baselines
//
// A group is a top-level benchmark function: BenchmarkPoolCompare/x and
// BenchmarkPoolCompare/y are rows of group PoolCompare (per package, so
// two packages may reuse a name). Within a group, the baseline is the
// first row whose sub-benchmark name starts with the -baseline prefix
// ("ours-" by default: name steadyframe's own implementation "ours-..."
// and what a user would otherwise write anything else); when no row has
// the prefix, or the prefix is empty, the group's first row is the
// baseline. The ratio column is the row's ns/op divided by the
// baseline's: 3.00x means three times the baseline's time per op.
//
// Repeated runs of one benchmark (-count) collapse to their median. Lines
// that are not benchmark results are ignored, except that a FAIL line, or
// input without a single result, makes benchtable print what it has and
// exit with status 1, so a pipeline cannot report a table for a failed
// run.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	baseline := flag.String("baseline", "ours-", "sub-benchmark name `prefix` that marks each group's baseline; empty: the first row")
	flag.Parse()
	if err := run(os.Stdin, os.Stdout, *baseline); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

// run reads benchmark output from r and writes the table to w.
func run(r io.Reader, w io.Writer, baseline string) error {
	res, err := parse(r)
	if err != nil {
		return err
	}
	if len(res.rows) > 0 {
		if _, err := io.WriteString(w, render(res.rows, baseline)); err != nil {
			return err
		}
	}
	switch {
	case res.failed != "":
		return fmt.Errorf("the benchmark run failed: %q", res.failed)
	case len(res.rows) == 0:
		return fmt.Errorf("no benchmark results in the input")
	}
	return nil
}
