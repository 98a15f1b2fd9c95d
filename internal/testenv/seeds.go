package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// FuzzSeeds keeps a fuzz target's committed corpus in step with the seeds
// a package's tests build: each seed is the file
// testdata/fuzz/<target>/<name> holding a []byte corpus entry, so plain
// go test runs every one. With update it writes them (a package passes
// its own -update-seeds flag); otherwise it fails t for each seed whose
// file is missing or differs, naming the command that rewrites them.
func FuzzSeeds(t testing.TB, target string, seeds map[string][]byte, update bool) {
	t.Helper()
	dir := filepath.Join("testdata", "fuzz", target)
	for name, b := range seeds {
		want := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", b)
		path := filepath.Join(dir, name)
		if update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			t.Errorf("seed %s is missing or stale (%v): run go test -run TestFuzzSeedsCommitted -args -update-seeds", name, err)
		}
	}
}
