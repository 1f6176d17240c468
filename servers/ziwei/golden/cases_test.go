package golden

import (
	"bufio"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

// goldenLines scans a checked-in gzip JSONL set under testdata, one record per
// line; the file is closed when the test ends.
func goldenLines(t *testing.T, name string) *bufio.Scanner {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 0, 256<<10), maxLine)
	return sc
}
