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

// exampleSource returns the example's code lines, comments stripped.
func exampleSource(t *testing.T) []string {
	t.Helper()
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
	return source
}

// checkExcerpts reports every code line of text's Go blocks that is not in
// source, and returns how many lines it checked.
func checkExcerpts(t *testing.T, doc, text string, source []string) int {
	t.Helper()
	checked := 0
	for _, block := range strings.Split(text, "```go\n")[1:] {
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
				t.Errorf("%s excerpt line is not in the example: %s", doc, code)
			}
		}
	}
	return checked
}

// TestReadmeShowsTheExample keeps the walk-through of the example
// (docs/renderer.md) and the README's excerpt of it honest: every line of
// code in them (error handling left out, comments aside) must appear in
// the example's source.
func TestReadmeShowsTheExample(t *testing.T) {
	source := exampleSource(t)
	guide, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "renderer.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := checkExcerpts(t, "docs/renderer.md", string(guide), source); n < 40 {
		t.Fatalf("checked only %d lines of docs/renderer.md: the test is not reading the walk-through", n)
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "(from\n`examples/renderer`;")
	if !ok {
		t.Fatal("README.md has no excerpt of examples/renderer")
	}
	section, _, _ = strings.Cut(section, "\n```\n")
	if n := checkExcerpts(t, "README.md", section+"\n```", source); n < 8 {
		t.Fatalf("checked only %d lines of the README's excerpt", n)
	}
}
