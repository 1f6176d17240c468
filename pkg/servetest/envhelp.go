package servetest

import (
	"bytes"
	"errors"
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/serve"
)

// modulePath is this repository's module: only its packages are scanned.
const modulePath = "github.com/mcpfleet/mcpfleet"

// envName is the shape of a variable the fleet reads by name: a fleet prefix
// and upper-case words. A string constant of exactly this shape anywhere in
// the binary's packages counts as read (tables such as the transport limits
// or shoonya's credentials read their names through a loop), which errs on
// the side of listing too much, never too little.
var envName = regexp.MustCompile(`^(MCPFLEET|ZIWEI|SHOONYA|KTRDR|CHART_IMG|POLYMARKET|OPENAI|GOOGLE_NEWS|WEB_SEARCH)_[A-Z0-9_]*[A-Z0-9]$`)

// osVars are variables of the platform a binary reads, not the fleet's:
// they need no line in --help.
var osVars = map[string]string{
	"HOME":           "the user's home (the state directory's default)",
	"XDG_STATE_HOME": "the XDG state directory (the state directory's default)",
	"LOCALAPPDATA":   "Windows' local application data (the state directory's default)",
	"PATH":           "where executables are found",
}

// fakeOnly are fleet variables whose names the servers link (pkg/clock) but
// only fakes and tests read.
var fakeOnly = map[string]string{
	"MCPFLEET_FAKE_NOW": "the fakes' clock (clock.FromEnv); servers take their clock from serve.Options",
}

// EnvRead is every environment variable name the binary built from the Go
// package in the current directory may read: the constant first argument of
// every os.Getenv, os.LookupEnv, env.Or/Int/Duration and getenv call in its
// packages (tests left out), and every string constant shaped like a fleet
// variable (envName). Each name maps to the first place it was seen.
func EnvRead(t testing.TB) map[string]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles \",\"}}", ".").Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	type pkgFiles struct {
		path  string
		files []*ast.File
	}
	fset := token.NewFileSet()
	var pkgs []pkgFiles
	consts := map[string]map[string]string{} // import path → const name → value
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.Split(line, "\t")
		if len(parts) != 3 || (parts[0] != modulePath && !strings.HasPrefix(parts[0], modulePath+"/")) || parts[2] == "" {
			continue
		}
		p := pkgFiles{path: parts[0]}
		consts[p.path] = map[string]string{}
		for _, name := range strings.Split(parts[2], ",") {
			f, err := parser.ParseFile(fset, filepath.Join(parts[1], name), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatalf("parse %s: %v", name, err)
			}
			p.files = append(p.files, f)
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.CONST {
					continue
				}
				for _, s := range g.Specs {
					vs := s.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if i < len(vs.Values) {
							if v, ok := stringLit(vs.Values[i]); ok {
								consts[p.path][n.Name] = v
							}
						}
					}
				}
			}
		}
		pkgs = append(pkgs, p)
	}
	read := map[string]string{}
	note := func(name string, pos token.Pos) {
		if _, seen := read[name]; !seen {
			read[name] = fset.Position(pos).String()
		}
	}
	for _, p := range pkgs {
		for _, f := range p.files {
			imports := map[string]string{} // local name → import path
			for _, im := range f.Imports {
				path, _ := strconv.Unquote(im.Path.Value)
				name := filepath.Base(path)
				if im.Name != nil {
					name = im.Name.Name
				}
				imports[name] = path
			}
			resolve := func(e ast.Expr) (string, bool) {
				switch x := e.(type) {
				case *ast.Ident:
					v, ok := consts[p.path][x.Name]
					return v, ok
				case *ast.SelectorExpr:
					if id, ok := x.X.(*ast.Ident); ok {
						v, ok := consts[imports[id.Name]][x.Sel.Name]
						return v, ok
					}
				}
				return stringLit(e)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.BasicLit:
					if v, ok := stringLit(x); ok && envName.MatchString(v) {
						note(v, x.Pos())
					}
				case *ast.CallExpr:
					if isEnvRead(x.Fun) && len(x.Args) > 0 {
						if v, ok := resolve(x.Args[0]); ok {
							note(v, x.Pos())
						}
					}
				}
				return true
			})
		}
	}
	return read
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	v, err := strconv.Unquote(lit.Value)
	return v, err == nil
}

// isEnvRead: os.Getenv, os.LookupEnv, env.Or, env.Int, env.Duration, or a
// getenv function value.
func isEnvRead(fun ast.Expr) bool {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name == "getenv"
	case *ast.SelectorExpr:
		id, ok := f.X.(*ast.Ident)
		if !ok {
			return false
		}
		switch id.Name {
		case "os":
			return f.Sel.Name == "Getenv" || f.Sel.Name == "LookupEnv"
		case "env":
			return f.Sel.Name == "Or" || f.Sel.Name == "Int" || f.Sel.Name == "Duration"
		}
	}
	return false
}

// Help is what app prints for --help.
func Help(t testing.TB, app serve.App) string {
	t.Helper()
	var b bytes.Buffer
	if _, err := serve.ParseOptions(app, []string{"--help"}, &b); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("--help: %v", err)
	}
	return b.String()
}

var helpName = regexp.MustCompile(`[A-Z][A-Z0-9_]*_[A-Z0-9_]*[A-Z0-9]`)

// EnvInHelp holds that every variable the binary reads (EnvRead) appears in
// its --help, and that --help names no fleet variable it does not read.
// notRead lists fleet-shaped names that are constants in the binary's
// packages but never read by it, each with the reason (a fake's clock).
func EnvInHelp(t testing.TB, app serve.App, notRead map[string]string) {
	t.Helper()
	read := EnvRead(t)
	help := Help(t, app)
	listed := map[string]bool{}
	for _, n := range helpName.FindAllString(help, -1) {
		listed[n] = true
	}
	var missing, stale []string
	for name, where := range read {
		if _, os := osVars[name]; os || fakeOnly[name] != "" || notRead[name] != "" || listed[name] {
			continue
		}
		missing = append(missing, name+" (read at "+where+")")
	}
	for name := range listed {
		if _, ok := read[name]; !ok && envName.MatchString(name) {
			stale = append(stale, name)
		}
	}
	sort.Strings(missing)
	sort.Strings(stale)
	if len(missing) > 0 {
		t.Errorf("%s reads variables its --help does not list:\n  %s", app.Name, strings.Join(missing, "\n  "))
	}
	if len(stale) > 0 {
		t.Errorf("%s --help lists variables it never reads: %s", app.Name, strings.Join(stale, ", "))
	}
}
