package doccheck

import (
	"fmt"
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// The limits of STYLE.md habit 23. The standard library's package docs
// average about 16 words a sentence.
const (
	maxAverage  = 20
	maxSentence = 40
)

// history matches benchmark history: the past of a measurement or of the
// code, which belongs in docs/ or the commit log. Each pattern names a
// phrase a present-tense contract has no use for.
var history = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\b(it|this|which|that|they|we|he|she) used to\b`),
	regexp.MustCompile(`(?i)\bused to (take|cost|allocate|spend|run|be)\b`),
	regexp.MustCompile(`(?i)\bbefore this (round|change|commit|fix|issue)\b`),
	regexp.MustCompile(`(?i)\b(this|last|previous|earlier|next) round\b`),
	regexp.MustCompile(`(?i)\bissues? #?\d+\b`),
	regexp.MustCompile(`(?i)\b(was|were) (about |~)?\d[\d.,]*\s?(ns|µs|us|ms|allocs?|B/op|ns/op|x|×)(\W|$)`),
	regexp.MustCompile(`(?i)\b(down|up) from (about |~)?\d`),
	regexp.MustCompile(`\b(commit )?[0-9a-f]*[0-9][0-9a-f]*[a-f][0-9a-f]*\b|\b[0-9a-f]*[a-f][0-9a-f]*[0-9][0-9a-f]*\b`),
}

// isHash bounds what the commit-hash pattern may match: git's short and
// full hashes.
func isHash(s string) bool {
	s = strings.TrimPrefix(s, "commit ")
	return len(s) >= 7 && len(s) <= 40
}

func historyIn(s string) []string {
	var found []string
	for i, re := range history {
		for _, m := range re.FindAllString(s, -1) {
			if i == len(history)-1 && !isHash(m) {
				continue
			}
			found = append(found, m)
		}
	}
	return found
}

// sentences returns a comment's prose cut into sentences. Code blocks and
// headings are left out; each list item counts as prose of its own.
func sentences(doc string) []string {
	d := new(comment.Parser).Parse(doc)
	var out []string
	para := func(txt []comment.Text) {
		out = append(out, split(plain(txt))...)
	}
	for _, b := range d.Content {
		switch b := b.(type) {
		case *comment.Paragraph:
			para(b.Text)
		case *comment.List:
			for _, it := range b.Items {
				for _, c := range it.Content {
					if p, ok := c.(*comment.Paragraph); ok {
						para(p.Text)
					}
				}
			}
		}
	}
	return out
}

func plain(txt []comment.Text) string {
	var b strings.Builder
	for _, t := range txt {
		switch t := t.(type) {
		case comment.Plain:
			b.WriteString(string(t))
		case comment.Italic:
			b.WriteString(string(t))
		case *comment.Link:
			b.WriteString(plain(t.Text))
		case *comment.DocLink:
			b.WriteString(plain(t.Text))
		}
	}
	return b.String()
}

// abbrev holds the abbreviations whose period does not end a sentence.
var abbrev = map[string]bool{
	"e.g.": true, "i.e.": true, "etc.": true, "vs.": true, "cf.": true,
	"approx.": true, "no.": true, "fig.": true, "resp.": true,
}

// split cuts prose at a '.', '?' or '!' (and any closing quote or
// bracket) followed by a space. A sentence may start with a lower-case
// identifier ("voices' tests..."), so the next letter's case does not
// matter. The period of an abbreviation such as "e.g." does not end a
// sentence, nor does "..." in a list of values.
func split(s string) []string {
	s = strings.Join(strings.Fields(s), " ")
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '.' && c != '?' && c != '!' {
			continue
		}
		j := i + 1
		for j < len(s) && strings.ContainsRune(`)"'”]`, rune(s[j])) {
			j++
		}
		if j >= len(s) {
			break
		}
		if s[j] != ' ' || j+1 >= len(s) {
			continue
		}
		w := s[strings.LastIndexByte(s[:i+1], ' ')+1 : i+1]
		w = strings.ToLower(strings.TrimLeft(w, `("'“[`))
		if abbrev[w] || strings.HasSuffix(w, "..") {
			continue
		}
		out = append(out, s[start:j])
		start = j + 1
		i = j
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

// words counts the fields that hold a letter or a digit, so a dash or a
// lone symbol is not a word.
func words(s string) int {
	n := 0
	for _, f := range strings.Fields(s) {
		if strings.IndexFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			n++
		}
	}
	return n
}

// pkgComments is what the test reads from one package directory.
type pkgComments struct {
	dir     string
	pkgDoc  string
	decls   []declDoc
	hasFile bool
}

type declDoc struct {
	name, doc string
}

// root is the directory holding the module's go.mod.
func root(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil &&
			strings.Contains(string(b), "module github.com/steadyframe/steadyframe\n") {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("doccheck: no go.mod of github.com/steadyframe/steadyframe above the test")
		}
		dir = up
	}
}

// packages parses every non-test Go file of the module, the examples'
// modules included, grouped by directory.
func packages(t *testing.T) []*pkgComments {
	top := root(t)
	byDir := map[string]*pkgComments{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != top && (n == "testdata" || n == "vendor" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(top, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		p := byDir[rel]
		if p == nil {
			p = &pkgComments{dir: rel}
			byDir[rel] = p
		}
		p.hasFile = true
		if f.Doc != nil {
			// doc.go's comment is the package doc; any other file's
			// package comment is read too, as go doc would merge it.
			if filepath.Base(path) == "doc.go" {
				p.pkgDoc = f.Doc.Text() + "\n" + p.pkgDoc
			} else {
				p.pkgDoc += "\n" + f.Doc.Text()
			}
		}
		p.decls = append(p.decls, exportedDocs(f)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []*pkgComments
	for _, p := range byDir {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].dir < out[j].dir })
	return out
}

// exportedDocs returns the doc comments of a file's exported
// declarations: functions, methods of exported types, types, constants,
// variables and the fields of exported structs.
func exportedDocs(f *ast.File) []declDoc {
	var out []declDoc
	add := func(name string, g *ast.CommentGroup) {
		if g != nil && ast.IsExported(name) {
			out = append(out, declDoc{name, g.Text()})
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) == 1 {
				recv := recvName(d.Recv.List[0].Type)
				if !ast.IsExported(recv) {
					continue
				}
				name = recv + "." + name
			}
			if ast.IsExported(d.Name.Name) {
				add(name, d.Doc)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					doc := s.Doc
					if doc == nil && len(d.Specs) == 1 {
						doc = d.Doc
					}
					add(s.Name.Name, doc)
					if st, ok := s.Type.(*ast.StructType); ok && ast.IsExported(s.Name.Name) {
						for _, fl := range st.Fields.List {
							for _, n := range fl.Names {
								if n.IsExported() {
									add(s.Name.Name+"."+n.Name, fl.Doc)
								}
							}
						}
					}
				case *ast.ValueSpec:
					doc := s.Doc
					if doc == nil && len(d.Specs) == 1 {
						doc = d.Doc
					}
					for _, n := range s.Names {
						if doc != nil && ast.IsExported(n.Name) {
							add(n.Name, doc)
							break // one comment, counted once
						}
					}
				}
			}
			if d.Doc != nil && len(d.Specs) > 1 {
				for _, s := range d.Specs {
					if v, ok := s.(*ast.ValueSpec); ok && ast.IsExported(v.Names[0].Name) {
						add(v.Names[0].Name+" (group)", d.Doc)
						break
					}
				}
			}
		}
	}
	return out
}

func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvName(e.X)
	case *ast.IndexExpr:
		return recvName(e.X)
	case *ast.IndexListExpr:
		return recvName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}

// measure is the verdict on one body of prose.
type measure struct {
	sentences int
	words     int
	long      []string // sentences over maxSentence words
}

func (m measure) average() float64 {
	if m.sentences == 0 {
		return 0
	}
	return float64(m.words) / float64(m.sentences)
}

func measureAll(docs ...string) measure {
	var m measure
	for _, d := range docs {
		for _, s := range sentences(d) {
			n := words(s)
			m.sentences++
			m.words += n
			if n > maxSentence {
				m.long = append(m.long, fmt.Sprintf("(%d words) %s", n, s))
			}
		}
	}
	return m
}

// TestPackageDocs fails when a package doc runs long or carries
// benchmark history, printing the package, its average and its worst
// sentences.
func TestPackageDocs(t *testing.T) {
	for _, p := range packages(t) {
		if !p.hasFile {
			continue
		}
		if strings.TrimSpace(p.pkgDoc) == "" {
			t.Errorf("%s: no package doc comment", p.dir)
			continue
		}
		m := measureAll(p.pkgDoc)
		t.Logf("%-28s %3d sentences, average %4.1f words", p.dir, m.sentences, m.average())
		if m.average() > maxAverage || len(m.long) > 0 {
			t.Errorf("%s: package doc averages %.1f words a sentence (limit %d), %d sentences over %d words:\n\t%s",
				p.dir, m.average(), maxAverage, len(m.long), maxSentence, strings.Join(m.long, "\n\t"))
		}
		if h := historyIn(p.pkgDoc); len(h) > 0 {
			t.Errorf("%s: package doc carries history (move it to docs/): %q", p.dir, h)
		}
	}
}

// TestDeclDocs holds the exported declarations' doc comments to the same
// limits: each package's average, and every sentence.
func TestDeclDocs(t *testing.T) {
	for _, p := range packages(t) {
		if !p.hasFile || len(p.decls) == 0 {
			continue
		}
		var docs []string
		var long []string
		for _, d := range p.decls {
			docs = append(docs, d.doc)
			for _, l := range measureAll(d.doc).long {
				long = append(long, d.name+": "+l)
			}
			if h := historyIn(d.doc); len(h) > 0 {
				t.Errorf("%s: %s's doc carries history (move it to docs/): %q", p.dir, d.name, h)
			}
		}
		m := measureAll(docs...)
		t.Logf("%-28s %3d sentences, average %4.1f words", p.dir, m.sentences, m.average())
		if m.average() > maxAverage || len(long) > 0 {
			t.Errorf("%s: exported docs average %.1f words a sentence (limit %d), %d sentences over %d words:\n\t%s",
				p.dir, m.average(), maxAverage, len(long), maxSentence, strings.Join(long, "\n\t"))
		}
	}
}
