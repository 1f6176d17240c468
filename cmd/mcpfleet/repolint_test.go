package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repoFiles calls fn with every file of the repository whose name keep
// accepts (path relative to the root), skipping VCS, vendored and
// generated trees.
func repoFiles(t *testing.T, keep func(rel string) bool, fn func(rel string, body []byte)) {
	t.Helper()
	root := repoRoot(t)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", ".tools", "testdata", "dist":
				return filepath.SkipDir
			}
			return nil
		}
		if !keep(rel) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fn(rel, b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// internalIssue is a mention of this project's own tracker ("issue 17",
// "Issue 11 item 9", a test named TestIssue10…), which no reader of the
// repository can open. An upstream issue is written owner/repo#N.
var internalIssue = regexp.MustCompile(`\b[Ii]ssues? [0-9]|Issue_?[0-9]`)

func TestNoInternalIssueNumbers(t *testing.T) {
	keep := func(rel string) bool {
		return strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, ".md") || filepath.Base(rel) == "Makefile" ||
			strings.HasPrefix(rel, ".ci"+string(filepath.Separator))
	}
	repoFiles(t, keep, func(rel string, body []byte) {
		for i, line := range strings.Split(string(body), "\n") {
			if internalIssue.MatchString(line) && !strings.HasSuffix(rel, "repolint_test.go") {
				t.Errorf("%s:%d names an issue a reader cannot open; write the reason out or link the public source: %.120s", rel, i+1, strings.TrimSpace(line))
			}
		}
	})
}

// processWide lists the non-test files that still switch on testing.Testing()
// or register into package state from init(), each with why. A file not
// listed here that does either fails: tests must run the code users run, and
// what a package holds must be set by its caller, not by an import.
var processWide = map[string]string{
	"pkg/serve/state.go":                     "the state backend defaults to memory under go test, so in-process tests never share a file in the tester's home",
	"servers/web-search/openai/shapes.go":    "registers its drift shapes on the process-wide watch (drift.Default)",
	"servers/ktrdr/client/shapes.go":         "registers its drift shapes on the process-wide watch (drift.Default)",
	"servers/chartimg/client/shapes.go":      "registers its drift shapes on the process-wide watch (drift.Default)",
	"servers/google-news-rss/feed/shapes.go": "registers its drift shapes on the process-wide watch (drift.Default)",
	"servers/shoonya/noren/shapes.go":        "registers its drift shapes on the process-wide watch (drift.Default)",
	"servers/polymarket/client/shapes.go":    "registers its drift shapes on the process-wide watch (drift.Default)",
}

var (
	testingTesting = regexp.MustCompile(`\btesting\.Testing\(\)`)
	initFunc       = regexp.MustCompile(`(?m)^func init\(\)`)
)

func TestNoTestOnlyPathsOrImportTimeState(t *testing.T) {
	seen := map[string]bool{}
	keep := func(rel string) bool { return strings.HasSuffix(rel, ".go") && !strings.HasSuffix(rel, "_test.go") }
	repoFiles(t, keep, func(rel string, body []byte) {
		rel = filepath.ToSlash(rel)
		if !testingTesting.Match(body) && !initFunc.Match(body) {
			return
		}
		seen[rel] = true
		if _, ok := processWide[rel]; !ok {
			t.Errorf("%s calls testing.Testing() or has an init(): take the choice from the caller (options, config), so tests run the code users run", rel)
		}
	})
	for rel := range processWide {
		if !seen[rel] {
			t.Errorf("%s no longer needs its entry in processWide: delete it", rel)
		}
	}
}
