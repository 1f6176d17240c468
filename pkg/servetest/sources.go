package servetest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// FakeCitesSources fails for every function in the fake package in dir that
// writes an upstream answer (calls one of writers) without a comment naming
// where the behaviour comes from (marker: a public source such as a docs page,
// an upstream file or an issue thread, or an honest "assumed"). A fake behaviour a client depends on must be
// traceable to the real service or be marked assumed (DEVELOPERS.md).
func FakeCitesSources(t testing.TB, dir string, marker *regexp.Regexp, writers ...string) {
	t.Helper()
	isWriter := map[string]bool{}
	for _, w := range writers {
		isWriter[w] = true
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil || isWriter[fn.Name.Name] || !callsAny(fn, isWriter) {
				continue
			}
			if !cited(f, fn, marker) {
				t.Errorf("%s: %s writes an upstream answer but no comment names its source (%s)", name, fn.Name.Name, marker)
			}
		}
	}
}

func callsAny(fn *ast.FuncDecl, names map[string]bool) bool {
	found := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && names[id.Name] {
				found = true
			}
		}
		return !found
	})
	return found
}

// cited: the doc comment or a comment inside the body matches marker.
func cited(f *ast.File, fn *ast.FuncDecl, marker *regexp.Regexp) bool {
	if fn.Doc != nil && marker.MatchString(fn.Doc.Text()) {
		return true
	}
	for _, cg := range f.Comments {
		if cg.Pos() >= fn.Body.Lbrace && cg.End() <= fn.Body.Rbrace && marker.MatchString(cg.Text()) {
			return true
		}
	}
	return false
}
