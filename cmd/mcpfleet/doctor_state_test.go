package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckStateFile(t *testing.T) {
	t.Setenv("MCPFLEET_REDIS_URL", "")
	t.Setenv("MCPFLEET_STATE", "")
	dir := t.TempDir()
	t.Setenv("MCPFLEET_STATE_DIR", dir)
	if path, err := checkStateFile("ziwei"); err != nil || path != filepath.Join(dir, "ziwei.db") {
		t.Fatalf("writable dir: %q %v", path, err)
	}
	blocked := filepath.Join(dir, "a-file")
	if err := os.WriteFile(blocked, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MCPFLEET_STATE_DIR", filepath.Join(blocked, "sub"))
	if _, err := checkStateFile("ziwei"); err == nil || !strings.Contains(err.Error(), "MCPFLEET_STATE_DIR") {
		t.Fatalf("unwritable dir: %v", err)
	}
	t.Setenv("MCPFLEET_STATE", "memory")
	if path, err := checkStateFile("ziwei"); path != "" || err != nil {
		t.Fatalf("memory: %q %v", path, err)
	}
}
