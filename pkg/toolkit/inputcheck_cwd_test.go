package toolkit

import (
	"os"
	"testing"
)

// TestInputCheckWithoutWorkingDirectory: a server whose working directory
// was removed (a deleted checkout, a cleaned temp dir) still checks
// arguments; the schema's name must not resolve against the directory.
func TestInputCheckWithoutWorkingDirectory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	c := &inputCheck{raw: []byte(`{"type":"object","properties":{"n":{"type":"integer"}}}`)}
	if e := c.check([]byte(`{"n":1}`)); e != nil {
		t.Fatalf("valid arguments: %v", e)
	}
	if e := c.check([]byte(`{"n":"x"}`)); e == nil || e.Code != "invalid_argument" {
		t.Fatalf("invalid arguments: %v", e)
	}
}
