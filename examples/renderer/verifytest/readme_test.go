package verifytest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// codeOf returns line without its trailing // comment and surrounding
// space; a line that is only a comment gives "".
func codeOf(line string) string {
	if i := strings.Index(line, "//"); i >= 0 {
		line = line[:i]
	}
	return strings.TrimSpace(line)
}

// TestReadmeShowsTheExample keeps the README's walk-through of the example
// honest: every line of code in its excerpts (error handling left out,
// comments aside) must appear in the example's source.
func TestReadmeShowsTheExample(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "### A renderer, step by step")
	if !ok {
		t.Fatal("README.md has no walk-through of examples/renderer")
	}
	section, _, _ = strings.Cut(section, "\n### ")
	files, err := filepath.Glob(filepath.Join("..", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no example source found: %v", err)
	}
	var source []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			source = append(source, codeOf(l))
		}
	}
	checked := 0
	for _, block := range strings.Split(section, "```go\n")[1:] {
		block, _, _ = strings.Cut(block, "```")
		for _, l := range strings.Split(block, "\n") {
			code := codeOf(l)
			if code == "" {
				continue
			}
			checked++
			found := false
			for _, s := range source {
				if strings.Contains(s, code) {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("README excerpt line is not in the example: %s", code)
			}
		}
	}
	if checked < 40 {
		t.Fatalf("checked only %d excerpt lines: the test is not reading the walk-through", checked)
	}
}
