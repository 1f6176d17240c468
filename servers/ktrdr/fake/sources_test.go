package fake

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sourceMarker is how a comment names where a fake behaviour comes from: a
// backend file, the reference, or an honest "assumed"/"inferred".
var sourceMarker = regexp.MustCompile(`ktrdr/|ref: |FastAPI|Starlette|assumed|inferred|test-control`)

// TestEveryAnswerCitesItsSource: every function that writes a backend answer
// names its source in a comment (its doc comment or one inside it), so a fake
// behaviour the client depends on can be traced to the real backend or is
// marked assumed (and listed in the README). Issue 10.
func TestEveryAnswerCitesItsSource(t *testing.T) {
	checkSources(t, map[string]bool{"writeJSON": true, "detail": true, "validation": true, "successFalse": true, "envelopeError": true})
}

func checkSources(t *testing.T, writers map[string]bool) {
	t.Helper()
	files, err := filepath.Glob("*.go")
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
			if !ok || fn.Body == nil || writers[fn.Name.Name] || !writes(fn, writers) {
				continue
			}
			if !cited(f, fn) {
				t.Errorf("%s: %s writes a backend answer but no comment names its source (a backend file, ref:, or assumed)", name, fn.Name.Name)
			}
		}
	}
}

func writes(fn *ast.FuncDecl, writers map[string]bool) bool {
	found := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && writers[id.Name] {
				found = true
			}
		}
		return !found
	})
	return found
}

func cited(f *ast.File, fn *ast.FuncDecl) bool {
	if fn.Doc != nil && sourceMarker.MatchString(fn.Doc.Text()) {
		return true
	}
	for _, cg := range f.Comments {
		if cg.Pos() >= fn.Body.Lbrace && cg.End() <= fn.Body.Rbrace && sourceMarker.MatchString(cg.Text()) {
			return true
		}
	}
	return false
}
