package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// buildOnly builds the named packages (paths under the repository root)
// into a fresh directory, without -race, and returns that directory.
func buildOnly(t *testing.T, pkgs map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, pkg := range pkgs {
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, name), pkg)
		cmd.Dir = repoRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("build %s: %v\n%s", name, err, out)
		}
	}
	return dir
}

// TestDoctorFindsDriftOfARenamedBinary: the images run every server as
// /app/server, so the drift a server keeps for doctor must be named after
// the server, not the executable. A ktrdr binary copied to <tmp>/app/server
// talks to a fake that sends deprecation headers (FAKE_DRIFT=deprecate);
// doctor, reading the same state directory, reports the drift for ktrdr.
func TestDoctorFindsDriftOfARenamedBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ktrdr and its fake")
	}
	bins := buildOnly(t, map[string]string{"ktrdr": "./servers/ktrdr", "fake-ktrdr": "./servers/ktrdr/cmd/fake-ktrdr"})
	app := filepath.Join(t.TempDir(), "app")
	if err := os.MkdirAll(app, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(bins, "ktrdr"))
	if err != nil {
		t.Fatal(err)
	}
	server := filepath.Join(app, "server")
	if err := os.WriteFile(server, b, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FAKE_DRIFT", "deprecate")
	addr := startFake(t, filepath.Join(bins, "fake-ktrdr"))
	stateDir := t.TempDir()
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "MCPFLEET_STATE_DIR=" + stateDir,
		"MCPFLEET_STATE=file", "MCPFLEET_DRIFT_SAMPLE=0", "KTRDR_API_URL=http://" + addr + "/api/v1"}
	c, err := client.NewStdioMCPClient(server, env)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "doctor-drift-test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	var call mcp.CallToolRequest
	call.Params.Name = "list_operations"
	if _, err := c.CallTool(ctx, call); err != nil {
		t.Fatal(err)
	}
	_ = c.Close()

	t.Setenv("MCPFLEET_STATE_DIR", stateDir)
	t.Setenv("MCPFLEET_STATE", "")
	t.Setenv("MCPFLEET_DRIFT_DIR", "")
	var out bytes.Buffer
	problems := 0
	lastDrift("ktrdr", &out, func(ok bool, what, fix string) {
		if !ok {
			problems++
		}
		fmt.Fprintf(&out, "%v %s — %s\n", ok, what, fix)
	})
	if problems == 0 || !strings.Contains(out.String(), "deprecat") {
		entries, _ := os.ReadDir(stateDir)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("doctor did not report the deprecation ktrdr saw as /app/server:\n%s\nstate dir holds %v", out.String(), names)
	}
}
