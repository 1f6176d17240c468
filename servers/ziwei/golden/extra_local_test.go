package golden

import (
	"os"
	"strings"
	"testing"
)

// TestGoldenFile checks a local file named by $ZIWEI_GOLDEN (for large iztro-generated sets).
func TestGoldenFile(t *testing.T) {
	p := os.Getenv("ZIWEI_GOLDEN")
	if p == "" {
		t.Skip("set ZIWEI_GOLDEN=file.jsonl[.gz] to check an extra golden file")
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out strings.Builder
	passed, failed, err := Check(f, &out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	if len(lines) > 80 {
		lines = append(lines[:70], "…", lines[len(lines)-2])
	}
	if failed > 0 {
		t.Fatalf("%d passed, %d failed:\n%s", passed, failed, strings.Join(lines, "\n"))
	}
	t.Logf("%d passed", passed)
}
