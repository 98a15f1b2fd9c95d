package testenv

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// DocNumber is one number a doc comment states, and what the code says.
type DocNumber struct {
	// Name is the identifier whose doc states the number (a constant,
	// variable, type or function declared at package level), or "" for
	// the package doc.
	Name string
	// Text is the phrase the number sits in, with "%d" where the number
	// goes: "%d by default", "up to %d slots". The number may be written
	// with thousands separators (1,024) or without (1024).
	Text string
	// Want is the value the code has.
	Want int64
}

// DocNumbers is the module's doc-drift check, after runtime/metrics'
// test of its own docs: it parses the package in dir (its non-test
// files, with comments) and fails t for each DocNumber whose doc does
// not state Want in the phrase Text. A doc that changes its number, or a
// constant that changes under its doc, fails here.
func DocNumbers(t testing.TB, dir string, nums []DocNumber) {
	t.Helper()
	docs := packageDocs(t, dir)
	for _, n := range nums {
		doc, ok := docs[n.Name]
		if !ok {
			t.Errorf("%s: no doc comment for %q", dir, n.Name)
			continue
		}
		before, after, _ := strings.Cut(regexp.QuoteMeta(n.Text), `%d`)
		re := regexp.MustCompile(before + `([0-9][0-9,]*)` + after)
		found := false
		for _, m := range re.FindAllStringSubmatch(doc, -1) {
			v, err := strconv.ParseInt(strings.ReplaceAll(m[1], ",", ""), 10, 64)
			if err == nil && v == n.Want {
				found = true
				break
			}
			t.Errorf("%s: the doc of %q says %q with %s; the code says %d", dir, n.Name, n.Text, m[1], n.Want)
			found = true
		}
		if !found {
			t.Errorf("%s: the doc of %q no longer says %q (want %d); update the doc and this test together:\n%s",
				dir, n.Name, n.Text, n.Want, doc)
		}
	}
}

// packageDocs returns the doc comments of dir's package, by identifier,
// with line breaks and comment markers folded into single spaces; the
// package doc is under "".
func packageDocs(t testing.TB, dir string) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("reading %s: %v", dir, err)
	}
	var files []*ast.File
	for _, e := range entries {
		if name := e.Name(); strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
			if err != nil {
				t.Fatalf("parsing %s: %v", name, err)
			}
			files = append(files, f)
		}
	}
	docs := map[string]string{}
	add := func(name string, g *ast.CommentGroup) {
		if g != nil {
			docs[name] += strings.Join(strings.Fields(g.Text()), " ") + " "
		}
	}
	for _, f := range files {
		add("", f.Doc)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					add(d.Name.Name, d.Doc)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.ValueSpec:
						for _, id := range s.Names {
							add(id.Name, s.Doc)
							if s.Doc == nil {
								add(id.Name, d.Doc)
							}
						}
					case *ast.TypeSpec:
						add(s.Name.Name, s.Doc)
						if s.Doc == nil {
							add(s.Name.Name, d.Doc)
						}
					}
				}
			}
		}
	}
	return docs
}
