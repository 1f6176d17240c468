package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestInstallsWithoutWorkspace proves `go install …/servers/NAME@version` can
// work once published: one module, no replace directive, and every server and
// the CLI build with GOWORK=off from an empty module cache. The cache is filled
// from the local one through a file:// proxy, so nothing leaves the machine.
func TestInstallsWithoutWorkspace(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e: builds every server from an empty module cache")
	}
	root := repoRoot(t)
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(mod), "replace ") {
		t.Fatal("go.mod has a replace directive: `go install …@latest` refuses modules with replace")
	}
	if !strings.HasPrefix(string(mod), "module github.com/mcpfleet/mcpfleet\n") {
		t.Fatal("the repo must be the one module github.com/mcpfleet/mcpfleet")
	}
	nested, _ := filepath.Glob(filepath.Join(root, "*", "*", "go.mod"))
	deeper, _ := filepath.Glob(filepath.Join(root, "servers", "*", "*", "go.mod"))
	if len(nested)+len(deeper) > 0 {
		t.Fatalf("nested modules %v split the install path", append(nested, deeper...))
	}
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	proxy := "file://" + filepath.Join(strings.TrimSpace(string(out)), "cache", "download")
	bin := t.TempDir()
	targets := []string{"./cmd/mcpfleet"}
	for _, s := range servers {
		targets = append(targets, "./servers/"+s.Name)
	}
	args := append([]string{"build", "-trimpath", "-o", bin + string(os.PathSeparator)}, targets...)
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly", "GOMODCACHE="+t.TempDir(),
		"GOPROXY="+proxy, "GOSUMDB=off", "GONOSUMDB=", "GOPRIVATE=")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOWORK=off build from an empty module cache failed: %v\n%s", err, b)
	}
	for _, s := range servers {
		if _, err := os.Stat(filepath.Join(bin, s.Name)); err != nil {
			t.Errorf("%s not built: %v", s.Name, err)
		}
	}
}
