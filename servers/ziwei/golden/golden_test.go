package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// publicGolden is the 300 public iztro 2.6.1 cases kept in testdata (format:
// servers/ziwei/golden/README.md); $ZIWEI_PUBLIC_GOLDEN points at another file.
func publicGolden(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("ZIWEI_PUBLIC_GOLDEN"); p != "" {
		return p
	}
	return filepath.Join("testdata", "golden-public.jsonl.gz")
}

func TestGoldenPublic(t *testing.T) {
	f, err := os.Open(publicGolden(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out strings.Builder
	passed, failed, err := Check(f, &out)
	if err != nil {
		t.Fatal(err)
	}
	if failed > 0 || passed != 300 {
		lines := strings.Split(out.String(), "\n")
		if len(lines) > 60 {
			lines = append(lines[:50], "…", lines[len(lines)-2])
		}
		t.Fatalf("%d passed, %d failed:\n%s", passed, failed, strings.Join(lines, "\n"))
	}
}

// TestGoldenExtra checks 300 further iztro 2.6.1 cases generated with
// testdata/gen-iztro.js, including zh-TW renderings.
func TestGoldenExtra(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "extra-iztro.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out strings.Builder
	passed, failed, err := Check(f, &out)
	if err != nil {
		t.Fatal(err)
	}
	if failed > 0 || passed != 300 {
		t.Fatalf("%d passed, %d failed:\n%s", passed, failed, truncateLines(out.String(), 50))
	}
}

func truncateLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = append(lines[:n], "…", lines[len(lines)-2])
	}
	return strings.Join(lines, "\n")
}
