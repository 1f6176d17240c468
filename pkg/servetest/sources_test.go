package servetest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Helper() {}

func TestFakeCitesSourcesCatchesAnUncitedWriter(t *testing.T) {
	dir := t.TempDir()
	src := `package fake

func writeJSON(v any) {}

// cited: source: docs.example.com/api#errors
func good() { writeJSON(1) }

func bad() { writeJSON(2) }

func inner() {
	// assumed: no public capture
	writeJSON(3)
}
`
	if err := os.WriteFile(filepath.Join(dir, "fake.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	FakeCitesSources(r, dir, regexp.MustCompile(`source: |assumed`), "writeJSON")
	if len(r.errs) != 1 || !regexp.MustCompile(`\bbad\b`).MatchString(r.errs[0]) {
		t.Fatalf("want one error for bad, got %q", r.errs)
	}
}
